import { formatTime, type UpgradeDeviceState, type UpgradeRolloutDeviceRow } from '@marquee/protocol';
import { Descriptions, Drawer, Empty, Spin, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useCallQuery } from '../../api/queries';
import { isActive, RolloutActions } from './RolloutActions';
import { DEVICE_STATE_COLORS, RolloutProgress } from './RolloutProgress';
import { deviceReason, HaltReason, RolloutStateTag, stageLabel } from './texts';

/** How often a moving rollout is read again (ms), like the other live pages. */
export const ROLLOUT_POLL_MS = 3000;

/** A rollout with its devices (within the caller's scope): read again every 3 s while it moves. */
export function RolloutDrawer({ id, onClose }: { id: string | null; onClose: () => void }) {
  const { t } = useTranslation('upgrades');
  const info = useCallQuery(
    'upgradeRolloutInfo',
    { id: id ?? '' },
    {
      enabled: Boolean(id),
      refetchInterval: (query) => {
        const rollout = query.state.data?.rollout;
        return rollout && isActive(rollout) ? ROLLOUT_POLL_MS : false;
      },
    },
  );
  const rollout = info.data?.rollout;
  return (
    <Drawer
      open={Boolean(id)}
      onClose={onClose}
      width={960}
      title={rollout ? t('rollout.title', { version: rollout.packageVersion, kind: t(`kind.${rollout.kind}`) }) : ''}
      extra={rollout ? <RolloutActions rollout={rollout} testPrefix="upgrade-drawer" /> : null}
      data-testid="upgrade-rollout-drawer"
      destroyOnHidden
    >
      {!rollout ? (
        <Spin />
      ) : (
        <>
          <Descriptions size="small" column={2} bordered style={{ marginBottom: 16 }}>
            <Descriptions.Item label={t('col.state')}>
              <RolloutStateTag state={rollout.state} testId="upgrade-drawer-state" />
            </Descriptions.Item>
            <Descriptions.Item label={t('col.stage')}>{stageLabel(t, rollout)}</Descriptions.Item>
            <Descriptions.Item label={t('field.canaryPercent')}>{rollout.canaryPercent}%</Descriptions.Item>
            <Descriptions.Item label={t('field.failureThreshold')}>{rollout.failureThreshold}%</Descriptions.Item>
            <Descriptions.Item label={t('field.autoContinue')}>
              {rollout.autoContinue ? t('yes') : t('no')}
            </Descriptions.Item>
            <Descriptions.Item label={t('col.created')}>{formatTime(rollout.createdAt)}</Descriptions.Item>
            {rollout.state === 'halted' ? (
              <Descriptions.Item label={t('col.haltReason')} span={2}>
                <HaltReason rollout={rollout} testId="upgrade-drawer-halt-reason" />
              </Descriptions.Item>
            ) : null}
            <Descriptions.Item label={t('col.progress')} span={2}>
              <RolloutProgress counts={rollout.counts} />
            </Descriptions.Item>
          </Descriptions>
          <Table<UpgradeRolloutDeviceRow>
            size="small"
            rowKey="deviceId"
            dataSource={info.data?.devices ?? []}
            pagination={(info.data?.devices.length ?? 0) > 50 ? { pageSize: 50, showSizeChanger: false } : false}
            locale={{ emptyText: <Empty description={t('rollout.noDevices')} /> }}
            onRow={(row) =>
              ({ 'data-testid': `upgrade-device-${row.deviceName}` }) as React.HTMLAttributes<HTMLElement>
            }
            columns={[
              { key: 'name', dataIndex: 'deviceName', title: t('col.device'), width: 210, ellipsis: true },
              {
                key: 'stage',
                dataIndex: 'stage',
                title: t('col.stage'),
                width: 90,
                render: (s: number) => t(s === 1 ? 'stage.canary' : 'stage.rest'),
              },
              {
                key: 'state',
                dataIndex: 'state',
                title: t('col.state'),
                width: 110,
                render: (s: UpgradeDeviceState) => (
                  <Tag color={DEVICE_STATE_COLORS[s]} data-testid="upgrade-device-state">
                    {t(`deviceState.${s}`)}
                  </Tag>
                ),
              },
              {
                key: 'versions',
                title: t('col.versions'),
                width: 170,
                render: (_v, row) => (
                  <Typography.Text>
                    {row.previousVersion ?? '-'} → {row.state === 'done' ? rollout.packageVersion : '-'}
                  </Typography.Text>
                ),
              },
              {
                key: 'reason',
                dataIndex: 'reason',
                title: t('col.error'),
                ellipsis: true,
                render: (r: string | null) => deviceReason(t, r),
              },
              {
                key: 'updated',
                dataIndex: 'updatedAt',
                title: t('col.updated'),
                width: 160,
                render: (v: string) => formatTime(v),
              },
            ]}
          />
        </>
      )}
    </Drawer>
  );
}
