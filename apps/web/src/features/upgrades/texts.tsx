import type { UpgradeRolloutRow, UpgradeRolloutState } from '@marquee/protocol';
import { Tag, Typography } from 'antd';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';

/** The server's words (stored in English) the console says in its own (modules/upgrades/texts.ts). */
export const SERVER_THRESHOLD_HALT = 'failure threshold passed';
export const SERVER_EXPIRED_REASON = 'the device did not answer in time';

export const ROLLOUT_STATE_COLORS: Record<UpgradeRolloutState, string> = {
  canary: 'processing',
  waiting: 'warning',
  rolling: 'processing',
  done: 'success',
  halted: 'error',
  rolledBack: 'default',
};

export function RolloutStateTag({ state, testId }: { state: UpgradeRolloutState; testId?: string }) {
  const { t } = useTranslation('upgrades');
  return (
    <Tag color={ROLLOUT_STATE_COLORS[state]} data-testid={testId} data-state={state}>
      {t(`state.${state}`)}
    </Tag>
  );
}

/** Why a halted rollout stopped: past its failure threshold (with the figures), or the operator. */
export function HaltReason({ rollout, testId }: { rollout: UpgradeRolloutRow; testId?: string }) {
  const { t } = useTranslation('upgrades');
  const text =
    rollout.haltReason === SERVER_THRESHOLD_HALT
      ? t('haltReason.threshold', {
          failed: rollout.counts.failed,
          threshold: rollout.failureThreshold,
        })
      : rollout.haltReason
        ? rollout.haltReason
        : t('haltReason.operator');
  return (
    <Typography.Text type="danger" data-testid={testId}>
      {text}
    </Typography.Text>
  );
}

/** The stage a rollout is at: the canary, waiting for the operator, or the rest. */
export function stageLabel(t: TFunction, r: Pick<UpgradeRolloutRow, 'stage' | 'canaryPercent'>) {
  return r.stage === 1 ? t('stage.canaryOf', { percent: r.canaryPercent }) : t('stage.rest');
}

/** A device's failure as the console says it: the server's "did not answer" in the user's language. */
export function deviceReason(t: TFunction, reason: string | null) {
  if (!reason) return '-';
  if (reason === SERVER_EXPIRED_REASON) return t('reason.noAnswer');
  return reason;
}
