import { AlipayCircleOutlined, BankOutlined, WalletOutlined, WechatOutlined } from '@ant-design/icons';
import {
  type Endpoints,
  formatFen,
  type PayMethod,
  type PayOrder,
  type ProviderMethod,
  type Res,
} from '@marquee/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Result, Space, Spin, Typography } from 'antd';
import QRCode from 'qrcode';
import { type ReactNode, useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { call } from '../../api/client';
import { domainKey, useCallMutation, useCallQuery } from '../../api/queries';
import { confirmOkProps } from '../../components/ConfirmAction';
import { LinkButton } from '../../components/LinkButton';
import { OrderLoading, OrderMissing, OrderSummary, orderIdOf } from './OrderSummary';
import { FINANCE_HOME, FINANCE_MOVEMENTS, isFinal, offlinePath } from './payLogic';
import './payments.css';

type Info = Res<Endpoints['paymentInfo']>;
type MethodOption = Info['methods'][number];

/** How often a started provider payment is asked about (ms). */
export const POLL_MS = 2000;

const ICONS: Record<PayMethod, ReactNode> = {
  balance: <WalletOutlined />,
  wechat: <WechatOutlined style={{ color: '#09bb07' }} />,
  alipay: <AlipayCircleOutlined style={{ color: '#1677ff' }} />,
  offline: <BankOutlined />,
};

/** A started provider payment: the QR code drawn from its text, or the page to open. */
interface Started {
  method: ProviderMethod;
  qr: string | null;
  redirectUrl: string | null;
}

/**
 * Asks payment.query every 2 s while `active`, until the order is paid or closed; then the
 * payments reads are refreshed (the page shows the result).
 */
function usePolling(id: string, active: boolean, onFinal: (order: PayOrder) => void) {
  useEffect(() => {
    if (!active) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const tick = async () => {
      try {
        const order = await call('paymentQuery', { id }, { silent: true });
        if (stopped) return;
        if (isFinal(order.state)) {
          onFinal(order);
          return;
        }
      } catch {
        // a failed ask is asked again at the next tick
      }
      if (!stopped) timer = setTimeout(tick, POLL_MS);
    };
    timer = setTimeout(tick, POLL_MS);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [id, active, onFinal]);
}

/** One way to pay: its icon, name, what it says (available balance, why not) and its action. */
function MethodRow({
  method,
  title,
  description,
  action,
  disabled,
}: {
  method: PayMethod;
  title: ReactNode;
  description?: ReactNode;
  action: ReactNode;
  disabled?: boolean;
}) {
  return (
    <div className={`mq-pay-method${disabled ? ' mq-pay-method-disabled' : ''}`} data-testid={`pay-method-${method}`}>
      <span className="mq-pay-method-icon" aria-hidden>
        {ICONS[method]}
      </span>
      <div className="mq-pay-method-main">
        <Typography.Text strong>{title}</Typography.Text>
        {description ? <div className="mq-pay-method-desc">{description}</div> : null}
      </div>
      <div className="mq-pay-method-action">{action}</div>
    </div>
  );
}

/** Why a method cannot be used now, in words (with the settings that would enable a provider). */
function ReasonText({ option }: { option: MethodOption }) {
  const { t } = useTranslation('payments');
  if (option.available) return null;
  const reason = option.reason ?? 'unavailable';
  return (
    <Typography.Text type="secondary" data-testid={`pay-reason-${option.method}`}>
      {t(`reason.${reason}`, { defaultValue: t('reason.unavailable') })}
      {reason === 'insufficient' ? (
        <>
          {' '}
          <Link to={FINANCE_HOME} data-testid="pay-recharge-link">
            {t('action.recharge')}
          </Link>
        </>
      ) : null}
      {reason === 'notConfigured' && option.settings.length > 0 ? (
        <span className="mq-pay-settings">
          {t('reason.settings')}{' '}
          {option.settings.map((s) => (
            <Typography.Text code key={s}>
              {s}
            </Typography.Text>
          ))}
        </span>
      ) : null}
    </Typography.Text>
  );
}

/** The provider's QR code, or the link to its page, while the page waits for the payment. */
function StartedPanel({ started, onCancel }: { started: Started; onCancel: () => void }) {
  const { t } = useTranslation('payments');
  const name = t(`method.${started.method}`);
  return (
    <Card size="small" className="mq-pay-started" data-testid="pay-started">
      <Space orientation="vertical" align="center" style={{ width: '100%' }}>
        {started.qr ? (
          <>
            <img src={started.qr} alt={t('provider.qrAlt', { name })} width={220} height={220} data-testid="pay-qr" />
            <Typography.Text>{t('provider.scan', { name })}</Typography.Text>
          </>
        ) : null}
        {started.redirectUrl ? (
          <Button
            type="primary"
            href={started.redirectUrl}
            target="_blank"
            rel="noopener noreferrer"
            data-testid="pay-redirect"
          >
            {t('provider.open', { name })}
          </Button>
        ) : null}
        <Space>
          <Spin size="small" />
          <Typography.Text type="secondary" data-testid="pay-waiting">
            {t('provider.waiting')}
          </Typography.Text>
        </Space>
        <Button onClick={onCancel} data-testid="pay-other-method">
          {t('provider.otherMethod')}
        </Button>
      </Space>
    </Card>
  );
}

/** The ways to pay an unpaid order. */
function Methods({ info, onPaid }: { info: Info; onPaid: () => void }) {
  const { t, i18n } = useTranslation(['payments', 'common']);
  const { modal, message } = App.useApp();
  const { order } = info;
  const [started, setStarted] = useState<Started | null>(null);
  const [starting, setStarting] = useState<ProviderMethod | null>(null);
  const amount = formatFen(order.amount, i18n.language);

  const payBalance = useCallMutation('paymentPayBalance', {
    success: t('toast.paid'),
    invalidates: ['finance'],
    onSuccess: onPaid,
  });
  const confirmBalance = () =>
    modal.confirm({
      title: t('balance.confirmTitle'),
      content: t('balance.confirm', { amount, title: order.title }),
      okText: t('balance.pay'),
      cancelText: t('action.cancel', { ns: 'common' }),
      okButtonProps: confirmOkProps(),
      onOk: () => payBalance.mutateAsync({ id: order.id }).catch(() => undefined),
    });

  const start = async (method: ProviderMethod) => {
    setStarting(method);
    try {
      const answer = await call('paymentStart', { id: order.id, method });
      let qr: string | null = null;
      if (answer.qrCode) {
        try {
          qr = await QRCode.toDataURL(answer.qrCode, { width: 220, margin: 1, errorCorrectionLevel: 'M' });
        } catch {
          void message.error(t('provider.qrFailed'));
        }
      }
      setStarted({ method, qr, redirectUrl: answer.redirectUrl });
      if (answer.redirectUrl && !answer.qrCode) window.open(answer.redirectUrl, '_blank', 'noopener');
    } catch {
      // the API client has shown why
    } finally {
      setStarting(null);
    }
  };

  const onFinal = useCallback(() => {
    setStarted(null);
    onPaid();
  }, [onPaid]);
  usePolling(order.id, started !== null, onFinal);

  if (started) return <StartedPanel started={started} onCancel={() => setStarted(null)} />;

  const option = (m: PayMethod) => info.methods.find((o) => o.method === m);
  const balance = option('balance');
  const offline = option('offline');
  return (
    <Card size="small" title={t('method.title')} className="mq-pay-methods" data-testid="pay-methods">
      {balance ? (
        <MethodRow
          method="balance"
          disabled={!balance.available}
          title={t('method.balance')}
          description={
            <Space orientation="vertical" size={0}>
              <Typography.Text type="secondary">
                {t('balance.available')}{' '}
                <Typography.Text data-testid="pay-available">
                  {formatFen(info.available, i18n.language)}
                </Typography.Text>
              </Typography.Text>
              <ReasonText option={balance} />
            </Space>
          }
          action={
            <Button
              type="primary"
              disabled={!balance.available}
              loading={payBalance.isPending}
              onClick={confirmBalance}
              data-testid="pay-balance"
            >
              {t('balance.pay')}
            </Button>
          }
        />
      ) : null}
      {(['wechat', 'alipay'] as const).map((m) => {
        const o = option(m);
        if (!o) return null;
        return (
          <MethodRow
            key={m}
            method={m}
            disabled={!o.available}
            title={t(`method.${m}`)}
            description={o.available ? t(`provider.${m}Hint`) : <ReasonText option={o} />}
            action={
              <Button
                disabled={!o.available || starting !== null}
                loading={starting === m}
                onClick={() => void start(m)}
                data-testid={`pay-${m}`}
              >
                {t('provider.pay')}
              </Button>
            }
          />
        );
      })}
      {offline ? (
        <MethodRow
          method="offline"
          disabled={!offline.available}
          title={t('method.offline')}
          description={offline.available ? t('offline.hint') : <ReasonText option={offline} />}
          action={
            <LinkButton to={offlinePath(order.id)} disabled={!offline.available} data-testid="pay-offline">
              {t('offline.go')}
            </LinkButton>
          }
        />
      ) : null}
    </Card>
  );
}

/** What the page shows once the order is paid, closed or waiting for its transfer's review. */
function OrderResult({ info }: { info: Info }) {
  const { t, i18n } = useTranslation('payments');
  const { order } = info;
  const financeLink = (
    <LinkButton key="finance" type="primary" to={FINANCE_MOVEMENTS} data-testid="pay-to-finance">
      {t('action.toMovements')}
    </LinkButton>
  );
  if (order.state === 'paid')
    return (
      <Result
        status="success"
        title={t('result.paid')}
        data-testid="pay-result"
        subTitle={
          <Space orientation="vertical" size={2}>
            <span>
              {t('result.paidDetail', {
                amount: formatFen(order.amount, i18n.language),
                method: order.method ? t(`method.${order.method}`) : '-',
              })}
            </span>
            {order.purpose === 'recharge' ? (
              <span data-testid="pay-new-balance">
                {t('result.newBalance', { amount: formatFen(info.available, i18n.language) })}
              </span>
            ) : null}
            {order.providerTradeNo ? <span>{t('result.tradeNo', { no: order.providerTradeNo })}</span> : null}
          </Space>
        }
        extra={
          order.purpose === 'market'
            ? [
                <LinkButton key="market" type="primary" to={`/shop/order?id=${order.id}`} data-testid="pay-to-market">
                  {t('action.toMarketOrder')}
                </LinkButton>,
                financeLink,
              ]
            : [financeLink]
        }
      />
    );
  if (order.state === 'review')
    return (
      <Result
        status="info"
        title={t('result.review')}
        subTitle={t('result.reviewDetail')}
        data-testid="pay-result"
        extra={[
          <LinkButton key="offline" type="primary" to={offlinePath(order.id)} data-testid="pay-offline">
            {t('result.seeTransfer')}
          </LinkButton>,
          <LinkButton key="finance" to={FINANCE_HOME}>
            {t('action.toFinance')}
          </LinkButton>,
        ]}
      />
    );
  return (
    <Result
      status="warning"
      title={t('result.closed')}
      subTitle={order.purpose === 'recharge' ? t('result.closedRecharge') : t('result.closedDetail')}
      data-testid="pay-result"
      extra={[
        <LinkButton key="finance" type="primary" to={FINANCE_HOME} data-testid="pay-to-finance">
          {t('action.toFinance')}
        </LinkButton>,
      ]}
    />
  );
}

/**
 * The aggregate payment page (/pay?id=<order>, alias /pay/aggregation): the order with its
 * amount, state and time left, and every way to pay it: the wallet's balance (after a
 * confirmation), WeChat Pay and Alipay (a QR code or the provider's page, then asked about
 * every 2 s until paid; a provider not configured says which settings enable it) and an
 * offline bank transfer (/payUnderline). A paid order shows the result with the way to the
 * finance centre; the payer can close an unpaid recharge.
 */
export default function PayPage() {
  const { t, i18n } = useTranslation(['payments', 'common']);
  const { modal } = App.useApp();
  const [params] = useSearchParams();
  const id = orderIdOf(params);
  const queryClient = useQueryClient();
  const info = useCallQuery('paymentInfo', { id }, { enabled: id !== '', silent: true });
  const refresh = useCallback(() => {
    void queryClient.invalidateQueries({ queryKey: domainKey('payments') });
    void queryClient.invalidateQueries({ queryKey: domainKey('finance') });
  }, [queryClient]);

  const close = useCallMutation('paymentClose', { success: t('toast.closed'), invalidates: ['finance'] });
  const confirmClose = (order: PayOrder) =>
    modal.confirm({
      title: t('close.title'),
      content: t('close.confirm', { no: order.no, amount: formatFen(order.amount, i18n.language) }),
      okText: t('close.ok'),
      cancelText: t('action.cancel', { ns: 'common' }),
      okButtonProps: confirmOkProps(true),
      onOk: () => close.mutateAsync({ id: order.id }).catch(() => undefined),
    });

  let body: ReactNode;
  if (!id) body = <OrderMissing />;
  else if (info.isPending) body = <OrderLoading />;
  else if (info.isError || !info.data) body = <OrderMissing failed onRetry={() => void info.refetch()} />;
  else {
    const { order } = info.data;
    body = (
      <>
        <OrderSummary order={order} onExpired={refresh} />
        {order.state === 'unpaid' ? (
          <>
            <Methods info={info.data} onPaid={refresh} />
            {order.purpose === 'recharge' ? (
              <div className="mq-pay-close">
                <Button danger onClick={() => confirmClose(order)} loading={close.isPending} data-testid="pay-close">
                  {t('close.button')}
                </Button>
              </div>
            ) : null}
          </>
        ) : (
          <OrderResult info={info.data} />
        )}
      </>
    );
  }
  return (
    <div className="mq-view mq-pay" data-testid="pay-page">
      <Typography.Title level={4} className="mq-pay-title">
        {t('page.title')}
      </Typography.Title>
      {body}
    </div>
  );
}
