import { type Ad, ErrorCode, Perm } from '@marquee/protocol';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Card, Form, Input, Select, Space, Switch, Tag, Tooltip } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, call } from '../../api/client';
import { FilterBar } from '../../components/FilterBar';
import { FormDialog } from '../../components/FormDialog';
import { ListTable } from '../../components/ListTable';
import { useUrlListState } from '../../components/listState';
import { NotForMonitor } from '../../components/MonitorGuard';
import type { TableConfig } from '../../components/tableConfig';
import { requiredRule } from '../../components/zodRule';
import { useCan } from '../../session/useCan';
import { AdDetailDrawer } from './AdDetailDrawer';
import { periodText, statusLook } from './adLook';

const FILTER_KEYS = ['name', 'view'] as const;
const REASON_MAX = 200;

/** Whether a row still waits for the caller's decision (first or second audit). */
const waiting = (row: Ad) => row.reviewState === 'pending' || row.reviewState === 'pendingSecond';
/** The key of one decision: an ad's review round and stage (a new round opens after an edit). */
const decisionKey = (row: Ad) => `${row.id}:${row.reviewRound}:${row.reviewState}`;

/**
 * The review queue (/advert/audit): ads pending their first or second audit (or every ad),
 * approved, or rejected with a reason. A decision disables the row's buttons; a CONFLICT
 * (the ad was edited or decided meanwhile) is shown with the server's message and the list
 * refreshed. The enterprise's second-audit setting is a switch on the page.
 */
