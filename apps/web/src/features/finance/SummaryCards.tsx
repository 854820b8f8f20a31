import { EditOutlined, WalletOutlined } from '@ant-design/icons';
import { type Endpoints, fenToYuan, formatFen, LOW_BALANCE_DEFAULT_FEN, type Res } from '@marquee/protocol';
import { Alert, Button, Card, Col, Form, Input, Row, Skeleton, Statistic, Switch, Typography, theme } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { FormDialog } from '../../components/FormDialog';
import { NotForMonitor } from '../../components/MonitorGuard';
import { amountRule, checkYuan } from '../../components/money';

type Summary = Res<Endpoints['financeSummary']>;

/**
 * The finance centre's header: the selected wallet's available, frozen and posted balance,
 * what can still be invoiced and the unpaid orders (a link to the Payments tab), the
 * low-balance warning with its threshold (editable) and the Recharge button.
 */
export function SummaryCards({
  summary,
  loading,
  onRecharge,
  onUnpaid,
}: {
  summary: Summary | undefined;
  loading: boolean;
  /** Absent: the wallet cannot be recharged (a platform account). */
  onRecharge?: () => void;
  onUnpaid: () => void;
}) {
  const { t, i18n } = useTranslation('finance');
  const { token } = theme.useToken();
  const language = i18n.language;
  const [editing, setEditing] = useState(false);
  if (!summary)
    return (
      <Card size="small" className="mq-finance-summary" data-testid="finance-summary-loading">
        <Skeleton active={loading} paragraph={{ rows: 2 }} />
      </Card>
    );
  const { wallet } = summary;
  const money = (fen: number) => formatFen(fen, language);
  const platform = wallet.kind === 'platform';
  return (
    <>
      {wallet.low ? (
        <Alert
          type="warning"
          showIcon
          className="mq-finance-low"
          data-testid="finance-low-alert"
          title={t('low.title')}
          description={t('low.description', {
            available: money(wallet.available),
            threshold: money(wallet.lowBalanceThreshold ?? 0),
          })}
          action={
            onRecharge ? (
              <Button size="small" type="primary" onClick={onRecharge} data-testid="finance-low-recharge">
                {t('recharge.button')}
              </Button>
            ) : undefined
          }
        />
      ) : null}
      <Row gutter={[12, 12]} className="mq-finance-summary" data-testid="finance-summary">
        <Col xs={24} md={12} xl={6}>
          <Card size="small" className="mq-finance-card mq-finance-card-main">
            <Statistic
              title={t('summary.available')}
              value={money(wallet.available)}
              prefix={<WalletOutlined />}
              valueStyle={{ color: token.colorPrimaryText }}
              valueRender={(node) => <span data-testid="finance-available">{node}</span>}
            />
            {onRecharge ? (
              <NotForMonitor>
                <Button
                  type="primary"
                  onClick={onRecharge}
                  className="mq-finance-recharge"
                  data-testid="finance-recharge"
                >
                  {t('recharge.button')}
                </Button>
              </NotForMonitor>
            ) : null}
          </Card>
        </Col>
        <Col xs={12} md={6} xl={4}>
          <Card size="small" className="mq-finance-card">
            <Statistic
              title={t('summary.frozen')}
              value={money(wallet.frozen)}
              valueRender={(node) => <span data-testid="finance-frozen">{node}</span>}
            />
            <Typography.Text type="secondary" className="mq-finance-hint">
              {t('summary.frozenHint')}
            </Typography.Text>
          </Card>
        </Col>
        <Col xs={12} md={6} xl={4}>
          <Card size="small" className="mq-finance-card">
            <Statistic
              title={t('summary.balance')}
              value={money(wallet.balance)}
              valueRender={(node) => <span data-testid="finance-balance">{node}</span>}
            />
            <Typography.Text type="secondary" className="mq-finance-hint">
              {t('summary.balanceHint')}
            </Typography.Text>
          </Card>
        </Col>
        {platform ? null : (
          <Col xs={12} md={6} xl={4}>
            <Card size="small" className="mq-finance-card">
              <Statistic
                title={t('summary.invoiceable')}
                value={money(summary.invoiceable)}
                valueRender={(node) => <span data-testid="finance-invoiceable">{node}</span>}
              />
              <Typography.Text type="secondary" className="mq-finance-hint">
                {t('summary.invoiceableHint')}
              </Typography.Text>
            </Card>
          </Col>
        )}
        {platform ? null : (
          <Col xs={12} md={6} xl={3}>
            <Card size="small" className="mq-finance-card">
              <Statistic
                title={t('summary.unpaid')}
                value={summary.unpaidOrders}
                valueRender={(node) => <span data-testid="finance-unpaid">{node}</span>}
              />
              <Button
                type="link"
                size="small"
                onClick={onUnpaid}
                className="mq-finance-link"
                data-testid="finance-unpaid-link"
              >
                {t('summary.unpaidLink')}
              </Button>
            </Card>
          </Col>
        )}
        {platform ? null : (
          <Col xs={24} md={12} xl={3}>
            <Card size="small" className="mq-finance-card">
              <Statistic
                title={t('summary.threshold')}
                value={wallet.lowBalanceThreshold === null ? t('low.off') : money(wallet.lowBalanceThreshold)}
                valueRender={(node) => <span data-testid="finance-threshold">{node}</span>}
              />
              <NotForMonitor>
                <Button
                  type="link"
                  size="small"
                  icon={<EditOutlined />}
                  onClick={() => setEditing(true)}
                  className="mq-finance-link"
                  data-testid="finance-threshold-edit"
                >
                  {t('low.edit')}
                </Button>
              </NotForMonitor>
            </Card>
          </Col>
        )}
      </Row>
      <ThresholdDialog
        open={editing}
        walletId={wallet.id}
        threshold={wallet.lowBalanceThreshold}
        onClose={() => setEditing(false)}
      />
    </>
  );
}

