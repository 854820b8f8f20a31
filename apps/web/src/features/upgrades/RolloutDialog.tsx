import { endpoints, type UpgradePackageRow } from '@marquee/protocol';
import { Form, InputNumber, Select, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { useCallQuery } from '../../api/queries';
import { FormDialog } from '../../components/FormDialog';
import { DeviceSelect } from '../../components/pickers/DevicePicker';
import { GroupSelect, TagSelect } from '../../components/pickers/options';
import { useCan } from '../../session/useCan';

interface Values {
  packageId: string;
  deviceIds: string[];
  /** Groups and tags: the server expands them to the caller's devices in them when the rollout starts. */
  groupIds: string[];
  tagIds: string[];
  canaryPercent: number;
  failureThreshold: number;
  autoContinue: boolean;
}

/** Defaults of a new rollout: a tenth first, halt past a fifth failing, the rest after the operator's look. */
export const ROLLOUT_DEFAULTS = { canaryPercent: 10, failureThreshold: 20, autoContinue: false } as const;

export const packageLabel = (p: Pick<UpgradePackageRow, 'kind' | 'version' | 'deviceType'>, kind: string) =>
  `${kind} ${p.version}${p.deviceType ? ` · ${p.deviceType}` : ''}`;

/**
 * Starts a rollout: a ready package, the devices (picked one by one, or by group and tag as ads'
 * targets are), the canary share, the failure threshold, auto-continue.
 */
export function RolloutDialog({
  open,
  packageId,
  onClose,
  onStarted,
}: {
  open: boolean;
  /** The package chosen beforehand (its row's "Roll out"). */
  packageId?: string;
  onClose: () => void;
  onStarted: (id: string) => void;
}) {
  const { t } = useTranslation(['upgrades', 'common']);
  const can = useCan();
  const ready = useCallQuery('upgradePackageList', { state: 'ready', page: 1, size: 100 }, { enabled: open });
  /** At least one device, group or tag in all (checked on the devices field). */
  const targetsRule = ({ getFieldValue }: { getFieldValue: (name: keyof Values) => unknown }) => ({
    validator: async () => {
      const n = (['deviceIds', 'groupIds', 'tagIds'] as const).reduce(
        (sum, name) => sum + ((getFieldValue(name) as string[] | undefined)?.length ?? 0),
        0,
      );
      if (n === 0) throw new Error(t('rollout.targetsRequired'));
    },
  });
  return (
    <FormDialog<Values>
      open={open}
      title={t('rollout.start')}
      onClose={onClose}
      width={600}
      initialValues={{ deviceIds: [], groupIds: [], tagIds: [], ...ROLLOUT_DEFAULTS }}
      values={packageId ? { packageId } : undefined}
      submit={async (v) => {
        const answer = await call('upgradeRolloutCreate', {
          packageId: v.packageId,
          deviceIds: v.deviceIds ?? [],
          groupIds: v.groupIds ?? [],
          tagIds: v.tagIds ?? [],
          canaryPercent: v.canaryPercent,
          failureThreshold: v.failureThreshold,
          autoContinue: v.autoContinue,
        });
        onStarted(answer.id);
        return answer;
      }}
      success={t('rollout.started')}
      invalidates={['upgrades']}
      okText={t('rollout.startOk')}
      cancelText={t('common:action.cancel')}
      testId="upgrade-rollout-form"
      submitTestId="upgrade-rollout-submit"
    >
      <Form.Item
        name="packageId"
        label={t('field.package')}
        rules={[{ required: true, message: t('rollout.packageRequired') }]}
      >
        <Select
          loading={ready.isFetching}
          options={(ready.data?.data ?? []).map((p) => ({ value: p.id, label: packageLabel(p, t(`kind.${p.kind}`)) }))}
          notFoundContent={t('rollout.noReady')}
          data-testid="upgrade-rollout-package"
        />
      </Form.Item>
      <Form.Item
        name="deviceIds"
        label={t('field.devices')}
        dependencies={['groupIds', 'tagIds']}
        rules={[targetsRule]}
      >
        <DeviceSelect mode="multiple" testId="upgrade-rollout-devices" enabled={open} />
      </Form.Item>
      {can(endpoints.deviceGroupOptions.permission) ? (
        <Form.Item name="groupIds" label={t('field.groups')}>
          <GroupSelect testId="upgrade-rollout-groups" enabled={open} />
        </Form.Item>
      ) : null}
      {can(endpoints.deviceTagOptions.permission) ? (
        <Form.Item name="tagIds" label={t('field.tags')} extra={t('field.targetsHint')}>
          <TagSelect testId="upgrade-rollout-tags" enabled={open} />
        </Form.Item>
      ) : null}
      <Form.Item name="canaryPercent" label={t('field.canaryPercent')} extra={t('field.canaryHint')}>
        <InputNumber
          min={1}
          max={100}
          precision={0}
          suffix="%"
          style={{ width: 140 }}
          data-testid="upgrade-rollout-canary"
        />
      </Form.Item>
      <Form.Item name="failureThreshold" label={t('field.failureThreshold')} extra={t('field.thresholdHint')}>
        <InputNumber
          min={0}
          max={100}
          precision={0}
          suffix="%"
          style={{ width: 140 }}
          data-testid="upgrade-rollout-threshold"
        />
      </Form.Item>
      <Form.Item
        name="autoContinue"
        label={t('field.autoContinue')}
        extra={t('field.autoContinueHint')}
        valuePropName="checked"
      >
        <Switch data-testid="upgrade-rollout-auto" />
      </Form.Item>
    </FormDialog>
  );
}
