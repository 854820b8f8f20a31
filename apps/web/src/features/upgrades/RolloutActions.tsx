import type { UpgradeRolloutRow } from '@marquee/protocol';
import { Button, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCallMutation } from '../../api/queries';
import { ConfirmAction } from '../../components/ConfirmAction';
import { RollbackDialog } from './RollbackDialog';

/** Whether the rollout is still moving (its devices are answering): its views poll. */
export const isActive = (r: Pick<UpgradeRolloutRow, 'state'>) => r.state === 'canary' || r.state === 'rolling';

/**
 * A rollout's operator actions, each where its state allows it: halt (asks first), resume,
 * continue to the rest after the canary, roll back the devices it upgraded or that failed
 * (a dialog asks first: which devices, and to each one's previous version or a chosen package).
 */
export function RolloutActions({ rollout, testPrefix }: { rollout: UpgradeRolloutRow; testPrefix: string }) {
  const { t } = useTranslation(['upgrades', 'common']);
  const opts = { invalidates: ['upgrades'] as const };
  const halt = useCallMutation('upgradeRolloutHalt', { success: t('rollout.halted'), ...opts });
  const resume = useCallMutation('upgradeRolloutResume', { success: t('rollout.resumed'), ...opts });
  const proceed = useCallMutation('upgradeRolloutContinue', { success: t('rollout.continued'), ...opts });
  const [rollingBack, setRollingBack] = useState(false);
  const { state, id } = rollout;
  const busy = halt.isPending || resume.isPending || proceed.isPending;
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
      {state !== 'rolledBack' && rollout.counts.done + rollout.counts.failed > 0 ? (
        <>
          <Button
            type="link"
            size="small"
            danger
            disabled={busy}
            data-testid={`${testPrefix}-rollback`}
            onClick={() => setRollingBack(true)}
          >
            {t('action.rollback')}
          </Button>
          <RollbackDialog
            rollout={rollout}
            open={rollingBack}
            onClose={() => setRollingBack(false)}
            testPrefix={testPrefix}
          />
        </>
      ) : null}
    </Space>
  );
}
