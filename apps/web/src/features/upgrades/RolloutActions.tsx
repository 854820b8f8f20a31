import type { UpgradeRolloutRow } from '@marquee/protocol';
import { Button, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { useCallMutation } from '../../api/queries';
import { ConfirmAction } from '../../components/ConfirmAction';

/** Whether the rollout is still moving (its devices are answering): its views poll. */
export const isActive = (r: Pick<UpgradeRolloutRow, 'state'>) => r.state === 'canary' || r.state === 'rolling';

/**
 * A rollout's operator actions, each where its state allows it: halt (asks first), resume,
 * continue to the rest after the canary, roll back the devices it upgraded (asks first).
 */
export function RolloutActions({ rollout, testPrefix }: { rollout: UpgradeRolloutRow; testPrefix: string }) {
  const { t } = useTranslation(['upgrades', 'common']);
  const opts = { invalidates: ['upgrades'] as const };
  const halt = useCallMutation('upgradeRolloutHalt', { success: t('rollout.halted'), ...opts });
  const resume = useCallMutation('upgradeRolloutResume', { success: t('rollout.resumed'), ...opts });
  const proceed = useCallMutation('upgradeRolloutContinue', { success: t('rollout.continued'), ...opts });
  const rollback = useCallMutation('upgradeRolloutRollback', {
    success: (answer) => t('rollout.rolledBack', { count: answer.rolloutIds.length }),
    ...opts,
  });
  const { state, id } = rollout;
  const busy = halt.isPending || resume.isPending || proceed.isPending || rollback.isPending;
  const cancelText = t('common:action.cancel');
  return (
    <Space size={4} wrap>
      {state === 'canary' || state === 'waiting' || state === 'rolling' ? (
        <ConfirmAction
          label={t('action.halt')}
          title={t('confirm.haltTitle')}
          description={t('confirm.halt')}
          cancelText={cancelText}
          danger
          disabled={busy}
          testId={`${testPrefix}-halt`}
          onConfirm={() => halt.mutateAsync({ id })}
        />
      ) : null}
      {state === 'halted' ? (
        <ConfirmAction
          label={t('action.resume')}
          title={t('confirm.resumeTitle')}
          description={t('confirm.resume')}
          cancelText={cancelText}
          disabled={busy}
          testId={`${testPrefix}-resume`}
          onConfirm={() => resume.mutateAsync({ id })}
        />
      ) : null}
      {state === 'canary' || state === 'waiting' ? (
        <Button
          type="link"
          size="small"
          disabled={busy}
          data-testid={`${testPrefix}-continue`}
          onClick={() => void proceed.mutateAsync({ id }).catch(() => undefined)}
        >
          {t('action.continue')}
        </Button>
      ) : null}
      {state !== 'rolledBack' && rollout.counts.done > 0 ? (
        <ConfirmAction
          label={t('action.rollback')}
          title={t('confirm.rollbackTitle')}
          description={t('confirm.rollback', { count: rollout.counts.done })}
          cancelText={cancelText}
          danger
          disabled={busy}
          testId={`${testPrefix}-rollback`}
          onConfirm={() => rollback.mutateAsync({ id })}
        />
      ) : null}
    </Space>
  );
}
