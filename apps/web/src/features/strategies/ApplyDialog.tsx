import type { CommandStateValue, StrategyApplicationDevice, StrategyRow } from '@marquee/protocol';
import { formatTime } from '@marquee/protocol';
import { Alert, Button, Modal, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCallMutation, useCallQuery } from '../../api/queries';
import { DeviceTransfer } from '../../components/pickers/DevicePicker';

const STATE_COLOR: Record<CommandStateValue, string> = {
  pending: 'default',
  sent: 'processing',
  acknowledged: 'success',
  failed: 'error',
  expired: 'warning',
};
const FINAL: readonly CommandStateValue[] = ['acknowledged', 'failed', 'expired'];

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
 * Applies a strategy to devices: the device picker (the caller's devices, searched on the
 * server) to choose them, then each device's acknowledgement, polled live until every command has
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
  const [selected, setSelected] = useState<string[]>([]);
  const [applied, setApplied] = useState<string | null>(null);
  const open = strategy !== null;
  const showResults = results || applied !== null;

  const apply = useCallMutation('strategyApply', {
    success: (answer) => t('apply.sent', { count: answer.commands.length }),
    onSuccess: (answer) => setApplied(answer.applicationId),
  });

  const application = useCallQuery(
    'strategyApplication',
    { strategyId: strategy?.id ?? '', ...(applied ? { applicationId: applied } : {}) },
    {
      enabled: open && showResults,
      refetchInterval: (query) => {
        const rows = query.state.data?.devices ?? [];
        return rows.length > 0 && rows.every((d) => FINAL.includes(d.state)) ? false : 1000;
      },
    },
  );

  const close = () => {
    setSelected([]);
    setApplied(null);
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
              onClick={() => apply.mutate({ id: strategy?.id ?? '', targets: { deviceIds: selected } })}
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
          <Typography.Paragraph type="secondary">
            {t('apply.selected', { count: selected.length })}
          </Typography.Paragraph>
          <DeviceTransfer value={selected} onChange={setSelected} testId="strategy-apply-devices" />
        </div>
      )}
    </Modal>
  );
}
