import { formatTime, Perm, PUSH_REASONS, type Push, type PushDevice, type PushDeviceState } from '@marquee/protocol';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, DatePicker, Drawer, Form, Input, Select, Space, Table, Tag } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { ConfirmAction } from '../../components/ConfirmAction';
import { FilterBar } from '../../components/FilterBar';
import { ListTable } from '../../components/ListTable';
import { useUrlListState } from '../../components/listState';
import { NotForMonitor } from '../../components/MonitorGuard';
import type { TableConfig } from '../../components/tableConfig';
import { useCan } from '../../session/useCan';
import { useSearchRound } from '../reports/searchRound';

const FILTER_KEYS = ['reason', 'keyword', 'from', 'to'] as const;

const STATE_COLOR: Record<PushDeviceState, string> = {
  pending: 'default',
  sent: 'processing',
  acknowledged: 'success',
  failed: 'error',
  expired: 'warning',
};

interface FormValues {
  reason?: string;
  keyword?: string;
  range?: [Dayjs | null, Dayjs | null] | null;
}

/** One push's devices and their results, in a drawer. */
function PushDevicesDrawer({ push, onClose }: { push: Push | null; onClose: () => void }) {
  const { t } = useTranslation('deviceReports');
  const [page, setPage] = useState(1);
  const [state, setState] = useState<PushDeviceState | undefined>();
  const devices = useQuery({
    queryKey: ['push.devices', push?.id, page, state],
    queryFn: ({ signal }) => call('pushDevices', { id: push?.id ?? '', page, size: 20, state }, { signal }),
    enabled: Boolean(push),
    placeholderData: keepPreviousData,
  });
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
  const listState = useUrlListState(FILTER_KEYS);
  const { page, size, filters } = listState;
  const { round, again } = useSearchRound();
  const [open, setOpen] = useState<Push | null>(null);
  const can = useCan();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  // The devices whose last push of the ad failed or expired get it again (ad.repush).
  const repush = useMutation({
    mutationFn: (adId: string) => call('adRepush', { id: adId }),
    onSuccess: async (result) => {
      message.success(t('issued.repushed', { count: result.devices }));
      await queryClient.invalidateQueries({ queryKey: ['push.list'] });
    },
  });
  const filter = useMemo(
    () =>
      Object.fromEntries(Object.entries(filters).filter(([, v]) => v)) as {
        reason?: Push['reason'];
        keyword?: string;
        from?: string;
        to?: string;
      },
    [filters],
  );
  const fields: FormValues = useMemo(
    () => ({
      reason: filters.reason,
      keyword: filters.keyword,
      range: filters.from && filters.to ? [dayjs(filters.from), dayjs(filters.to)] : null,
    }),
    [filters],
  );
  const list = useQuery({
    queryKey: ['push.list', page, size, filter, round],
    queryFn: ({ signal }) => call('pushList', { page, size, ...filter }, { signal }),
    placeholderData: keepPreviousData,
  });
  const search = ({ range, ...values }: FormValues) => {
    const [from, to] = range ?? [];
    listState.applyFilters({ ...values, from: from?.format('YYYY-MM-DD'), to: to?.format('YYYY-MM-DD') });
  };
  const config: TableConfig<Push> = {
    id: 'issuedRecords',
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
      {
        prop: 'id',
        label: t('issued.actions'),
        width: 200,
        slot: (_: unknown, row) => (
          <Space size={0}>
            <Button type="link" size="small" onClick={() => setOpen(row)} data-testid="push-view-devices">
              {t('issued.view')}
            </Button>
            {row.adId && row.failed > 0 && can(Perm.advEdit) ? (
              <NotForMonitor>
                <ConfirmAction
                  label={t('issued.repush')}
                  title={t('issued.repushConfirm')}
                  cancelText={t('issued.cancel')}
                  testId="push-repush"
                  onConfirm={() => repush.mutateAsync(row.adId ?? '')}
                />
              </NotForMonitor>
            ) : null}
          </Space>
        ),
      },
    ],
  };
  return (
    <div className="mq-view mq-issued-records" data-testid="issued-records-page">
      <Card size="small" className="mq-filter-card" style={{ marginBottom: 12 }}>
        <FilterBar
          values={fields}
          onSearch={again(search)}
          onReset={again(listState.clearFilters)}
          testIds={{ search: 'issued-search', reset: 'issued-reset' }}
          className="mq-filter-form"
        >
          <Form.Item name="reason" label={t('issued.reason')}>
            <Select
              allowClear
              style={{ width: 170 }}
              placeholder={t('filter.all')}
              options={PUSH_REASONS.map((r) => ({ value: r, label: t(`reason.${r}`) }))}
              data-testid="issued-filter-reason"
            />
          </Form.Item>
          <Form.Item name="keyword" label={t('issued.ad')}>
            <Input allowClear placeholder={t('issued.adPlaceholder')} data-testid="issued-filter-keyword" />
          </Form.Item>
          <Form.Item name="range" label={t('filter.range')}>
            <DatePicker.RangePicker data-testid="issued-filter-range" />
          </Form.Item>
        </FilterBar>
      </Card>
      <Card size="small" className="mq-list-card" title={t('issued.title')}>
        <ListTable
          config={config}
          query={list}
          state={listState}
          rowTestId={() => 'issued-row'}
          empty={t('issued.empty')}
          showTotal={(total) => t('issued.total', { count: total })}
        />
      </Card>
      <PushDevicesDrawer push={open} onClose={() => setOpen(null)} />
    </div>
  );
}
