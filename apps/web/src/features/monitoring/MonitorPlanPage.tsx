import { type Endpoints, MONITOR_TASK_STATES, type MonitorPlan, type Req } from '@marquee/protocol';
import { Space, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { AddButton } from '../../components/AddButton';
import { timeColumn } from '../../components/columns';
import { ListPage, useListPage } from '../../components/listPage';
import { PlanDialog } from './PlanDialog';

/**
 * /operate/adMonitor (monitoring.planList): the enterprise's monitoring plans — name, monitor,
 * ads, screens, dates, photographs per task, its tasks by state (each a link to the task list of
 * the plan); the name filter. "New plan" opens PlanDialog (not for a monitor account).
 */
export default function MonitorPlanPage() {
  const { t } = useTranslation('monitoring');
  const navigate = useNavigate();
  const [adding, setAdding] = useState(false);
  const list = useListPage({
    id: 'monitorPlans',
    endpoint: 'monitoringPlanList',
    filters: [{ key: 'name', label: t('plan.name'), placeholder: t('plan.nameHint'), width: 200, maxLength: 100 }],
    request: (filters, page) =>
      ({ page: page.page, size: page.size, ...filters }) as Req<Endpoints['monitoringPlanList']>,
    columns: [
      { prop: 'name', label: t('plan.name'), width: 180, ellipsis: true },
      { prop: 'monitorName', label: t('plan.monitor'), width: 140, ellipsis: true },
      {
        prop: 'adNames',
        label: t('plan.ads'),
        width: 200,
        ellipsis: true,
        slot: (v: string[]) => v.join(', '),
      },
      {
        prop: 'deviceIds',
        label: t('plan.screens'),
        width: 90,
        align: 'right',
        slot: (v: string[]) => v.length,
      },
      {
        prop: 'startDate',
        label: t('plan.period'),
        width: 200,
        slot: (_: string, row: MonitorPlan) => `${row.startDate} ~ ${row.endDate}`,
      },
      { prop: 'photosRequired', label: t('plan.photosRequired'), width: 110, align: 'right' },
      {
        prop: 'tasks',
        label: t('plan.tasks'),
        width: 280,
        slot: (v: Record<string, number>, row: MonitorPlan) => (
          <Space size={4} wrap data-testid={`monitor-plan-tasks-${row.id}`}>
            {MONITOR_TASK_STATES.filter((s) => (v[s] ?? 0) > 0).map((s) => (
              <Link key={s} to={`/operate/monitorTask?planId=${encodeURIComponent(row.id)}&state=${s}`}>
                <Tag>{t('plan.taskCount', { state: t(`state.${s}`), count: v[s] })}</Tag>
              </Link>
            ))}
          </Space>
        ),
      },
      timeColumn<MonitorPlan>('createdAt', t('plan.createdAt')),
    ],
    operations: [
      {
        key: 'tasks',
        label: t('plan.openTasks'),
        handler: (row: MonitorPlan) => navigate(`/operate/monitorTask?planId=${encodeURIComponent(row.id)}`),
        testId: (row: MonitorPlan) => `monitor-plan-open-${row.id}`,
      },
    ],
  });

  return (
    <ListPage
      list={list}
      title={t('plan.title')}
      testPrefix="monitor-plans"
      rowTestId={(row) => `monitor-plan-row-${row.id}`}
      empty={list.filtered ? t('plan.emptyFiltered') : t('plan.empty')}
      failed={{ description: t('common.loadFailed'), retryLabel: t('common.retry') }}
      showTotal={(total) => t('plan.total', { count: total })}
      toolbar={
        <AddButton label={t('plan.add')} notForMonitor onClick={() => setAdding(true)} testId="monitor-plan-add" />
      }
    >
      <PlanDialog open={adding} onClose={() => setAdding(false)} />
    </ListPage>
  );
}
