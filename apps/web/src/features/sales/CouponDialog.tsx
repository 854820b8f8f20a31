import { COUPON_LIMIT_MAX, COUPON_NAME_MAX, type Coupon } from '@marquee/protocol';
import { DatePicker, Form, Input, InputNumber, Select } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { useCallQuery } from '../../api/queries';
import { useTodayRangeDefault } from '../../components/enterpriseToday';
import { FormDialog } from '../../components/FormDialog';
import { maxLengthRule, requiredRule } from '../../components/zodRule';
import { discountText } from './salesLook';

interface Values {
  name: string;
  discount: number | null;
  limit: number | null;
  validity: [Dayjs, Dayjs] | null;
  goodsIds: string[];
}

/**
 * Adds or edits a coupon (salesManage): name, discount 0 to 1 with at most two decimals (spec
 * section 5; shown as each language says it), a limit of uses (1 to 99999, not below the uses
 * already made: the server refuses), validity (days of the enterprise's zone), and the goods it applies to (none:
 * all goods and slots). A used coupon keeps its discount (the server's CONFLICT message shows).
 */
export function CouponDialog({
  open,
  editing,
  onClose,
}: {
  open: boolean;
  editing: Coupon | null;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation(['sales', 'validation']);
  const [form] = Form.useForm<Values>();
  const discount = Form.useWatch('discount', form);
  const goods = useCallQuery('salesGoodsList', { page: 1, size: 500 }, { enabled: open });
  const chosen = { required: true, message: t('required', { ns: 'validation' }) };
  const { zone, today } = useTodayRangeDefault(form, 'validity', 30, open && !editing);

  return (
    <FormDialog<Values>
      open={open}
      form={form}
      title={editing ? t('coupon.edit') : t('coupon.add')}
      onClose={onClose}
      width={560}
      initialValues={{ name: '', discount: 0.9, limit: 100, validity: [today, today.add(30, 'day')], goodsIds: [] }}
      values={
        editing
          ? {
              name: editing.name,
              discount: editing.discount,
              limit: editing.limit,
              validity: [dayjs(editing.validFrom), dayjs(editing.validTo)],
              goodsIds: editing.goodsIds,
            }
          : undefined
      }
      submit={(v) =>
        call('salesCouponSave', {
          ...(editing ? { id: editing.id } : {}),
          name: v.name.trim(),
          discount: v.discount ?? 0,
          limit: v.limit ?? 1,
          validFrom: (v.validity?.[0] ?? today).format('YYYY-MM-DD'),
          validTo: (v.validity?.[1] ?? today).format('YYYY-MM-DD'),
          goodsIds: v.goodsIds ?? [],
        })
      }
      success={editing ? t('coupon.saved') : t('coupon.added')}
      invalidates={['sales']}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      testId="sales-coupon-form"
      submitTestId="sales-coupon-submit"
    >
      <Form.Item name="name" label={t('coupon.name')} rules={[requiredRule(t), maxLengthRule(t, COUPON_NAME_MAX)]}>
        <Input maxLength={COUPON_NAME_MAX} data-testid="sales-coupon-name" />
      </Form.Item>
      <Form.Item
        name="discount"
        label={t('coupon.discount')}
        rules={[chosen]}
        extra={typeof discount === 'number' ? discountText(discount, i18n.language) : t('coupon.discountHint')}
      >
        <InputNumber
          min={0}
          max={1}
          step={0.05}
          precision={2}
          style={{ width: 160 }}
          data-testid="sales-coupon-discount"
        />
      </Form.Item>
      <Form.Item name="limit" label={t('coupon.limit')} rules={[chosen]}>
        <InputNumber
          min={1}
          max={COUPON_LIMIT_MAX}
          precision={0}
          style={{ width: 160 }}
          data-testid="sales-coupon-limit"
        />
      </Form.Item>
      <Form.Item
        name="validity"
        label={t('coupon.validity')}
        rules={[chosen]}
        extra={t('coupon.validityHint', { zone })}
      >
        <DatePicker.RangePicker allowClear={false} data-testid="sales-coupon-validity" />
      </Form.Item>
      <Form.Item name="goodsIds" label={t('coupon.goods')} extra={t('coupon.goodsHint')}>
        <Select
          mode="multiple"
          allowClear
          loading={goods.isPending}
          placeholder={t('coupon.allGoods')}
          optionFilterProp="label"
          options={(goods.data?.data ?? []).map((g) => ({ value: g.id, label: `${g.number} ${g.name}` }))}
          data-testid="sales-coupon-goods"
        />
      </Form.Item>
    </FormDialog>
  );
}
