import { type Endpoints, MONITOR_TASK_STATES, type MonitorTask, type Req } from '@marquee/protocol';
import { Alert, Button, Tabs, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { CountLabel } from '../../components/CountLabel';
import { timeColumn } from '../../components/columns';
import { ListPage, useListPage } from '../../components/listPage';
import { TaskStateTag } from './monitorLook';

/** Where a task opens. */
export const taskDetailPath = (id: string) => `/operate/taskDetail?id=${encodeURIComponent(id)}`;

/**
 * /operate/monitorTask (monitoring.taskList): the monitoring tasks, one per screen of a plan,
 * with a tab per state of spec section 4 (pending view, pending, completed, not completed,
 * overdue) kept in the URL (`state`), and the plan when opened from a plan (`planId`). A
 * monitor account sees its own tasks of the enterprises that granted it (the server filters);
 * the plan's side sees its data scope. A row opens the task's detail.
 */
export default function MonitorTaskPage() {
  const { t } = useTranslation('monitoring');
  const navigate = useNavigate();
  const list = useListPage({
    id: 'monitorTasks',
    endpoint: 'monitoringTaskList',
    scope: ['state', 'planId'],
    request: (filters, page) =>
      ({ page: page.page, size: page.size, ...filters }) as Req<Endpoints['monitoringTaskList']>,
    columns: [
      {
        prop: 'deviceName',
        label: t('task.screen'),
        width: 180,
        ellipsis: true,
        slot: (v: string, row: MonitorTask) => (
          <Link to={taskDetailPath(row.id)} data-testid={`monitor-task-open-${row.id}`}>
            {v}
          </Link>
        ),
      },
      {
        prop: 'deviceAddress',
        label: t('task.address'),
        width: 200,
        ellipsis: true,
        slot: (v: string | null) => v ?? '—',
      },
      { prop: 'planName', label: t('task.plan'), width: 160, ellipsis: true },
      { prop: 'entName', label: t('task.enterprise'), width: 160, ellipsis: true },
      { prop: 'monitorName', label: t('task.monitor'), width: 130, ellipsis: true },
      {
        prop: 'state',
        label: t('task.state'),
        width: 150,
        slot: (v: MonitorTask['state'], row: MonitorTask) => <TaskStateTag state={v} closed={row.closed} />,
      },
      {
        prop: 'startDate',
        label: t('task.period'),
        width: 200,
        slot: (_: string, row: MonitorTask) => `${row.startDate} ~ ${row.endDate}`,
      },
      {
        prop: 'photos',
        label: t('task.photos'),
        width: 130,
        slot: (v: number, row: MonitorTask) => (
          <span data-testid={`monitor-task-photos-${row.id}`}>
            {v} / {row.photosRequired}
            {row.flagged > 0 ? (
              <Tag color="warning" style={{ marginLeft: 6 }}>
                {t('task.flagged', { count: row.flagged })}
              </Tag>
            ) : null}
          </span>
        ),
      },
      timeColumn<MonitorTask>('dueAt', t('task.dueAt')),
      timeColumn<MonitorTask>('completedAt', t('task.completedAt')),
    ],
    operations: [
      {
        key: 'open',
        label: t('task.open'),
        handler: (row: MonitorTask) => navigate(taskDetailPath(row.id)),
        testId: (row: MonitorTask) => `monitor-task-detail-${row.id}`,
      },
    ],
  });

  const state = list.state.filters.state ?? '';
  const planId = list.state.filters.planId ?? '';
  const counts = list.query.data?.counts;
  const all = counts ? Object.values(counts).reduce((a, b) => a + b, 0) : 0;
  const tabs = (
    <>
      {planId ? (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 8 }}
          title={t('task.ofPlan')}
          action={
            <Button
              size="small"
              onClick={() => list.refine({ planId: undefined })}
              data-testid="monitor-task-all-plans"
            >
              {t('task.allPlans')}
            </Button>
          }
        />
      ) : null}
      <Tabs
        activeKey={state || 'all'}
        onChange={(key) => list.refine({ state: key === 'all' ? undefined : key })}
        data-testid="monitor-task-tabs"
        items={[
          { key: 'all', label: <CountLabel text={t('task.tabAll')} count={all} testId="monitor-task-tab-all" /> },
          ...MONITOR_TASK_STATES.map((s) => ({
            key: s,
            label: <CountLabel text={t(`state.${s}`)} count={counts?.[s] ?? 0} testId={`monitor-task-tab-${s}`} />,
          })),
        ]}
      />
    </>
  );

  return (
    <ListPage
      list={list}
      title={t('task.title')}
      testPrefix="monitor-tasks"
      above={tabs}
      rowTestId={(row) => `monitor-task-row-${row.id}`}
      empty={state || planId ? t('task.emptyFiltered') : t('task.empty')}
      failed={{ description: t('common.loadFailed'), retryLabel: t('common.retry') }}
      showTotal={(total) => t('task.total', { count: total })}
    />
  );
}