interface ThresholdForm {
  on: boolean;
  amount?: string;
}

/** The low-balance threshold typed in yuan (read as fen with yuanToFen), or off. */
function ThresholdDialog({
  open,
  walletId,
  threshold,
  onClose,
}: {
  open: boolean;
  walletId: string;
  threshold: number | null;
  onClose: () => void;
}) {
  const { t } = useTranslation(['finance', 'validation']);
  const [form] = Form.useForm<ThresholdForm>();
  const on = Form.useWatch('on', form);
  return (
    <FormDialog<ThresholdForm>
      open={open}
      form={form}
      title={t('low.dialogTitle')}
      onClose={onClose}
      values={{
        on: threshold !== null,
        amount: fenToYuan(threshold ?? LOW_BALANCE_DEFAULT_FEN),
      }}
      submit={(v) => {
        const check = v.on ? checkYuan(v.amount ?? '', { zero: true }) : null;
        return call('financeSetLowBalance', { walletId, threshold: check?.ok ? check.fen : null });
      }}
      success={t('low.saved')}
      invalidates={['finance']}
      okText={t('action.save')}
      cancelText={t('action.cancel')}
      submitTestId="finance-threshold-submit"
      testId="finance-threshold-form"
      width={440}
    >
      <Typography.Paragraph type="secondary">{t('low.explain')}</Typography.Paragraph>
      <Form.Item name="on" label={t('low.on')} valuePropName="checked">
        <Switch data-testid="finance-threshold-on" />
      </Form.Item>
      {on ? (
        <Form.Item
          name="amount"
          label={t('low.amount')}
          rules={[
            { required: true, whitespace: true, message: t('validation:required') },
            amountRule((text) => checkYuan(text, { zero: true }), t),
          ]}
        >
          <Input prefix="¥" inputMode="decimal" maxLength={16} data-testid="finance-threshold-amount" />
        </Form.Item>
      ) : null}
    </FormDialog>
  );
}
