import { PlusOutlined } from '@ant-design/icons';
import { formatFen, Perm } from '@marquee/protocol';
import { Button, Form, Input, Select, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { useCallQuery } from '../../api/queries';
import { FormDialog } from '../../components/FormDialog';
import { amountRule, checkYuan } from '../../components/money';
import { maxLengthRule, requiredRule } from '../../components/zodRule';
import { useCan } from '../../session/useCan';
import { amountInWords } from './payLogic';
import './payments.css';

interface Values {
  entId: string;
  title: string;
  amount: string;
}

/** The amount typed, as the locale shows it (and in words in zh-CN), under the field. */
function AmountPreview({ text }: { text: string | undefined }) {
  const { i18n } = useTranslation('payments');
  const parsed = text ? checkYuan(text) : null;
  if (!parsed?.ok) return null;
  const words = amountInWords(parsed.fen, i18n.language);
  return (
    <Typography.Text type="secondary" data-testid="pay-bill-amount-preview">
      {formatFen(parsed.fen, i18n.language)}
      {words ? ` · ${words}` : ''}
    </Typography.Text>
  );
}

/** The bill dialog: enterprise, title and amount in yuan (at most 2 decimals). */
export function BillCreateDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation(['payments', 'common', 'validation']);
  const [form] = Form.useForm<Values>();
  const amountText = Form.useWatch('amount', form);
  const enterprises = useCallQuery('enterpriseOptions', {}, { enabled: open, silent: true, staleTime: 60_000 });
  return (
    <FormDialog<Values>
      open={open}
      form={form}
      title={t('bill.title')}
      onClose={onClose}
      submit={async (v) => {
        const parsed = checkYuan(v.amount);
        if (!parsed.ok) throw new Error(parsed.key);
        return await call('paymentBillCreate', { entId: v.entId, title: v.title.trim(), amount: parsed.fen });
      }}
      success={(answer) => t('toast.billCreated', { no: (answer as { no: string }).no })}
      invalidates={['payments', 'finance']}
      okText={t('bill.create')}
      cancelText={t('action.cancel', { ns: 'common' })}
      submitTestId="pay-bill-submit"
      testId="pay-bill-form"
    >
      <Form.Item
        name="entId"
        label={t('bill.enterprise')}
        rules={[{ required: true, message: t('required', { ns: 'validation' }) }]}
      >
        <Select
          showSearch={{ optionFilterProp: 'label' }}
          options={enterprises.data ?? []}
          loading={enterprises.isPending}
          placeholder={t('bill.enterpriseHint')}
          notFoundContent={enterprises.isError ? t('load.failed') : undefined}
          data-testid="pay-bill-ent"
        />
      </Form.Item>
      <Form.Item name="title" label={t('bill.name')} rules={[requiredRule(t), maxLengthRule(t, 60)]}>
        <Input maxLength={60} placeholder={t('bill.nameHint')} data-testid="pay-bill-title" />
      </Form.Item>
      <Form.Item
        name="amount"
        label={t('bill.amount')}
        extra={<AmountPreview text={amountText} />}
        rules={[requiredRule(t), amountRule(checkYuan, t)]}
      >
        <Input inputMode="decimal" prefix="¥" maxLength={20} placeholder="0.00" data-testid="pay-bill-amount" />
      </Form.Item>
    </FormDialog>
  );
}

/**
 * The platform operator raises a bill to an enterprise (a service fee): a button and its dialog
 * (payment.billCreate); the enterprise pays it at /pay. Not shown to other callers.
 */
export function BillCreateButton() {
  const { t } = useTranslation('payments');
  const can = useCan();
  const [open, setOpen] = useState(false);
  if (!can(Perm.financeManage)) return null;
  return (
    <>
      <Button type="primary" icon={<PlusOutlined />} onClick={() => setOpen(true)} data-testid="pay-bill-create">
        {t('bill.button')}
      </Button>
      <BillCreateDialog open={open} onClose={() => setOpen(false)} />
    </>
  );
}

export default BillCreateButton;
