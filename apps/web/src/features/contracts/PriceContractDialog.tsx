import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { fenToYuan, type PriceContract, yuanToFen } from '@marquee/protocol';
import { Button, DatePicker, Form, Input, InputNumber, Select, Space, Switch } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { useCallQuery } from '../../api/queries';
import { FormDialog } from '../../components/FormDialog';
import { maxLengthRule, requiredRule } from '../../components/zodRule';
import { SlotChoice } from '../sales/SlotChoice';
import { priceRule } from '../sales/SlotDialog';
import { discountText } from '../sales/salesLook';

/** Negotiated slot prices a contract may name (the catalogue's limit). */
const SLOT_PRICES_MAX = 100;
const NAME_MAX = 40;

interface Values {
  name: string;
  advertiserId?: string;
  discount: number | null;
  validity: [Dayjs, Dayjs] | null;
  enabled: boolean;
  slotPrices: { slotId?: string; yuan?: string }[];
}

/**
 * Adds or edits an advertiser's price contract (salesManage): name, the advertiser, a discount
 * 0 to 1 (two decimals, said as each language says it), negotiated unit prices of some slots
 * typed in yuan (before the discount), validity in UTC days, enabled. Two enabled contracts of
 * one advertiser may not overlap (the server's TIME_CONFLICT, spec section 8 'time conflict').
 */
export function PriceContractDialog({
  open,
  editing,
  onClose,
}: {
  open: boolean;
  editing: PriceContract | null;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation(['contracts', 'validation', 'sales']);
  const [form] = Form.useForm<Values>();
  const discount = Form.useWatch('discount', form);
  const advertisers = useCallQuery('salesAdvertiserOptions', {}, { enabled: open, staleTime: 60_000 });
  const chosen = { required: true, message: t('required', { ns: 'validation' }) };
  const today = dayjs().startOf('day');
  const slotPrice = priceRule(t);

  return (
    <FormDialog<Values>
      open={open}
      form={form}
      title={editing ? t('price.edit') : t('price.add')}
      onClose={onClose}
      width={640}
      initialValues={{
        name: '',
        discount: 0.9,
        validity: [today, today.add(1, 'year').subtract(1, 'day')],
        enabled: true,
        slotPrices: [],
      }}
      values={
        editing
          ? {
              name: editing.name,
              advertiserId: editing.advertiserId,
              discount: editing.discount,
              validity: [dayjs(editing.validFrom), dayjs(editing.validTo)],
              enabled: editing.enabled,
              slotPrices: editing.slotPrices.map((p) => ({ slotId: p.slotId, yuan: fenToYuan(p.unitPrice) })),
            }
          : undefined
      }
      submit={(v) =>
        call('salesPriceContractSave', {
          ...(editing ? { id: editing.id } : {}),
          name: v.name.trim(),
          advertiserId: v.advertiserId ?? '',
          discount: v.discount ?? 1,
          validFrom: (v.validity?.[0] ?? today).format('YYYY-MM-DD'),
          validTo: (v.validity?.[1] ?? today).format('YYYY-MM-DD'),
          enabled: v.enabled,
          slotPrices: (v.slotPrices ?? []).flatMap((p) => {
            const fen = p.yuan ? yuanToFen(p.yuan) : null;
            return p.slotId && fen?.ok ? [{ slotId: p.slotId, unitPrice: fen.fen }] : [];
          }),
        })
      }
      success={editing ? t('price.saved') : t('price.added')}
      invalidates={['sales']}
      okText={t('save')}
      cancelText={t('cancel')}
      testId="price-form"
      submitTestId="price-submit"
    >
      <Form.Item name="name" label={t('price.name')} rules={[requiredRule(t), maxLengthRule(t, NAME_MAX)]}>
        <Input maxLength={NAME_MAX} data-testid="price-name" />
      </Form.Item>
      <Form.Item name="advertiserId" label={t('price.advertiser')} rules={[chosen]}>
        <Select
          showSearch
          optionFilterProp="label"
          loading={advertisers.isPending}
          placeholder={t('price.advertiserPick')}
          options={(advertisers.data?.data ?? []).map((a) => ({ value: a.id, label: `${a.name} (${a.loginName})` }))}
          data-testid="price-advertiser"
        />
      </Form.Item>
      <Form.Item
        name="discount"
        label={t('price.discount')}
        rules={[chosen]}
        extra={typeof discount === 'number' ? discountText(discount, i18n.language) : t('price.discountHint')}
      >
        <InputNumber min={0} max={1} step={0.05} precision={2} style={{ width: 160 }} data-testid="price-discount" />
      </Form.Item>
      <Form.Item name="validity" label={t('price.validity')} rules={[chosen]} extra={t('price.validityHint')}>
        <DatePicker.RangePicker allowClear={false} data-testid="price-validity" />
      </Form.Item>
      <Form.Item name="enabled" label={t('price.enabled')} valuePropName="checked">
        <Switch data-testid="price-enabled" />
      </Form.Item>
      <Form.Item label={t('price.slotPrices')} extra={t('price.slotPricesHint')}>
        <Form.List name="slotPrices">
          {(fields, { add, remove }) => (
            <>
              {fields.map((field, index) => (
                <Space key={field.key} align="start">
                  <Form.Item
                    name={[field.name, 'slotId']}
                    rules={[
                      chosen,
                      {
                        validator: async (_r, v) => {
                          const all = (form.getFieldValue('slotPrices') as Values['slotPrices']) ?? [];
                          if (v && all.filter((p) => p?.slotId === v).length > 1) {
                            throw new Error(t('duplicate', { ns: 'validation' }));
                          }
                        },
                      },
                    ]}
                  >
                    <SlotChoice
                      placeholder={t('price.slotPick')}
                      label={t('price.slot')}
                      testId={`price-slot-${index}`}
                    />
                  </Form.Item>
                  <Form.Item name={[field.name, 'yuan']} rules={[chosen, slotPrice]}>
                    <Input
                      prefix="¥"
                      inputMode="decimal"
                      maxLength={12}
                      placeholder={t('price.unitPrice')}
                      aria-label={t('price.unitPrice')}
                      style={{ width: 170 }}
                      data-testid={`price-slot-price-${index}`}
                    />
                  </Form.Item>
                  <Button
                    type="text"
                    icon={<DeleteOutlined />}
                    aria-label={t('price.removeSlot')}
                    onClick={() => remove(field.name)}
                  />
                </Space>
              ))}
              {fields.length < SLOT_PRICES_MAX ? (
                <Button type="dashed" icon={<PlusOutlined />} onClick={() => add({})} data-testid="price-add-slot">
                  {t('price.addSlot')}
                </Button>
              ) : null}
            </>
          )}
        </Form.List>
      </Form.Item>
    </FormDialog>
  );
}
