import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { MARKET_KINDS, type MarketKind, type Product, TERM_MONTHS, TRAFFIC_MAX_MB } from '@marquee/protocol';
import { Alert, Button, Form, Input, InputNumber, Select, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { FormDialog } from '../../components/FormDialog';
import { amountRule, checkYuan } from '../../components/money';
import { maxLengthRule, requiredRule } from '../../components/zodRule';
import { kindText, termText } from './look';
import { type PriceRow, priceRowsOf, pricesChanged, pricesOf } from './marketLogic';

interface Values {
  kind: MarketKind;
  name: string;
  description: string;
  prices: PriceRow[];
  dataMbPerMonth?: number | null;
}

/**
 * The platform operator adds or edits a catalogue product: kind, name, description, a price per
 * term (months from TERM_MONTHS, the amount typed in yuan and sent in fen) and, for a data-card
 * package, its data per month. A product on sale keeps its prices: the server refuses a change
 * (its message is shown) until it is taken off shelf.
 */
export function ProductDialog({
  open,
  editing,
  onClose,
}: {
  open: boolean;
  editing: Product | null;
  onClose: () => void;
}) {
  const { t } = useTranslation(['market', 'common', 'validation']);
  const [form] = Form.useForm<Values>();
  const kind = Form.useWatch('kind', form);
  const rows = Form.useWatch('prices', form);
  const onSale = editing?.state === 'onSale';
  // A number chosen or typed (requiredRule is a text's: it would refuse a number).
  const chosenRule = { required: true, message: t('required', { ns: 'validation' }) };
  const parsed = rows ? pricesOf(rows) : null;
  const changingOnSale = Boolean(onSale && editing && parsed?.ok && pricesChanged(editing.prices, parsed.prices));

  return (
    <FormDialog<Values>
      open={open}
      form={form}
      title={editing ? t('catalogue.edit') : t('catalogue.add')}
      onClose={onClose}
      width={600}
      initialValues={{ kind: 'devicePoints', name: '', description: '', prices: [{ months: 1, yuan: '' }] }}
      values={
        editing
          ? {
              kind: editing.kind,
              name: editing.name,
              description: editing.description,
              prices: priceRowsOf(editing.prices),
              dataMbPerMonth: editing.dataMbPerMonth,
            }
          : undefined
      }
      submit={async (v) => {
        const prices = pricesOf(v.prices ?? []);
        if (!prices.ok) throw new Error(prices.key);
        return await call('marketProductSave', {
          ...(editing ? { id: editing.id } : {}),
          kind: v.kind,
          name: v.name.trim(),
          description: (v.description ?? '').trim(),
          prices: prices.prices,
          dataMbPerMonth: v.kind === 'dataCard' ? (v.dataMbPerMonth ?? null) : null,
        });
      }}
      success={editing ? t('toast.productSaved') : t('toast.productAdded')}
      invalidates={['market']}
      okText={t('action.save')}
      cancelText={t('action.cancel', { ns: 'common' })}
      submitTestId="market-product-submit"
      testId="market-product-form"
    >
      <Form.Item name="kind" label={t('catalogue.kind')} rules={[requiredRule(t)]}>
        <Select
          disabled={Boolean(editing)}
          options={MARKET_KINDS.map((k) => ({ value: k, label: kindText(t, k) }))}
          data-testid="market-product-kind"
        />
      </Form.Item>
      <Form.Item name="name" label={t('catalogue.name')} rules={[requiredRule(t), maxLengthRule(t, 40)]}>
        <Input maxLength={40} data-testid="market-product-name" />
      </Form.Item>
      <Form.Item name="description" label={t('catalogue.description')} rules={[maxLengthRule(t, 500)]}>
        <Input.TextArea maxLength={500} rows={3} showCount data-testid="market-product-description" />
      </Form.Item>
      {kind === 'dataCard' ? (
        <Form.Item
          name="dataMbPerMonth"
          label={t('catalogue.dataMbPerMonth')}
          rules={[chosenRule, { type: 'number', min: 1, max: TRAFFIC_MAX_MB, message: t('catalogue.dataRange') }]}
        >
          <InputNumber min={1} max={TRAFFIC_MAX_MB} precision={0} suffix="MB" data-testid="market-product-data" />
        </Form.Item>
      ) : null}
      <Form.Item label={t('catalogue.prices')} required>
        <Form.List
          name="prices"
          rules={[
            {
              validator: async (_rule, value: PriceRow[] | undefined) => {
                const list = value ?? [];
                if (list.length === 0) throw new Error(t('required', { ns: 'validation' }));
                const months = list.map((r) => r.months).filter(Boolean);
                if (new Set(months).size !== months.length) throw new Error(t('catalogue.duplicateTerm'));
              },
            },
          ]}
        >
          {(fields, { add, remove }, { errors }) => (
            <>
              {fields.map((field, index) => (
                <Space key={field.key} align="start" className="mq-market-price-row">
                  <Form.Item name={[field.name, 'months']} rules={[chosenRule]}>
                    <Select
                      style={{ width: 140 }}
                      aria-label={t('catalogue.term')}
                      options={TERM_MONTHS.map((m) => ({ value: m, label: termText(t, m) }))}
                      data-testid={`market-price-months-${index}`}
                    />
                  </Form.Item>
                  <Form.Item name={[field.name, 'yuan']} rules={[requiredRule(t), amountRule(checkYuan, t)]}>
                    <Input
                      prefix="¥"
                      inputMode="decimal"
                      maxLength={16}
                      placeholder="0.00"
                      aria-label={t('catalogue.price')}
                      style={{ width: 180 }}
                      data-testid={`market-price-yuan-${index}`}
                    />
                  </Form.Item>
                  <Button
                    type="text"
                    icon={<DeleteOutlined />}
                    aria-label={t('catalogue.removePrice')}
                    disabled={fields.length <= 1}
                    onClick={() => remove(field.name)}
                    data-testid={`market-price-remove-${index}`}
                  />
                </Space>
              ))}
              <Button
                type="dashed"
                icon={<PlusOutlined />}
                disabled={fields.length >= TERM_MONTHS.length}
                onClick={() => {
                  const used = new Set((form.getFieldValue('prices') as PriceRow[] | undefined)?.map((r) => r.months));
                  add({ months: TERM_MONTHS.find((m) => !used.has(m)), yuan: '' });
                }}
                data-testid="market-price-add"
              >
                {t('catalogue.addPrice')}
              </Button>
              <Form.ErrorList errors={errors} />
            </>
          )}
        </Form.List>
      </Form.Item>
      {changingOnSale ? (
        <Alert type="warning" showIcon title={t('catalogue.onSalePrices')} data-testid="market-product-onsale-hint" />
      ) : null}
    </FormDialog>
  );
}
