import { fenToYuan, RTB_PRICE_MAX_FEN, type Slot, yuanToFen } from '@marquee/protocol';
import { Alert, Form, Input, Switch } from 'antd';
import type { TFunction } from 'i18next';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { FormDialog } from '../../components/FormDialog';

interface Values {
  rtbEnabled: boolean;
  floorYuan: string;
}

/** The lowest floor a person may type: 0.01 yuan. */
const FLOOR_MIN_FEN = 1;

/**
 * A floor typed in yuan: 0.01 to 10000 (the RTB price's range), at most two decimals; required
 * when `required` (RTB on, read from the form when validating, not from the last render).
 */
export function floorRule(t: TFunction, required: boolean) {
  return {
    validator: async (_rule: unknown, value: unknown) => {
      if (value === undefined || value === null || String(value).trim() === '') {
        if (required) throw new Error(t('required', { ns: 'validation' }));
        return;
      }
      const parsed = yuanToFen(String(value));
      if (!parsed.ok && parsed.reason === 'decimals') throw new Error(t('twoDecimals', { ns: 'validation' }));
      if (!parsed.ok || parsed.fen < FLOOR_MIN_FEN || parsed.fen > RTB_PRICE_MAX_FEN) {
        throw new Error(t('rtb.floorRange', { ns: 'sales' }));
      }
    },
  };
}

const fenOf = (text: string | undefined) => {
  if (!text || text.trim() === '') return null;
  const parsed = yuanToFen(text);
  return parsed.ok ? parsed.fen : null;
};

/**
 * Turns RTB on or off for a slot (salesManage, sales.slotRtb) with its floor price per thousand
 * impressions typed in yuan (0.01 to 10000, two decimals; required when on). Off, a floor typed
 * is kept for later, an empty one clears it. The auction itself comes with the RTB module
 * (issue 29): the dialog says so.
 */
export function SlotRtbDialog({ slot, onClose }: { slot: Slot | null; onClose: () => void }) {
  // The slot's name stays in the title while the dialog fades out after closing.
  const named = useRef(slot);
  if (slot) named.current = slot;
  const { t } = useTranslation(['sales', 'validation']);
  const [form] = Form.useForm<Values>();
  const enabled = Form.useWatch('rtbEnabled', form) ?? false;

  return (
    <FormDialog<Values>
      open={slot !== null}
      form={form}
      title={t('rtb.title', { name: named.current?.name ?? '' })}
      onClose={onClose}
      width={480}
      initialValues={{ rtbEnabled: false, floorYuan: '' }}
      values={
        slot
          ? { rtbEnabled: slot.rtbEnabled, floorYuan: slot.rtbFloor == null ? '' : fenToYuan(slot.rtbFloor) }
          : undefined
      }
      submit={(v) =>
        call('salesSlotRtb', { id: slot?.id ?? '', rtbEnabled: v.rtbEnabled, rtbFloor: fenOf(v.floorYuan) })
      }
      success={t('rtb.saved')}
      invalidates={['sales']}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      testId="sales-rtb-form"
      submitTestId="sales-rtb-submit"
    >
      <Alert type="info" showIcon title={t('rtb.moduleHint')} style={{ marginBottom: 12 }} />
      <Form.Item name="rtbEnabled" label={t('rtb.enabled')} valuePropName="checked">
        <Switch checkedChildren={t('slot.rtbOn')} unCheckedChildren={t('slot.rtbOff')} data-testid="sales-rtb-switch" />
      </Form.Item>
      <Form.Item
        name="floorYuan"
        label={t('rtb.floor')}
        dependencies={['rtbEnabled']}
        required={enabled}
        rules={[({ getFieldValue }) => floorRule(t, getFieldValue('rtbEnabled') === true)]}
        extra={enabled ? t('rtb.floorHint') : t('rtb.floorOffHint')}
      >
        <Input prefix="¥" inputMode="decimal" maxLength={12} style={{ width: 200 }} data-testid="sales-rtb-floor" />
      </Form.Item>
    </FormDialog>
  );
}
