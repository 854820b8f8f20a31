import {
  endpoints,
  fenToYuan,
  SALES_METHODS,
  type SalesMethod,
  SLOT_DURATION_MAX_SEC,
  SLOT_DURATION_MIN_SEC,
  SLOT_NAME_MAX,
  SLOT_PIXELS_MAX,
  SLOT_PIXELS_MIN,
  SLOT_PRICE_MAX_FEN,
  SLOT_PRICE_MIN_FEN,
  SLOT_ROTATIONS_MAX,
  type Slot,
  yuanToFen,
} from '@marquee/protocol';
import { Alert, Form, Input, InputNumber, Radio, Select, Space } from 'antd';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { useCallQuery } from '../../api/queries';
import { FormDialog } from '../../components/FormDialog';
import { DeviceSelect } from '../../components/pickers/DevicePicker';
import { maxLengthRule, requiredRule } from '../../components/zodRule';
import { useCan } from '../../session/useCan';
import { GroupSelect, TagSelect } from '../deviceGroups/pickers';

interface Values {
  name: string;
  screenSize: string;
  width: number | null;
  height: number | null;
  durationSec: number | null;
  salesMethod: SalesMethod;
  cptYuan: string;
  cpmYuan: string;
  maxRotations: number | null;
  deviceIds: string[];
  groupIds: string[];
  tagIds: string[];
  /** A layout region marked as the RTB slot, as `layoutId|regionId`; empty: a turn of the loop. */
  region?: string;
}

const REGION_SEP = '|';

/** A price typed in yuan: 0.01 to 99999, at most two decimals (spec section 5). */
export function priceRule(t: TFunction) {
  return {
    validator: async (_rule: unknown, value: unknown) => {
      if (value === undefined || value === null || String(value).trim() === '') return;
      const parsed = yuanToFen(String(value));
      if (!parsed.ok && parsed.reason === 'decimals') throw new Error(t('twoDecimals', { ns: 'validation' }));
      if (!parsed.ok || parsed.fen < SLOT_PRICE_MIN_FEN || parsed.fen > SLOT_PRICE_MAX_FEN) {
        throw new Error(t('cptPrice', { ns: 'validation' }));
      }
    },
  };
}

const fenOf = (text: string) => {
  const parsed = yuanToFen(text);
  return parsed.ok ? parsed.fen : null;
};
const yuanText = (fen: number | null) => (fen == null ? '' : fenToYuan(fen));

/**
 * Adds or edits an ad slot (salesManage): name, the screens' size, resolution, a turn's length,
 * the sales method with its price typed in yuan (CPT per rotation per screen-hour, CPM per
 * thousand impressions; 0.01 to 99999), rotations per loop, and the screens it covers (devices,
 * groups, tags). A slot in use keeps its method, rotations and screens: the server says so
 * (SLOT_IN_USE) and the form warns before.
 */
