import { CloudUploadOutlined, RocketOutlined } from '@ant-design/icons';
import {
  formatSize,
  formatTime,
  Perm,
  type UpgradePackageRow,
  type UpgradePackageState,
  type UpgradeRolloutRow,
} from '@marquee/protocol';
import { Button, Card, Empty, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCallMutation, useCallQuery } from '../../api/queries';
import { ConfirmAction } from '../../components/ConfirmAction';
import { useCan } from '../../session/useCan';
import { isActive, RolloutActions } from './RolloutActions';
import { packageLabel, RolloutDialog } from './RolloutDialog';
import { ROLLOUT_POLL_MS, RolloutDrawer } from './RolloutDrawer';
import { RolloutProgress } from './RolloutProgress';
import { HaltReason, RolloutStateTag, stageLabel } from './texts';
import { UploadDialog } from './UploadDialog';

const PAGE = 20;

/**
 * The "Upgrades" tab of /device/remote (issue 31): packages (upload with progress, verified by
 * the server's size and SHA-256; delete), and staged rollouts (start with a canary share and a
 * failure threshold; their progress, read again every 3 s while one moves; halt, resume,
 * continue to the rest, roll back; a drawer with each device's state).
 */
export function UpgradesTab() {
  const { t } = useTranslation(['upgrades', 'common']);
  const can = useCan();
  const mayAct = can(Perm.deviceRemote);
  const [uploading, setUploading] = useState(false);
  const [starting, setStarting] = useState<{ packageId?: string } | null>(null);
  const [shown, setShown] = useState<string | null>(null);
  const [packagePage, setPackagePage] = useState(1);
  const [rolloutPage, setRolloutPage] = useState(1);

  const packages = useCallQuery('upgradePackageList', { page: packagePage, size: PAGE }, { keepPrevious: true });
  const rollouts = useCallQuery(
    'upgradeRolloutList',
    { page: rolloutPage, size: PAGE },
    {
      keepPrevious: true,
      refetchInterval: (query) => (query.state.data?.data.some(isActive) ? ROLLOUT_POLL_MS : false),
    },
  );
  const remove = useCallMutation('upgradePackageDelete', { success: t('package.deleted') });

  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }} data-testid="upgrades-tab">
      <Card
        size="small"
        title={t('packages')}
        extra={
          mayAct ? (
            <Button
              type="primary"
              icon={<CloudUploadOutlined />}
              onClick={() => setUploading(true)}
              data-testid="upgrade-upload"
            >
              {t('package.upload')}
            </Button>
          ) : null
        }
      >
        <Table<UpgradePackageRow>
          size="small"
          rowKey="id"
          loading={packages.isLoading}
          dataSource={packages.data?.data ?? []}
          pagination={
            (packages.data?.total ?? 0) > PAGE
              ? { current: packagePage, pageSize: PAGE, total: packages.data?.total, onChange: setPackagePage }
              : false
          }
          locale={{ emptyText: <Empty description={t('package.none')} /> }}
          onRow={(row) => ({ 'data-testid': `upgrade-package-${row.version}` }) as React.HTMLAttributes<HTMLElement>}
          columns={[
            {
              key: 'package',
              title: t('col.package'),
              width: 200,
              render: (_v, row) => (
                <Space direction="vertical" size={0}>
                  <Typography.Text strong>{packageLabel(row, t(`kind.${row.kind}`))}</Typography.Text>
                  <Typography.Text type="secondary" ellipsis style={{ maxWidth: 190, fontSize: 12 }}>
                    {row.fileName}
                  </Typography.Text>
                </Space>
              ),
            },
            {
              key: 'state',
              dataIndex: 'state',
              title: t('col.state'),
              width: 100,
              render: (s: UpgradePackageState) => (
                <Tag color={s === 'ready' ? 'success' : 'default'} data-testid="upgrade-package-state">
                  {t(`packageState.${s}`)}
                </Tag>
              ),
            },
            {
              key: 'size',
              dataIndex: 'size',
              title: t('col.size'),
              width: 100,
              align: 'right',
              render: (v: number, row) => (row.state === 'ready' ? formatSize(v) : '-'),
            },
            {
              key: 'sha256',
              dataIndex: 'sha256',
              title: 'SHA-256',
              width: 170,
              render: (v: string) =>
                v ? (
                  <Typography.Text
                    code
                    copyable={{ text: v, tooltips: [t('copy'), t('copied')] }}
                    data-testid="upgrade-package-sha"
                    title={v}
                  >
                    {`${v.slice(0, 12)}…`}
                  </Typography.Text>
                ) : (
                  '-'
                ),
            },
            { key: 'notes', dataIndex: 'notes', title: t('field.notes'), ellipsis: true, render: (v) => v || '-' },
            {
              key: 'created',
              dataIndex: 'createdAt',
              title: t('col.created'),
              width: 160,
              render: (v: string) => formatTime(v),
            },
            ...(mayAct
              ? [
                  {
                    key: 'ops',
                    title: t('col.actions'),
                    width: 170,
                    render: (_v: unknown, row: UpgradePackageRow) => (
                      <Space size={4}>
                        <Button
                          type="link"
                          size="small"
                          disabled={row.state !== 'ready'}
                          onClick={() => setStarting({ packageId: row.id })}
                          data-testid={`upgrade-package-rollout-${row.version}`}
                        >
                          {t('action.rollout')}
                        </Button>
                        <ConfirmAction
                          label={t('action.delete')}
                          title={t('confirm.deleteTitle', { version: row.version })}
                          description={t('confirm.delete')}
                          cancelText={t('common:action.cancel')}
                          danger
                          testId={`upgrade-package-delete-${row.version}`}
                          onConfirm={() => remove.mutateAsync({ id: row.id })}
                        />
                      </Space>
                    ),
                  },
                ]
              : []),
          ]}
        />
      </Card>
      <Card
        size="small"
        title={t('rollouts')}
        extra={
          mayAct ? (
            <Button
              icon={<RocketOutlined />}
              onClick={() => setStarting({})}
              disabled={!packages.data?.data.some((p) => p.state === 'ready')}
              data-testid="upgrade-rollout-start"
            >
              {t('rollout.start')}
            </Button>
          ) : null
        }
      >
        <Table<UpgradeRolloutRow>
          size="small"
          rowKey="id"
          loading={rollouts.isLoading}
          dataSource={rollouts.data?.data ?? []}
          pagination={
            (rollouts.data?.total ?? 0) > PAGE
              ? { current: rolloutPage, pageSize: PAGE, total: rollouts.data?.total, onChange: setRolloutPage }
              : false
          }
          locale={{ emptyText: <Empty description={t('rollout.empty')} /> }}
          onRow={(row) =>
            ({ 'data-testid': `upgrade-rollout-${row.packageVersion}` }) as React.HTMLAttributes<HTMLElement>
          }
          columns={[
            {
              key: 'package',
              title: t('col.package'),
              width: 170,
              render: (_v, row) => (
                <Space direction="vertical" size={0}>
                  <Typography.Text strong>{`${t(`kind.${row.kind}`)} ${row.packageVersion}`}</Typography.Text>
                  {row.rollbackOf ? (
                    <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                      {t('rollout.isRollback')}
                    </Typography.Text>
                  ) : null}
                </Space>
              ),
            },
            {
              key: 'state',
              title: t('col.state'),
              width: 200,
              render: (_v, row) => (
                <Space direction="vertical" size={0}>
                  <RolloutStateTag state={row.state} testId="upgrade-rollout-state" />
                  {row.state === 'halted' ? <HaltReason rollout={row} testId="upgrade-rollout-halt-reason" /> : null}
                </Space>
              ),
            },
            {
              key: 'stage',
              title: t('col.stage'),
              width: 110,
              render: (_v, row) => stageLabel(t, row),
            },
            {
              key: 'progress',
              title: t('col.progress'),
              width: 260,
              render: (_v, row) => <RolloutProgress counts={row.counts} testId="upgrade-rollout-progress" />,
            },
            {
              key: 'created',
              dataIndex: 'createdAt',
              title: t('col.created'),
              width: 160,
              render: (v: string) => formatTime(v),
            },
            {
              key: 'ops',
              title: t('col.actions'),
              render: (_v, row) => (
                <Space size={4} wrap>
                  <Button
                    type="link"
                    size="small"
                    onClick={() => setShown(row.id)}
                    data-testid={`upgrade-rollout-details-${row.packageVersion}`}
                  >
                    {t('action.details')}
                  </Button>
                  {mayAct ? (
                    <RolloutActions rollout={row} testPrefix={`upgrade-rollout-${row.packageVersion}`} />
                  ) : null}
                </Space>
              ),
            },
          ]}
        />
      </Card>
      <UploadDialog open={uploading} onClose={() => setUploading(false)} />
      <RolloutDialog
        open={starting !== null}
        packageId={starting?.packageId}
        onClose={() => setStarting(null)}
        onStarted={(id) => setShown(id)}
      />
      <RolloutDrawer id={shown} onClose={() => setShown(null)} />
    </Space>
  );
}
