import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import {
  ALL_HOURS,
  fenToYuan,
  GOODS_KINDS,
  GOODS_NAME_MAX,
  type Goods,
  type GoodsKind,
  PROGRAMME_LINES_MAX,
  yuanToFen,
} from '@marquee/protocol';
import { Alert, Button, DatePicker, Form, Input, Radio, Select, Space } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { useCallQuery } from '../../api/queries';
import { useTodayRangeDefault } from '../../components/enterpriseToday';
import { FormDialog } from '../../components/FormDialog';
import { maxLengthRule, requiredRule } from '../../components/zodRule';
import { HoursStrip } from './OrderComposer';
import { SlotChoice } from './SlotChoice';
import { priceRule } from './SlotDialog';

/** The hours strip as a form control (the form gives it value and onChange). */
function HoursField({ value, onChange }: { value?: number[]; onChange?: (hours: number[]) => void }) {
  return <HoursStrip value={value ?? []} offered={[]} onChange={(hours) => onChange?.(hours)} />;
}

interface LineValues {
  slotId?: string;
  /** Blank: the slot's own price. */
  yuan?: string;
  /** Some of the slot's screens; empty: all of them. */
  deviceIds?: string[];
}

/** The screens of a line's slot to offer (a form control): none chosen means all the slot's screens. */
function LineScreens({
  slotId,
  value,
  onChange,
  testId,
}: {
  slotId?: string;
  value?: string[];
  onChange?: (ids: string[]) => void;
  testId: string;
}) {
  const { t } = useTranslation('sales');
  const screens = useCallQuery(
    'salesSlotDevices',
    { slotId: slotId ?? '', page: 1, size: 500 },
    { enabled: Boolean(slotId) },
  );
  return (
    <Select
      mode="multiple"
      allowClear
      disabled={!slotId}
      loading={Boolean(slotId) && screens.isPending}
      placeholder={t('goods.screensAll')}
      aria-label={t('goods.screens')}
      optionFilterProp="label"
      maxTagCount="responsive"
      style={{ width: 478 }}
      value={value ?? []}
      onChange={(ids: string[]) => onChange?.(ids)}
      options={(screens.data?.data ?? []).map((d) => ({
        value: d.id,
        label: d.longOffline ? `${d.name} (${t('availability.longOffline')})` : d.name,
        disabled: d.longOffline && !(value ?? []).includes(d.id),
      }))}
      data-testid={testId}
    />
  );
}

interface Values {
  name: string;
  description: string;
  kind: GoodsKind;
  period: [Dayjs, Dayjs] | null;
  hours: number[];
  lines: LineValues[];
}

/**
 * Adds or edits goods (salesManage): a single slot or a programme of 2 to 10, the period buyers
 * may book within (days of the enterprise's zone), the hours offered (all day by default), and per slot an optional
 * unit price typed in yuan (blank: the slot's). New goods are off shelf; goods on sale cannot be
 * edited (COMMODITY_ON_SALE, spec section 8): the dialog says so and the server refuses.
 */
