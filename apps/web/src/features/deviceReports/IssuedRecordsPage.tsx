import { formatTime, Perm, PUSH_REASONS, type Push, type PushDevice, type PushDeviceState } from '@marquee/protocol';
import { Drawer, Select, Table, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCallMutation, useCallQuery } from '../../api/queries';
import { ListPage, useListPage } from '../../components/listPage';

const STATE_COLOR: Record<PushDeviceState, string> = {
  pending: 'default',
  sent: 'processing',
  acknowledged: 'success',
  failed: 'error',
  expired: 'warning',
};

/** One push's devices and their results, in a drawer. */
function PushDevicesDrawer({ push, onClose }: { push: Push | null; onClose: () => void }) {
  const { t } = useTranslation('deviceReports');
  const [page, setPage] = useState(1);
  const [state, setState] = useState<PushDeviceState | undefined>();
  const devices = useCallQuery(
    'pushDevices',
    { id: push?.id ?? '', page, size: 20, state },
    { enabled: Boolean(push), keepPrevious: true },
  );
  return (
    <Drawer open={Boolean(push)} onClose={onClose} title={t('issued.drawer')} size="large" destroyOnHidden>
      <Select
        allowClear
        style={{ width: 160, marginBottom: 12 }}
        placeholder={t('issued.state')}
        value={state}
        onChange={(v: PushDeviceState | undefined) => {
          setState(v);
          setPage(1);
        }}
        options={(['pending', 'sent', 'acknowledged', 'failed', 'expired'] as const).map((s) => ({
          value: s,
          label: t(`state.${s}`),
        }))}
        data-testid="push-devices-state"
      />
      <Table<PushDevice>
        size="small"
        rowKey="deviceId"
        loading={devices.isLoading}
        dataSource={devices.data?.data ?? []}
        locale={{ emptyText: t('issued.noDevices') }}
        pagination={{
          current: page,
          pageSize: 20,
          total: devices.data?.total ?? 0,
          onChange: setPage,
          showSizeChanger: false,
        }}
        columns={[
          {
            key: 'number',
            title: t('col.number'),
            dataIndex: 'number',
            width: 140,
            render: (v: string | null) => v ?? '-',
          },
          { key: 'name', title: t('col.name'), dataIndex: 'name', ellipsis: true },
          {
            key: 'state',
            title: t('issued.state'),
            width: 100,
            render: (_: unknown, d: PushDevice) => <Tag color={STATE_COLOR[d.state]}>{t(`state.${d.state}`)}</Tag>,
          },
          {
            key: 'ackedAt',
            title: t('issued.ackedAt'),
            width: 170,
            render: (_: unknown, d: PushDevice) => (d.ackedAt ? formatTime(d.ackedAt) : '-'),
          },
          {
            key: 'downloadedAt',
            title: t('issued.downloadedAt'),
            width: 170,
            render: (_: unknown, d: PushDevice) => (d.downloadedAt ? formatTime(d.downloadedAt) : '-'),
          },
          {
            key: 'error',
            title: t('issued.error'),
            ellipsis: true,
            render: (_: unknown, d: PushDevice) =>
              d.errorCode || d.errorMessage ? [d.errorCode, d.errorMessage].filter(Boolean).join(': ') : '-',
          },
        ]}
        onRow={() => ({ 'data-testid': 'push-device-row' }) as React.HTMLAttributes<HTMLElement>}
      />
    </Drawer>
  );
}

/**
 * Issued records (/report/issuedRecords): every push of new content to devices (an ad's
 * approval, change, pause, a broadcast, a repush, a layout, a playlist sort), newest first,
 * with who made it and how many of its devices (those the caller sees) received it, failed
 * or are still pending; a push's devices and their results open in a drawer.
 */
export default function IssuedRecordsPage() {
  const { t } = useTranslation('deviceReports');
  const [open, setOpen] = useState<Push | null>(null);
  // The devices whose last push of the ad failed or expired get it again (ad.repush).
  const repush = useCallMutation('adRepush', { success: (result) => t('issued.repushed', { count: result.devices }) });
  const list = useListPage({
    id: 'issuedRecords',
    endpoint: 'pushList',
    filters: [
      {
        key: 'reason',
        kind: 'select',
        label: t('issued.reason'),
        width: 170,
        placeholder: t('filter.all'),
        options: PUSH_REASONS.map((r) => ({ value: r, label: t(`reason.${r}`) })),
        testId: 'issued-filter-reason',
      },
      {
        key: 'keyword',
        label: t('issued.ad'),
        placeholder: t('issued.adPlaceholder'),
        testId: 'issued-filter-keyword',
      },
      { key: 'range', kind: 'range', from: 'from', to: 'to', label: t('filter.range'), testId: 'issued-filter-range' },
    ],
    columns: [
      { prop: 'createdAt', label: t('issued.when'), width: 170, slot: (v: string) => formatTime(v) },
      {
        prop: 'reason',
        label: t('issued.reason'),
        width: 140,
        slot: (v: Push['reason']) => <Tag>{t(`reason.${v}`)}</Tag>,
      },
      {
        prop: 'adName',
        label: t('issued.ad'),
        width: 220,
        ellipsis: true,
        slot: (_: unknown, row) => (row.adName ? `${row.adNumber ?? ''} ${row.adName}`.trim() : '-'),
      },
      { prop: 'accountName', label: t('issued.who'), width: 140, ellipsis: true },
      { prop: 'devices', label: t('issued.devices'), width: 90, showThousands: true },
      { prop: 'acknowledged', label: t('issued.acked'), width: 90, showThousands: true },
      { prop: 'failed', label: t('issued.failed'), width: 90, showThousands: true },
      { prop: 'pending', label: t('issued.pending'), width: 90, showThousands: true },
    ],
    operationsLabel: t('issued.actions'),
    operations: [
      { key: 'view', label: t('issued.view'), handler: (row: Push) => setOpen(row), testId: () => 'push-view-devices' },
      {
        key: 'repush',
        label: t('issued.repush'),
        authCode: Perm.advEdit,
        notForMonitor: true,
        isShow: (row) => Boolean(row.adId) && row.failed > 0,
        confirm: () => ({ title: t('issued.repushConfirm') }),
        handler: (row) => repush.mutateAsync({ id: row.adId ?? '' }),
        testId: () => 'push-repush',
      },
    ],
  });
  return (
    <ListPage
      list={list}
      testId="issued-records-page"
      className="mq-issued-records"
      filterTestIds={{ search: 'issued-search', reset: 'issued-reset' }}
      title={t('issued.title')}
      rowTestId={() => 'issued-row'}
      empty={t('issued.empty')}
      showTotal={(total) => t('issued.total', { count: total })}
    >
      <PushDevicesDrawer push={open} onClose={() => setOpen(null)} />
    </ListPage>
  );
}
