import {
  DEFAULT_VENUE_TYPE,
  fenToYuan,
  OPENOOH_VENUE_TYPES,
  type OpenoohVenueType,
  RTB_PRICE_MAX_FEN,
  type Slot,
  yuanToFen,
} from '@marquee/protocol';
import { Form, Input, Select, Switch } from 'antd';
import type { TFunction } from 'i18next';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { useCallQuery } from '../../api/queries';
import { FormDialog } from '../../components/FormDialog';
import { useDictionary } from '../../components/pickers/useDictionary';

interface Values {
  rtbEnabled: boolean;
  floorYuan: string;
  fallbackAdId?: string | null;
  venueType: OpenoohVenueType;
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
 * impressions typed in yuan (0.01 to 10000, two decimals; required when on), the fallback ad
 * of the turns nobody wins (rtb.fallbackOptions: the approved ads; none: the screen's loop
 * goes on in those turns) and the OpenOOH venue type DSPs are told. Off, a floor typed is kept
 * for later, an empty one clears it.
 */
export function SlotRtbDialog({ slot, onClose }: { slot: Slot | null; onClose: () => void }) {
  // The slot's name stays in the title while the dialog fades out after closing.
  const named = useRef(slot);
  if (slot) named.current = slot;
  const { t } = useTranslation(['sales', 'rtb', 'validation']);
  // The venue types the operator keeps (issue 31): the enabled ones, and the slot's own.
  const venues = useDictionary('venueType');
  const [form] = Form.useForm<Values>();
  const enabled = Form.useWatch('rtbEnabled', form) ?? false;
  const fallbacks = useCallQuery('rtbFallbackOptions', {}, { enabled: slot !== null, staleTime: 60_000 });
  // A layout region shows pictures and videos: a layout ad cannot be its fallback.
  const fallbackOptions = (fallbacks.data?.data ?? [])
    .filter((a) => !(slot?.layoutId && a.layout))
    .map((a) => ({ value: a.id, label: a.name }));
  // The slot's fallback stays choosable even when it is no longer among the approved ads.
  if (slot?.rtbFallbackAdId && !fallbackOptions.some((o) => o.value === slot.rtbFallbackAdId)) {
    fallbackOptions.unshift({ value: slot.rtbFallbackAdId, label: slot.rtbFallbackAdName ?? slot.rtbFallbackAdId });
  }

  return (
    <FormDialog<Values>
      open={slot !== null}
      form={form}
      title={t('rtb.title', { name: named.current?.name ?? '' })}
      onClose={onClose}
      width={520}
      initialValues={{ rtbEnabled: false, floorYuan: '', fallbackAdId: null, venueType: DEFAULT_VENUE_TYPE }}
      values={
        slot
          ? {
              rtbEnabled: slot.rtbEnabled,
              floorYuan: slot.rtbFloor == null ? '' : fenToYuan(slot.rtbFloor),
              fallbackAdId: slot.rtbFallbackAdId,
              venueType: slot.venueType ?? DEFAULT_VENUE_TYPE,
            }
          : undefined
      }
      submit={(v) =>
        call('salesSlotRtb', {
          id: slot?.id ?? '',
          rtbEnabled: v.rtbEnabled,
          rtbFloor: fenOf(v.floorYuan),
          rtbFallbackAdId: v.fallbackAdId ?? null,
          venueType: v.venueType,
        })
      }
      success={t('rtb.saved')}
      invalidates={['sales', 'rtb']}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      testId="sales-rtb-form"
      submitTestId="sales-rtb-submit"
    >
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
      <Form.Item
        name="fallbackAdId"
        label={t('slotRtb.fallback', { ns: 'rtb' })}
        extra={t('slotRtb.fallbackHint', { ns: 'rtb' })}
      >
        <Select
          allowClear
          showSearch={{ optionFilterProp: 'label' }}
          loading={fallbacks.isPending}
          placeholder={t('slotRtb.fallbackNone', { ns: 'rtb' })}
          notFoundContent={fallbacks.isPending ? undefined : t('slotRtb.fallbackEmpty', { ns: 'rtb' })}
          options={fallbackOptions}
          data-testid="sales-rtb-fallback"
        />
      </Form.Item>
      <Form.Item
        name="venueType"
        label={t('slotRtb.venueType', { ns: 'rtb' })}
        extra={t('slotRtb.venueTypeHint', { ns: 'rtb' })}
        rules={[{ required: true, message: t('required', { ns: 'validation' }) }]}
      >
        <Select
          showSearch={{ optionFilterProp: 'label' }}
          options={venues
            .options(slot?.venueType)
            .filter((o) => (OPENOOH_VENUE_TYPES as readonly string[]).includes(o.value))}
          loading={venues.loading}
          data-testid="sales-rtb-venue"
        />
      </Form.Item>
    </FormDialog>
  );
}
