import { type Ad, ErrorCode, Perm } from '@marquee/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { Form, Input, Space, Switch, Tag, Tooltip } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client';
import { domainKey, useCallMutation, useCallQuery } from '../../api/queries';
import { FormDialog } from '../../components/FormDialog';
import { ListPage, useListPage } from '../../components/listPage';
import { NotForMonitor } from '../../components/MonitorGuard';
import { maxLengthRule, requiredRule } from '../../components/zodRule';
import { useCan } from '../../session/useCan';
import { AdDetailDrawer } from './AdDetailDrawer';
import { periodText, statusLook } from './adLook';

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
  const queryClient = useQueryClient();
  const can = useCan();
  const [viewing, setViewing] = useState<string | null>(null);
  const [failing, setFailing] = useState<Ad | null>(null);
  const [decided, setDecided] = useState<ReadonlySet<string>>(new Set());

  // A CONFLICT's message is the client's toast; the rows are refreshed after a failure too.
  const refresh = () => void queryClient.invalidateQueries({ queryKey: domainKey('ads') });
  const markDecided = (row: Ad) => setDecided((prev) => new Set(prev).add(decisionKey(row)));
  const passFirst = useCallMutation('adAuditPass', { success: t('audit.passed') });
  const passSecond = useCallMutation('adSecondAuditPass', { success: t('audit.passed') });
  const failFirst = useCallMutation('adAuditFail');
  const failSecond = useCallMutation('adSecondAuditFail');
  const pass = async (row: Ad) => {
    const request = { id: row.id, round: row.reviewRound };
    try {
      await (row.reviewState === 'pendingSecond' ? passSecond : passFirst).mutateAsync(request);
      markDecided(row);
    } catch {
      refresh();
    }
  };
  const fail = async (row: Ad, reason: string) => {
    const request = { id: row.id, round: row.reviewRound, reason };
    try {
      await (row.reviewState === 'pendingSecond' ? failSecond : failFirst).mutateAsync(request);
      markDecided(row);
    } catch (error) {
      refresh();
      // decided or edited meanwhile: the server's message was shown; the dialog has nothing left to decide
      if (error instanceof ApiError && error.code === ErrorCode.CONFLICT) setFailing(null);
      throw error;
    }
  };

  const isDecided = (row: Ad) => !waiting(row) || decided.has(decisionKey(row));
  const decision = {
    authCode: Perm.advAudit,
    notForMonitor: true,
    disabled: (row: Ad) => (isDecided(row) ? t('audit.decided') : false),
  };
  const list = useListPage({
    id: 'adAudit',
    endpoint: 'adList',
    filters: [
      { key: 'name', label: t('ad.field.name'), width: 160 },
      {
        key: 'view',
        kind: 'select',
        label: t('audit.show'),
        width: 160,
        defaultValue: 'pending',
        options: [
          { value: 'pending', label: t('audit.showPending') },
          { value: 'all', label: t('audit.showAll') },
        ],
        testId: 'audit-filter-view',
      },
    ],
    request: ({ name, view }, page) => ({
      ...page,
      name: name as string | undefined,
      status: view === 'all' ? undefined : 'pendingAudit',
    }),
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
        handler: pass,
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
  });
  const all = list.state.filters.view === 'all';

  return (
    <ListPage
      list={list}
      testPrefix="audit"
      className="mq-ad-audit"
      title={t('audit.title')}
      extra={can(Perm.advAudit) ? <SecondAuditSwitch /> : null}
      rowTestId={(row) => `audit-row-${row.name}`}
      empty={t(all ? 'ad.empty' : 'audit.empty')}
      showTotal={(total) => t('ad.total', { count: total })}
    >
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
        <Form.Item name="reason" label={t('audit.reason')} rules={[requiredRule(t), maxLengthRule(t, REASON_MAX)]}>
          <Input.TextArea rows={4} maxLength={REASON_MAX} showCount data-testid="audit-fail-reason" />
        </Form.Item>
      </FormDialog>
    </ListPage>
  );
}

/** The enterprise's second-audit setting (ad.settings / ad.saveSettings). */
function SecondAuditSwitch() {
  const { t } = useTranslation(['ads']);
  const settings = useCallQuery('adSettings', {});
  const save = useCallMutation('adSaveSettings', { success: t('audit.settingSaved') });
  return (
    <NotForMonitor>
      <Tooltip title={t('audit.secondAuditHint')}>
        <Space size={6}>
          <Switch
            size="small"
            checked={settings.data?.requireSecondAudit ?? false}
            loading={settings.isFetching || save.isPending}
            disabled={!settings.data}
            onChange={(v) => save.mutate({ requireSecondAudit: v })}
            aria-label={t('audit.secondAudit')}
            data-testid="audit-second-switch"
          />
          <span>{t('audit.secondAudit')}</span>
        </Space>
      </Tooltip>
    </NotForMonitor>
  );
}
