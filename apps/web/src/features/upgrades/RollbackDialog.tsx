import { formatTime, type UpgradeRollbackDevices, type UpgradeRolloutRow } from '@marquee/protocol';
import { Form, Radio, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { useCallQuery } from '../../api/queries';
import { FormDialog } from '../../components/FormDialog';
import { packageLabel } from './RolloutDialog';

/** The "each device's previous version" choice of the target (no package named). */
const PREVIOUS = 'previous';

interface Values {
  devices: UpgradeRollbackDevices;
  target: string;
}

/** How many of the rollout's devices each choice takes (done, failed, both). */
const deviceCount = (r: UpgradeRolloutRow, which: UpgradeRollbackDevices) =>
  which === 'upgraded' ? r.counts.done : which === 'failed' ? r.counts.failed : r.counts.done + r.counts.failed;

/**
 * Rolls a rollout back (the confirmation): which of its finished devices (those it upgraded,
 * the default; those that failed; both), and the package they get: each device's previous
 * version (the default), or one the operator picks among the verified packages of the
 * rollout's kind and device type uploaded before its own (with version and upload date).
 */
export function RollbackDialog({
  rollout,
  open,
  onClose,
  testPrefix,
}: {
  rollout: UpgradeRolloutRow;
  open: boolean;
  onClose: () => void;
  testPrefix: string;
}) {
  const { t } = useTranslation(['upgrades', 'common']);
  const [form] = Form.useForm<Values>();
  const candidates = useCallQuery(
    'upgradePackageList',
    { state: 'ready', olderThan: rollout.packageId, page: 1, size: 100 },
    { enabled: open },
  );
  const which = Form.useWatch('devices', form) ?? 'upgraded';
  const target = Form.useWatch('target', form) ?? PREVIOUS;
  const count = deviceCount(rollout, which);
  const chosen = (candidates.data?.data ?? []).find((p) => p.id === target);
  const summary = chosen
    ? t('rollback.summaryChosen', { count, package: packageLabel(chosen, t(`kind.${chosen.kind}`)) })
    : which === 'upgraded'
      ? t('confirm.rollback', { count })
      : t('rollback.summaryPrevious', { count });
  const list = candidates.data?.data ?? [];
  return (
    <FormDialog<Values>
      open={open}
      form={form}
      title={t('confirm.rollbackTitle')}
      onClose={onClose}
      width={560}
      initialValues={{ devices: rollout.counts.done > 0 ? 'upgraded' : 'failed', target: PREVIOUS }}
      submit={(v) =>
        call('upgradeRolloutRollback', {
          id: rollout.id,
          ...(v.devices === 'upgraded' ? {} : { devices: v.devices }),
          ...(v.target === PREVIOUS ? {} : { packageId: v.target }),
        })
      }
      success={(answer) => t('rollout.rolledBack', { count: (answer as { rolloutIds: string[] }).rolloutIds.length })}
      invalidates={['upgrades']}
      okText={t('action.rollback')}
      cancelText={t('common:action.cancel')}
      testId="upgrade-rollback-form"
      submitTestId={`${testPrefix}-rollback-submit`}
    >
      <Form.Item name="devices" label={t('rollback.devices')}>
        <Radio.Group data-testid="upgrade-rollback-devices">
          <Space orientation="vertical" size={4}>
            {(['upgraded', 'failed', 'all'] as const).map((w) => {
              const n = deviceCount(rollout, w);
              const key = w === 'upgraded' ? 'devicesUpgraded' : w === 'failed' ? 'devicesFailed' : 'devicesAll';
              return (
                <Radio key={w} value={w} disabled={n === 0}>
                  <span data-testid={`upgrade-rollback-devices-${w}`}>{t(`rollback.${key}`, { count: n })}</span>
                </Radio>
              );
            })}
          </Space>
        </Radio.Group>
      </Form.Item>
      <Form.Item
        name="target"
        label={t('rollback.target')}
        extra={list.length === 0 && !candidates.isFetching ? t('rollback.noCandidates') : undefined}
      >
        <Radio.Group data-testid="upgrade-rollback-target">
          <Space orientation="vertical" size={4} style={{ maxHeight: 260, overflowY: 'auto', width: '100%' }}>
            <Radio value={PREVIOUS}>
              <span data-testid="upgrade-rollback-previous">
                {t('rollback.previous')}
                <Typography.Text type="secondary" style={{ display: 'block', fontSize: 12 }}>
                  {t('rollback.previousHint')}
                </Typography.Text>
              </span>
            </Radio>
            {list.map((p) => (
              <Radio key={p.id} value={p.id}>
                <span data-testid={`upgrade-rollback-package-${p.version}`}>
                  {packageLabel(p, t(`kind.${p.kind}`))}
                  <Typography.Text type="secondary" style={{ marginInlineStart: 8, fontSize: 12 }}>
                    {t('rollback.uploaded', { time: formatTime(p.createdAt) })}
                  </Typography.Text>
                </span>
              </Radio>
            ))}
          </Space>
        </Radio.Group>
      </Form.Item>
      <Typography.Paragraph type="warning" data-testid="upgrade-rollback-summary" style={{ marginBottom: 0 }}>
        {summary}
      </Typography.Paragraph>
    </FormDialog>
  );
}
