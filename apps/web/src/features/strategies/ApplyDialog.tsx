import type { CommandStateValue, DeviceRow, StrategyApplicationDevice, StrategyRow } from '@marquee/protocol';
import { formatTime } from '@marquee/protocol';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Input, Modal, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';

const STATE_COLOR: Record<CommandStateValue, string> = {
  pending: 'default',
  sent: 'processing',
  acknowledged: 'success',
  failed: 'error',
  expired: 'warning',
};
const FINAL: readonly CommandStateValue[] = ['acknowledged', 'failed', 'expired'];
const PICK_SIZE = 10;

/** A command state as a coloured tag. */
export function CommandStateTag({ state }: { state: CommandStateValue }) {
  const { t } = useTranslation('strategies');
  return (
    <Tag color={STATE_COLOR[state]} data-testid={`state-${state}`}>
      {t(`state.${state}`)}
    </Tag>
  );
}

/**
 * Applies a strategy to devices: a searchable table of the caller's devices (device.list) to
 * pick from, then each device's acknowledgement, polled live until every command has
 * settled (acknowledged, failed or expired). Opened on `results`, it shows the latest
 * application's states.
 */
export function ApplyDialog({
  strategy,
  results,
  onClose,
}: {
  strategy: StrategyRow | null;
  /** Open on the latest application's results instead of the device picker. */
  results: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation('strategies');
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [keyword, setKeyword] = useState('');
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState<string[]>([]);
  const [applied, setApplied] = useState<string | null>(null);
  const open = strategy !== null;
  const showResults = results || applied !== null;

  const devices = useQuery({
    queryKey: ['strategies', 'devices', keyword, page],
    queryFn: ({ signal }) => call('deviceList', { page, size: PICK_SIZE, ...(keyword ? { keyword } : {}) }, { signal }),
    enabled: open && !showResults,
    placeholderData: keepPreviousData,
  });

  const apply = useMutation({
    mutationFn: () => call('strategyApply', { id: strategy?.id ?? '', targets: { deviceIds: selected } }),
    onSuccess: (answer) => {
      setApplied(answer.applicationId);
      void message.success(t('apply.sent', { count: answer.commands.length }));
      void queryClient.invalidateQueries({ queryKey: ['strategies', 'list'] });
    },
  });

  const application = useQuery({
    queryKey: ['strategies', 'application', strategy?.id, applied],
    queryFn: ({ signal }) =>
      call(
        'strategyApplication',
        { strategyId: strategy?.id ?? '', ...(applied ? { applicationId: applied } : {}) },
        { signal },
      ),
    enabled: open && showResults,
    refetchInterval: (query) => {
      const rows = query.state.data?.devices ?? [];
      return rows.length > 0 && rows.every((d) => FINAL.includes(d.state)) ? false : 1000;
    },
  });

  const close = () => {
    setSelected([]);
    setApplied(null);
    setKeyword('');
    setPage(1);
    onClose();
  };

  const rows = application.data?.devices ?? [];
  const acked = rows.filter((d) => d.state === 'acknowledged').length;
  return (
    <Modal
      open={open}
      title={t(showResults ? 'apply.resultsTitle' : 'apply.title', { name: strategy?.name ?? '' })}
      onCancel={close}
      maskClosable={false}
      destroyOnHidden
      width={760}
      footer={
        showResults ? (
          <Button onClick={close} data-testid="strategy-apply-close">
            {t('apply.close')}
          </Button>
        ) : (
          <Space>
            <Button onClick={close} disabled={apply.isPending}>
              {t('dialog.cancel')}
            </Button>
            <Button
              type="primary"
              disabled={selected.length === 0}
              loading={apply.isPending}
              onClick={() => apply.mutate()}
              data-testid="strategy-apply-submit"
            >
              {t('apply.submit', { count: selected.length })}
            </Button>
          </Space>
        )
      }
    >
      {showResults ? (
        <div data-testid="strategy-apply-results">
          {application.data && rows.length === 0 ? (
            <Alert type="info" showIcon title={t('apply.none')} />
          ) : (
            <>
              <Typography.Paragraph>
                {t('apply.progress', { acked, total: rows.length })}
                {application.data?.createdAt ? ` · ${formatTime(application.data.createdAt)}` : ''}
              </Typography.Paragraph>
              <Table<StrategyApplicationDevice>
                size="small"
                rowKey="deviceId"
                loading={application.isLoading}
                dataSource={rows}
                pagination={rows.length > 10 ? { pageSize: 10 } : false}
                onRow={(row) => ({ 'data-testid': `strategy-ack-${row.deviceName}` }) as never}
                columns={[
                  { key: 'device', title: t('apply.device'), dataIndex: 'deviceName', ellipsis: true },
                  {
                    key: 'state',
                    title: t('apply.state'),
                    dataIndex: 'state',
                    width: 140,
                    render: (state: CommandStateValue) => <CommandStateTag state={state} />,
                  },
                  {
                    key: 'error',
                    title: t('apply.error'),
                    dataIndex: 'errorMessage',
                    ellipsis: true,
                    render: (v: string | null, row) => v || row.errorCode || '-',
                  },
                  {
                    key: 'ackedAt',
                    title: t('apply.ackedAt'),
                    dataIndex: 'ackedAt',
                    width: 170,
                    render: (v: string | null) => (v ? formatTime(v) : '-'),
                  },
                ]}
              />
            </>
          )}
        </div>
      ) : (
        <div data-testid="strategy-apply-picker">
          <Input.Search
            allowClear
            placeholder={t('apply.search')}
            aria-label={t('apply.search')}
            onSearch={(value) => {
              setKeyword(value.trim());
              setPage(1);
            }}
            style={{ marginBottom: 12, maxWidth: 320 }}
            data-testid="strategy-apply-search"
          />
          <Typography.Text type="secondary" style={{ marginLeft: 12 }}>
            {t('apply.selected', { count: selected.length })}
          </Typography.Text>
          <Table<DeviceRow>
            size="small"
            rowKey="id"
            loading={devices.isFetching}
            dataSource={devices.data?.data ?? []}
            locale={{ emptyText: t('apply.noDevices') }}
            rowSelection={{
              selectedRowKeys: selected,
              preserveSelectedRowKeys: true,
              onChange: (keys) => setSelected(keys as string[]),
            }}
            onRow={(row) => ({ 'data-testid': `strategy-device-${row.name}` }) as never}
            pagination={{
              current: page,
              pageSize: PICK_SIZE,
              total: devices.data?.total ?? 0,
              onChange: setPage,
              showSizeChanger: false,
            }}
            columns={[
              { key: 'name', title: t('apply.device'), dataIndex: 'name', ellipsis: true },
              { key: 'number', title: t('apply.number'), dataIndex: 'number', width: 160, render: (v) => v || '-' },
              {
                key: 'status',
                title: t('apply.status'),
                dataIndex: 'status',
                width: 110,
                render: (v: DeviceRow['status']) => (
                  <Tag color={v === 'online' ? 'success' : 'default'}>{t(`deviceStatus.${v}`)}</Tag>
                ),
              },
              { key: 'dept', title: t('field.dept'), dataIndex: 'deptName', width: 140, ellipsis: true },
            ]}
          />
        </div>
      )}
    </Modal>
  );
}
