import { CARD_OPERATORS, type CardOperator, type IotCard, iccidSchema } from '@marquee/protocol';
import { Form, Input, Select, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { type EditDialogProps, FormDialog } from '../../components/FormDialog';
import { maxLengthRule, requiredRule, zodRule } from '../../components/zodRule';

interface CardValues {
  iccid: string;
  operator: CardOperator;
  remark: string;
}

/** Whether a typed ICCID meets the rule (19 or 20 letters or digits, spaces around ignored). */
export function iccidValid(text: string | undefined): boolean {
  return iccidSchema.safeParse((text ?? '').trim()).success;
}

/**
 * The rule of the ICCID shown live under its field: what it needs and how many characters are
 * typed, green once the typed text meets it (the form's own error says what is wrong on submit).
 */
function IccidHint({ value }: { value: string | undefined }) {
  const { t } = useTranslation('flow');
  const typed = (value ?? '').trim().length;
  const ok = iccidValid(value);
  return (
    <Typography.Text type={ok ? 'success' : 'secondary'} data-testid="flow-iccid-hint" data-valid={ok}>
      {t('card.iccidRule', { count: typed })}
    </Typography.Text>
  );
}

/**
 * Adds a card (ICCID with its rule shown live, operator, remark; it starts in stock) or edits
 * one (operator and remark; the ICCID is the card's identity and stays).
 */
export function CardDialog({ open, editing, onClose }: EditDialogProps<IotCard>) {
  const { t } = useTranslation('flow');
  const [form] = Form.useForm<CardValues>();
  const iccid = Form.useWatch('iccid', form);
  return (
    <FormDialog<CardValues>
      open={open}
      form={form}
      title={editing ? t('card.editTitle') : t('card.addTitle')}
      onClose={onClose}
      submit={(v) =>
        editing
          ? call('flowCardUpdate', { id: editing.id, operator: v.operator, remark: (v.remark ?? '').trim() })
          : call('flowCardAdd', { iccid: v.iccid.trim(), operator: v.operator, remark: (v.remark ?? '').trim() })
      }
      success={editing ? t('card.saved') : t('card.added')}
      invalidates={['flow']}
      initialValues={{ operator: 'chinaMobile', remark: '' }}
      values={editing ? { iccid: editing.iccid, operator: editing.operator, remark: editing.remark } : undefined}
      okText={t('dialog.save')}
      cancelText={t('dialog.cancel')}
      submitTestId="flow-card-submit"
      testId="flow-card-form"
    >
      <Form.Item
        name="iccid"
        label={t('col.iccid')}
        rules={editing ? [] : [requiredRule(t), zodRule(iccidSchema, t)]}
        extra={editing ? undefined : <IccidHint value={iccid} />}
      >
        <Input
          maxLength={24}
          disabled={Boolean(editing)}
          autoComplete="off"
          spellCheck={false}
          className="mq-flow-mono"
          placeholder={t('card.iccidPlaceholder')}
          data-testid="flow-iccid-input"
        />
      </Form.Item>
      <Form.Item
        name="operator"
        label={t('col.operator')}
        rules={[{ required: true, message: t('card.operatorRequired') }]}
      >
        <Select
          options={CARD_OPERATORS.map((o) => ({ value: o, label: t(`operator.${o}`) }))}
          data-testid="flow-operator-input"
        />
      </Form.Item>
      <Form.Item name="remark" label={t('col.remark')} rules={[maxLengthRule(t, 100)]}>
        <Input.TextArea rows={2} maxLength={100} showCount data-testid="flow-remark-input" />
      </Form.Item>
    </FormDialog>
  );
}
