import { UPGRADE_DEVICE_STATES, type UpgradeCounts, type UpgradeDeviceState } from '@marquee/protocol';
import { Progress, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

export const DEVICE_STATE_COLORS: Record<UpgradeDeviceState, string> = {
  queued: 'default',
  sent: 'processing',
  downloading: 'processing',
  installing: 'processing',
  done: 'success',
  failed: 'error',
};

/**
 * A rollout's progress from its counts: the bar is the devices finished (done in green, failed
 * in red), the line below how many are in each state (the states with none left out).
 */
export function RolloutProgress({ counts, testId }: { counts: UpgradeCounts; testId?: string }) {
  const { t } = useTranslation('upgrades');
  const total = Math.max(1, counts.total);
  const done = (counts.done * 100) / total;
  const finished = ((counts.done + counts.failed) * 100) / total;
  const line = UPGRADE_DEVICE_STATES.filter((s) => counts[s] > 0)
    .map((s) => t('progress.count', { n: counts[s], state: t(`deviceState.${s}`) }))
    .join(' · ');
  return (
    <div data-testid={testId}>
      <Tooltip title={line}>
        <Progress
          percent={Math.round(finished)}
          success={{ percent: Math.round(done) }}
          strokeColor={counts.failed > 0 ? '#ff4d4f' : undefined}
          size="small"
          format={() => `${counts.done + counts.failed}/${counts.total}`}
        />
      </Tooltip>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {line || t('progress.none')}
      </Typography.Text>
    </div>
  );
}