export default function AuditPage() {
  const { t } = useTranslation(['ads', 'validation']);
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const can = useCan();
  const listState = useUrlListState(FILTER_KEYS);
  const { filters, pageRequest } = listState;
  const [viewing, setViewing] = useState<string | null>(null);
  const [failing, setFailing] = useState<Ad | null>(null);
  const [decided, setDecided] = useState<ReadonlySet<string>>(new Set());
  const all = filters.view === 'all';

  const list = useQuery({
    queryKey: ['ads', 'audit', pageRequest, filters.name, all],
    queryFn: ({ signal }) =>
      call('adList', { ...pageRequest, name: filters.name, status: all ? undefined : 'pendingAudit' }, { signal }),
    placeholderData: keepPreviousData,
  });
  const refresh = () => void queryClient.invalidateQueries({ queryKey: ['ads'] });
  const markDecided = (row: Ad) => setDecided((prev) => new Set(prev).add(decisionKey(row)));

  const pass = useMutation({
    mutationFn: (row: Ad) =>
      row.reviewState === 'pendingSecond'
        ? call('adSecondAuditPass', { id: row.id, round: row.reviewRound })
        : call('adAuditPass', { id: row.id, round: row.reviewRound }),
    onSuccess: (_r, row) => {
      markDecided(row);
      void message.success(t('audit.passed'));
    },
    // a CONFLICT's message is the client's toast; the row is refreshed either way
    onSettled: refresh,
  });
  const fail = async (row: Ad, reason: string) => {
    try {
      if (row.reviewState === 'pendingSecond')
        await call('adSecondAuditFail', { id: row.id, round: row.reviewRound, reason });
      else await call('adAuditFail', { id: row.id, round: row.reviewRound, reason });
      markDecided(row);
    } catch (error) {
      // decided or edited meanwhile: the server's message was shown; the dialog has nothing left to decide
      if (error instanceof ApiError && error.code === ErrorCode.CONFLICT) setFailing(null);
      throw error;
    } finally {
      refresh();
    }
  };

  const isDecided = (row: Ad) => !waiting(row) || decided.has(decisionKey(row));
  const decision = {
    authCode: Perm.advAudit,
    notForMonitor: true,
    disabled: (row: Ad) => (isDecided(row) ? t('audit.decided') : false),
  };
  const config: TableConfig<Ad> = {
    id: 'adAudit',
    operationsLabel: t('actions'),
    columns: [
      { prop: 'number', label: t('ad.field.number'), width: 110 },
      { prop: 'name', label: t('ad.field.name'), width: 200, ellipsis: true },
      {
        prop: 'reviewState',
        label: t('audit.queue'),
        width: 150,
        slot: (v: string) => (
          <Tag color={v === 'pendingSecond' ? 'purple' : v === 'pending' ? 'processing' : undefined}>
            {t(`reviewState.${v}`)}
          </Tag>
        ),
      },
      {
        prop: 'status',
        label: t('ad.field.status'),
        width: 120,
        slot: (v: string) => {
          const look = statusLook(t)(v);
          return <Tag color={look.color}>{look.text}</Tag>;
        },
      },
      { prop: 'type', label: t('ad.field.type'), width: 110, slot: (v: string) => t(`type.${v}`) },
      { prop: 'startAt', label: t('ad.field.period'), width: 330, slot: (_v: string, row) => periodText(row) },
      { prop: 'ownerName', label: t('field.owner'), width: 120, ellipsis: true },
      { prop: 'auditorName', label: t('ad.field.auditor'), width: 120 },
      { prop: 'auditReason', label: t('ad.field.auditReason'), width: 180, ellipsis: true },
    ],
    operations: [
      {
        key: 'details',
        label: t('ad.details'),
        handler: (row) => setViewing(row.id),
        testId: (row) => `audit-details-${row.name}`,
      },
      {
        ...decision,
        key: 'pass',
        label: t('audit.pass'),
        confirm: (row) => ({ title: t('audit.confirmPass', { name: row.name }) }),
        handler: (row) => pass.mutateAsync(row).catch(() => undefined),
        testId: (row) => `audit-pass-${row.name}`,
      },
      {
        ...decision,
        key: 'fail',
        label: t('audit.fail'),
        danger: true,
        handler: (row) => setFailing(row),
        testId: (row) => `audit-fail-${row.name}`,
      },
    ],
  };

  const filterValues = useMemo(() => ({ name: filters.name, view: filters.view ?? 'pending' }), [filters]);
  return (
    <div className="mq-view mq-ad-audit" data-testid="audit-page">
      <Card size="small" className="mq-filter-card" style={{ marginBottom: 12 }}>
        <FilterBar
          values={filterValues}
          onSearch={(v) => listState.applyFilters({ name: v.name, view: v.view === 'all' ? 'all' : undefined })}
          onReset={listState.clearFilters}
          testIds={{ search: 'audit-search', reset: 'audit-reset' }}
        >
          <Form.Item name="name" label={t('ad.field.name')}>
            <Input allowClear style={{ width: 160 }} data-testid="audit-filter-name" />
          </Form.Item>
          <Form.Item name="view" label={t('audit.show')}>
            <Select
              style={{ width: 160 }}
              options={[
                { value: 'pending', label: t('audit.showPending') },
                { value: 'all', label: t('audit.showAll') },
              ]}
              data-testid="audit-filter-view"
            />
          </Form.Item>
        </FilterBar>
      </Card>
      <Card
        size="small"
        className="mq-list-card"
        title={t('audit.title')}
        extra={can(Perm.advAudit) ? <SecondAuditSwitch /> : null}
      >
        <ListTable
          config={config}
          query={list}
          state={listState}
          rowTestId={(row) => `audit-row-${row.name}`}
          empty={t(all ? 'ad.empty' : 'audit.empty')}
          showTotal={(total) => t('ad.total', { count: total })}
        />
      </Card>
      <AdDetailDrawer id={viewing} onClose={() => setViewing(null)} />
      <FormDialog<{ reason: string }>
        open={failing !== null}
        title={t('audit.failTitle', { name: failing?.name ?? '' })}
        onClose={() => setFailing(null)}
        submit={(v) => (failing ? fail(failing, v.reason.trim()) : Promise.resolve())}
        success={t('audit.failed')}
        okText={t('audit.fail')}
        cancelText={t('cancel')}
        submitTestId="audit-fail-submit"
        testId="audit-fail-dialog"
      >
        <Form.Item
          name="reason"
          label={t('audit.reason')}
          rules={[requiredRule(t), { max: REASON_MAX, message: t('tooLong', { ns: 'validation', max: REASON_MAX }) }]}
        >
          <Input.TextArea rows={4} maxLength={REASON_MAX} showCount data-testid="audit-fail-reason" />
        </Form.Item>
      </FormDialog>
    </div>
  );
}

/** The enterprise's second-audit setting (ad.settings / ad.saveSettings). */
function SecondAuditSwitch() {
  const { t } = useTranslation(['ads']);
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const settings = useQuery({
    queryKey: ['ads', 'settings'],
    queryFn: ({ signal }) => call('adSettings', {}, { signal }),
  });
  const save = useMutation({
    mutationFn: (requireSecondAudit: boolean) => call('adSaveSettings', { requireSecondAudit }),
    onSuccess: () => {
      void message.success(t('audit.settingSaved'));
      void queryClient.invalidateQueries({ queryKey: ['ads', 'settings'] });
    },
  });
  return (
    <NotForMonitor>
      <Tooltip title={t('audit.secondAuditHint')}>
        <Space size={6}>
          <Switch
            size="small"
            checked={settings.data?.requireSecondAudit ?? false}
            loading={settings.isFetching || save.isPending}
            disabled={!settings.data}
            onChange={(v) => save.mutate(v)}
            aria-label={t('audit.secondAudit')}
            data-testid="audit-second-switch"
          />
          <span>{t('audit.secondAudit')}</span>
        </Space>
      </Tooltip>
    </NotForMonitor>
  );
}