export function GoodsDialog({ open, editing, onClose }: { open: boolean; editing: Goods | null; onClose: () => void }) {
  const { t } = useTranslation(['sales', 'validation']);
  const [form] = Form.useForm<Values>();
  const kind = Form.useWatch('kind', form) ?? 'single';
  const chosen = { required: true, message: t('required', { ns: 'validation' }) };
  const onSale = editing?.state === 'onSale' || editing?.state === 'soldOut';
  const { zone, today } = useTodayRangeDefault(form, 'period', 29, open && !editing);
  const slotPrice = priceRule(t);

  return (
    <FormDialog<Values>
      open={open}
      form={form}
      title={editing ? t('goods.edit') : t('goods.add')}
      onClose={onClose}
      width={640}
      initialValues={{
        name: '',
        description: '',
        kind: 'single',
        period: [today, today.add(29, 'day')],
        hours: ALL_HOURS.slice(),
        lines: [{}],
      }}
      values={
        editing
          ? {
              name: editing.name,
              description: editing.description,
              kind: editing.kind,
              period: [dayjs(editing.startDate), dayjs(editing.endDate)],
              hours: editing.hours.length === 0 ? ALL_HOURS.slice() : editing.hours,
              lines: editing.lines.map((l) => ({
                slotId: l.slotId,
                yuan: fenToYuan(l.unitPrice),
                deviceIds: l.deviceIds,
              })),
            }
          : undefined
      }
      submit={(v) =>
        call('salesGoodsSave', {
          ...(editing ? { id: editing.id } : {}),
          name: v.name.trim(),
          description: (v.description ?? '').trim(),
          kind: v.kind,
          startDate: (v.period?.[0] ?? today).format('YYYY-MM-DD'),
          endDate: (v.period?.[1] ?? today).format('YYYY-MM-DD'),
          hours: v.hours?.length === 24 ? [] : (v.hours ?? []),
          lines: (v.lines ?? []).map((l) => {
            const parsed = l.yuan?.trim() ? yuanToFen(l.yuan) : null;
            return {
              slotId: l.slotId ?? '',
              deviceIds: l.deviceIds ?? [],
              ...(parsed?.ok ? { unitPrice: parsed.fen } : {}),
            };
          }),
        })
      }
      success={editing ? t('goods.saved') : t('goods.added')}
      invalidates={['sales']}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      testId="sales-goods-form"
      submitTestId="sales-goods-submit"
    >
      {onSale ? <Alert type="warning" showIcon title={t('goods.onSaleHint')} style={{ marginBottom: 12 }} /> : null}
      <Form.Item name="name" label={t('goods.name')} rules={[requiredRule(t), maxLengthRule(t, GOODS_NAME_MAX)]}>
        <Input maxLength={GOODS_NAME_MAX} data-testid="sales-goods-name" />
      </Form.Item>
      <Form.Item name="description" label={t('goods.description')} rules={[maxLengthRule(t, 500)]}>
        <Input.TextArea maxLength={500} rows={2} showCount data-testid="sales-goods-description" />
      </Form.Item>
      <Form.Item name="kind" label={t('goods.kind')} rules={[chosen]}>
        <Radio.Group
          options={GOODS_KINDS.map((k) => ({ value: k, label: t(`goods.kinds.${k}`) }))}
          onChange={(e) => {
            const lines = form.getFieldValue('lines') as LineValues[] | undefined;
            if (e.target.value === 'single') form.setFieldValue('lines', (lines ?? [{}]).slice(0, 1));
            else if ((lines ?? []).length < 2) form.setFieldValue('lines', [...(lines ?? [{}]), {}]);
          }}
          data-testid="sales-goods-kind"
        />
      </Form.Item>
      <Form.Item name="period" label={t('goods.period')} rules={[chosen]} extra={t('goods.periodHint', { zone })}>
        <DatePicker.RangePicker allowClear={false} data-testid="sales-goods-period" />
      </Form.Item>
      <Form.Item
        name="hours"
        label={t('goods.hours')}
        extra={t('goods.hoursHint')}
        rules={[
          {
            validator: async (_rule: unknown, value: number[] | undefined) => {
              if (!value || value.length === 0) throw new Error(t('required', { ns: 'validation' }));
            },
          },
        ]}
      >
        <HoursField />
      </Form.Item>
      <Form.Item label={t('goods.slots')} required>
        <Form.List name="lines">
          {(fields, { add, remove }) => (
            <>
              {fields.map((field, index) => (
                <div key={field.key}>
                  <Space align="start">
                    <Form.Item
                      name={[field.name, 'slotId']}
                      rules={[chosen]}
                      getValueFromEvent={(slotId: string) => {
                        // Another slot: the screens chosen of the former one no longer apply.
                        form.setFieldValue(['lines', field.name, 'deviceIds'], []);
                        return slotId;
                      }}
                    >
                      <SlotChoice
                        placeholder={t('goods.chooseSlot')}
                        label={t('goods.slot')}
                        testId={index === 0 ? 'sales-goods-slot' : `sales-goods-slot-${index}`}
                      />
                    </Form.Item>
                    <Form.Item name={[field.name, 'yuan']} rules={[slotPrice]}>
                      <Input
                        prefix="¥"
                        inputMode="decimal"
                        maxLength={12}
                        placeholder={t('goods.slotPrice')}
                        aria-label={t('goods.unitPrice')}
                        style={{ width: 170 }}
                        data-testid={`sales-goods-price-${index}`}
                      />
                    </Form.Item>
                    {kind === 'programme' && fields.length > 2 ? (
                      <Button
                        type="text"
                        icon={<DeleteOutlined />}
                        aria-label={t('goods.removeSlot')}
                        onClick={() => remove(field.name)}
                      />
                    ) : null}
                  </Space>
                  <Form.Item noStyle dependencies={[['lines', field.name, 'slotId']]}>
                    {() => (
                      <Form.Item name={[field.name, 'deviceIds']} style={{ marginTop: -12 }}>
                        <LineScreens
                          slotId={form.getFieldValue(['lines', field.name, 'slotId'])}
                          testId={`sales-goods-screens-${index}`}
                        />
                      </Form.Item>
                    )}
                  </Form.Item>
                </div>
              ))}
              {kind === 'programme' && fields.length < PROGRAMME_LINES_MAX ? (
                <Button
                  type="dashed"
                  icon={<PlusOutlined />}
                  onClick={() => add({})}
                  data-testid="sales-goods-add-slot"
                >
                  {t('goods.addSlot')}
                </Button>
              ) : null}
            </>
          )}
        </Form.List>
      </Form.Item>
    </FormDialog>
  );
}