export function SlotDialog({ open, editing, onClose }: { open: boolean; editing: Slot | null; onClose: () => void }) {
  const { t } = useTranslation(['sales', 'validation', 'ads']);
  const can = useCan();
  const [form] = Form.useForm<Values>();
  const method = Form.useWatch('salesMethod', form) ?? 'cpt';
  const chosen = { required: true, message: t('required', { ns: 'validation' }) };
  const screens = useCallQuery(
    'salesSlotDevices',
    { slotId: editing?.id ?? '', page: 1, size: 500 },
    { enabled: open && Boolean(editing) },
  );
  const known = (screens.data?.data ?? []).map((d) => ({ id: d.id, name: d.name }));
  const regions = useCallQuery('salesSlotRegions', {}, { enabled: open });
  const regionOptions = (regions.data?.data ?? []).map((l) => ({
    label: l.layoutName,
    options: l.regions.map((r) => ({
      value: `${l.layoutId}${REGION_SEP}${r.id}`,
      label: `${l.layoutName} · ${r.name}`,
    })),
  }));

  return (
    <FormDialog<Values>
      open={open}
      form={form}
      title={editing ? t('slot.edit') : t('slot.add')}
      onClose={onClose}
      width={640}
      initialValues={{
        name: '',
        screenSize: '',
        width: 1920,
        height: 1080,
        durationSec: 15,
        salesMethod: 'cpt',
        cptYuan: '',
        cpmYuan: '',
        maxRotations: 4,
        deviceIds: [],
        groupIds: [],
        tagIds: [],
      }}
      values={
        editing
          ? {
              name: editing.name,
              screenSize: editing.screenSize,
              width: editing.width,
              height: editing.height,
              durationSec: editing.durationSec,
              salesMethod: editing.salesMethod,
              cptYuan: yuanText(editing.cptPrice),
              cpmYuan: yuanText(editing.cpmPrice),
              maxRotations: editing.maxRotations,
              deviceIds: editing.targets.deviceIds,
              groupIds: editing.targets.groupIds,
              tagIds: editing.targets.tagIds,
              region:
                editing.layoutId && editing.regionId
                  ? `${editing.layoutId}${REGION_SEP}${editing.regionId}`
                  : undefined,
            }
          : undefined
      }
      submit={(v) =>
        call('salesSlotSave', {
          ...(editing ? { id: editing.id } : {}),
          name: v.name.trim(),
          screenSize: (v.screenSize ?? '').trim(),
          width: v.width ?? 0,
          height: v.height ?? 0,
          durationSec: v.durationSec ?? 0,
          salesMethod: v.salesMethod,
          cptPrice: v.cptYuan ? fenOf(v.cptYuan) : null,
          cpmPrice: v.cpmYuan ? fenOf(v.cpmYuan) : null,
          maxRotations: v.maxRotations ?? 1,
          targets: {
            deviceIds: v.deviceIds ?? [],
            groupIds: v.groupIds ?? [],
            tagIds: v.tagIds ?? [],
            spliceIds: editing?.targets.spliceIds ?? [],
          },
          layoutId: v.region ? v.region.split(REGION_SEP)[0] : null,
          regionId: v.region ? v.region.split(REGION_SEP)[1] : null,
        })
      }
      success={editing ? t('slot.saved') : t('slot.added')}
      invalidates={['sales']}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      testId="sales-slot-form"
      submitTestId="sales-slot-submit"
    >
      {editing?.inUse ? <Alert type="info" showIcon title={t('slot.inUseHint')} style={{ marginBottom: 12 }} /> : null}
      <Form.Item name="name" label={t('slot.name')} rules={[requiredRule(t), maxLengthRule(t, SLOT_NAME_MAX)]}>
        <Input maxLength={SLOT_NAME_MAX} data-testid="sales-slot-name" />
      </Form.Item>
      <Form.Item name="screenSize" label={t('slot.screenSize')} rules={[maxLengthRule(t, 20)]}>
        <Input maxLength={20} placeholder={'55"'} style={{ width: 160 }} data-testid="sales-slot-screen-size" />
      </Form.Item>
      <Form.Item label={t('slot.resolution')} required extra={t('slot.resolutionHint')}>
        <Space>
          <Form.Item name="width" noStyle rules={[chosen]}>
            <InputNumber
              min={SLOT_PIXELS_MIN}
              max={SLOT_PIXELS_MAX}
              precision={0}
              aria-label={t('slot.width')}
              data-testid="sales-slot-width"
            />
          </Form.Item>
          <span>×</span>
          <Form.Item name="height" noStyle rules={[chosen]}>
            <InputNumber
              min={SLOT_PIXELS_MIN}
              max={SLOT_PIXELS_MAX}
              precision={0}
              aria-label={t('slot.height')}
              data-testid="sales-slot-height"
            />
          </Form.Item>
        </Space>
      </Form.Item>
      <Form.Item name="durationSec" label={t('slot.duration')} rules={[chosen]}>
        <InputNumber
          min={SLOT_DURATION_MIN_SEC}
          max={SLOT_DURATION_MAX_SEC}
          precision={0}
          suffix={t('slot.secondsUnit')}
          style={{ width: 160 }}
          data-testid="sales-slot-duration"
        />
      </Form.Item>
      <Form.Item name="salesMethod" label={t('slot.method')} rules={[chosen]}>
        <Radio.Group
          disabled={editing?.inUse}
          options={SALES_METHODS.map((m) => ({ value: m, label: t(`method.${m}`) }))}
          data-testid="sales-slot-method"
        />
      </Form.Item>
      {method === 'cpt' ? (
        <Form.Item
          name="cptYuan"
          label={t('slot.cptPrice')}
          rules={[requiredRule(t), priceRule(t)]}
          extra={t('slot.cptPriceHint')}
        >
          <Input
            prefix="¥"
            inputMode="decimal"
            maxLength={12}
            style={{ width: 200 }}
            data-testid="sales-slot-cpt-price"
          />
        </Form.Item>
      ) : (
        <Form.Item
          name="cpmYuan"
          label={t('slot.cpmPrice')}
          rules={[requiredRule(t), priceRule(t)]}
          extra={t('slot.cpmPriceHint')}
        >
          <Input
            prefix="¥"
            inputMode="decimal"
            maxLength={12}
            style={{ width: 200 }}
            data-testid="sales-slot-cpm-price"
          />
        </Form.Item>
      )}
      <Form.Item name="maxRotations" label={t('slot.maxRotations')} rules={[chosen]} extra={t('slot.rotationsHint')}>
        <InputNumber
          min={1}
          max={SLOT_ROTATIONS_MAX}
          precision={0}
          disabled={editing?.inUse}
          style={{ width: 160 }}
          data-testid="sales-slot-rotations"
        />
      </Form.Item>
      <Form.Item name="region" label={t('slot.region')} extra={t('slot.regionHint')}>
        <Select
          allowClear
          showSearch
          optionFilterProp="label"
          loading={regions.isPending}
          disabled={editing?.inUse}
          placeholder={t('slot.regionNone')}
          notFoundContent={t('slot.regionEmpty')}
          options={regionOptions}
          data-testid="sales-slot-region"
        />
      </Form.Item>
      {can(endpoints.adTargetDevices.permission) ? (
        <Form.Item name="deviceIds" label={t('ad.target.deviceIds', { ns: 'ads' })}>
          <DeviceSelect
            mode="multiple"
            source="adTargetDevices"
            limit={100}
            known={known}
            disabled={editing?.inUse}
            testId="sales-slot-devices"
          />
        </Form.Item>
      ) : null}
      {can(endpoints.deviceGroupOptions.permission) ? (
        <Form.Item name="groupIds" label={t('ad.target.groupIds', { ns: 'ads' })}>
          <GroupSelect testId="sales-slot-groups" disabled={editing?.inUse} />
        </Form.Item>
      ) : null}
      {can(endpoints.deviceTagOptions.permission) ? (
        <Form.Item name="tagIds" label={t('ad.target.tagIds', { ns: 'ads' })}>
          <TagSelect testId="sales-slot-tags" disabled={editing?.inUse} />
        </Form.Item>
      ) : null}
    </FormDialog>
  );
}
