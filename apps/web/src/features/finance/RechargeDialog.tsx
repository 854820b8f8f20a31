import { fenToYuan, formatFen, RECHARGE_PRESETS_FEN, toChineseAmount } from '@marquee/protocol';
import { Form, Input, Radio, Typography } from 'antd';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { call } from '../../api/client';
import { FormDialog } from '../../components/FormDialog';
import { amountRule, checkRecharge } from '../../components/money';

const CUSTOM = 'custom';

interface RechargeForm {
  /** A preset's fen as text, or 'custom'. */
  preset: string;
  /** The free amount in yuan, when `preset` is 'custom'. */
  amount?: string;
}

/** The fen a filled form asks for (null while the free amount is not a valid recharge). */
export function rechargeFenOf(values: Partial<RechargeForm>): number | null {
  if (!values.preset) return null;
  if (values.preset !== CUSTOM) return Number(values.preset);
  const check = checkRecharge(values.amount ?? '');
  return check.ok ? check.fen : null;
}

/**
 * Recharge (spec sections 5 and 9): the presets 1000, 2000 and 10000 yuan or a free amount
 * (greater than 0, at most 2 decimals, not above 100000), the amount in Chinese words for a
 * Chinese reader; the order is opened with payment.recharge and paid at /pay?id=.
 */
export function RechargeDialog({
  open,
  walletId,
  walletName,
  onClose,
}: {
  open: boolean;
  /** The wallet to recharge (none: the caller's own). */
  walletId?: string;
  walletName?: string;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation(['finance', 'validation']);
  const language = i18n.language;
  const navigate = useNavigate();
  const [form] = Form.useForm<RechargeForm>();
  const preset = Form.useWatch('preset', form);
  const amount = Form.useWatch('amount', form);
  const fen = rechargeFenOf({ preset, amount });
  const opened = useRef<string | null>(null);

  return (
    <FormDialog<RechargeForm>
      open={open}
      form={form}
      title={t('recharge.title')}
      onClose={onClose}
      initialValues={{ preset: String(RECHARGE_PRESETS_FEN[0]) }}
      submit={async (values) => {
        const chosen = rechargeFenOf(values);
        if (chosen === null) throw new Error('invalid amount');
        const order = await call('paymentRecharge', { amount: chosen, ...(walletId ? { walletId } : {}) });
        opened.current = order.id;
        return order;
      }}
      onDone={() => {
        onClose();
        // The order is paid on the aggregate payment page.
        if (opened.current) navigate(`/pay?id=${encodeURIComponent(opened.current)}`);
      }}
      success={(answer) => t('recharge.created', { no: (answer as { no: string }).no })}
      canSubmit={(values) => rechargeFenOf(values) !== null}
      invalidates={['payments', 'finance']}
      okText={t('recharge.submit')}
      cancelText={t('action.cancel')}
      submitTestId="finance-recharge-submit"
      testId="finance-recharge-form"
      width={520}
    >
      {walletName ? (
        <Typography.Paragraph type="secondary" data-testid="finance-recharge-wallet">
          {t('recharge.wallet', { name: walletName })}
        </Typography.Paragraph>
      ) : null}
      <Form.Item name="preset" label={t('recharge.amount')}>
        <Radio.Group optionType="button" buttonStyle="solid" data-testid="finance-recharge-presets">
          {/* The test ids on the visible labels (a radio's own input is hidden under them). */}
          {RECHARGE_PRESETS_FEN.map((p) => (
            <Radio.Button key={p} value={String(p)}>
              <span data-testid={`finance-recharge-preset-${p}`}>{formatFen(p, language)}</span>
            </Radio.Button>
          ))}
          <Radio.Button value={CUSTOM}>
            <span data-testid="finance-recharge-preset-custom">{t('recharge.custom')}</span>
          </Radio.Button>
        </Radio.Group>
      </Form.Item>
      {preset === CUSTOM ? (
        <Form.Item
          name="amount"
          label={t('recharge.customAmount')}
          extra={t('recharge.rule')}
          rules={[
            { required: true, whitespace: true, message: t('validation:rechargeAmount') },
            amountRule(checkRecharge, t),
          ]}
        >
          <Input prefix="¥" inputMode="decimal" maxLength={12} autoFocus data-testid="finance-recharge-amount" />
        </Form.Item>
      ) : null}
      <div className="mq-finance-recharge-total" data-testid="finance-recharge-total">
        <Typography.Text type="secondary">{t('recharge.total')}</Typography.Text>{' '}
        <Typography.Text strong>{fen === null ? '-' : formatFen(fen, language)}</Typography.Text>
        {fen !== null && language === 'zh-CN' ? (
          <div className="mq-finance-words" data-testid="finance-recharge-words">
            {toChineseAmount(fenToYuan(fen))}
          </div>
        ) : null}
      </div>
    </FormDialog>
  );
}
