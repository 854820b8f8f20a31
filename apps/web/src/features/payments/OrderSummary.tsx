import { formatFen, formatTime, type PayOrder } from '@marquee/protocol';
import { Alert, Button, Card, Descriptions, Result, Skeleton, Tag, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LinkButton } from '../../components/LinkButton';
import { amountInWords, FINANCE_HOME, formatCountdown, PAY_STATE_COLORS, secondsLeft } from './payLogic';

/** Seconds left until `expiresAt`, ticking every second (null without an expiry). */
export function useSecondsLeft(expiresAt: string | null | undefined): number | null {
  const [now, setNow] = useState(() => Date.now());
  const left = secondsLeft(expiresAt, now);
  useEffect(() => {
    if (left === null || left <= 0) return;
    const timer = setTimeout(() => setNow(Date.now()), 1000);
    return () => clearTimeout(timer);
  }, [left]);
  return left;
}

/** An order's state as a tag. */
export function PayStateTag({ state, testId }: { state: PayOrder['state']; testId?: string }) {
  const { t } = useTranslation('payments');
  return (
    <Tag color={PAY_STATE_COLORS[state]} data-testid={testId} data-state={state}>
      {t(`state.${state}`)}
    </Tag>
  );
}

/** An amount as the locale shows it, and in zh-CN its capital numerals beneath. */
export function AmountText({ fen, testId, strong }: { fen: number; testId?: string; strong?: boolean }) {
  const { i18n } = useTranslation('payments');
  const words = amountInWords(fen, i18n.language);
  return (
    <span className="mq-pay-amount">
      <Typography.Text strong={strong} className={strong ? 'mq-pay-amount-figure' : undefined} data-testid={testId}>
        {formatFen(fen, i18n.language)}
      </Typography.Text>
      {words ? (
        <Typography.Text type="secondary" className="mq-pay-amount-words" data-testid={testId && `${testId}-words`}>
          {words}
        </Typography.Text>
      ) : null}
    </span>
  );
}

/**
 * The order being paid: number, title, whose wallet, amount (in words in zh-CN), state and,
 * while it can expire, the time left.
 */
export function OrderSummary({ order, onExpired }: { order: PayOrder; onExpired?: () => void }) {
  const { t } = useTranslation('payments');
  const left = useSecondsLeft(order.state === 'unpaid' ? order.expiresAt : null);
  const expired = left === 0;
  useEffect(() => {
    if (expired) onExpired?.();
  }, [expired, onExpired]);
  return (
    <Card size="small" className="mq-pay-order" title={t('order.title')} data-testid="pay-order">
      <Descriptions column={{ xs: 1, sm: 1, md: 2 }} size="small">
        <Descriptions.Item label={t('order.no')}>
          <Typography.Text copyable data-testid="pay-order-no">
            {order.no}
          </Typography.Text>
        </Descriptions.Item>
        <Descriptions.Item label={t('order.purpose')}>{t(`purpose.${order.purpose}`)}</Descriptions.Item>
        <Descriptions.Item label={t('order.name')}>
          <span data-testid="pay-order-title">{order.title}</span>
        </Descriptions.Item>
        <Descriptions.Item label={t('order.wallet')}>{order.walletName || order.entName}</Descriptions.Item>
        <Descriptions.Item label={t('order.amount')}>
          <AmountText fen={order.amount} testId="pay-amount" strong />
        </Descriptions.Item>
        <Descriptions.Item label={t('order.state')}>
          <PayStateTag state={order.state} testId="pay-state" />
          {left !== null ? (
            <Typography.Text type={expired ? 'danger' : 'secondary'} data-testid="pay-countdown" role="timer">
              {expired ? t('order.expired') : t('order.expiresIn', { time: formatCountdown(left) })}
            </Typography.Text>
          ) : null}
        </Descriptions.Item>
        <Descriptions.Item label={t('order.createdAt')}>{formatTime(order.createdAt)}</Descriptions.Item>
        {order.paidAt ? (
          <Descriptions.Item label={t('order.paidAt')}>{formatTime(order.paidAt)}</Descriptions.Item>
        ) : null}
      </Descriptions>
    </Card>
  );
}

/** The order id of the page's address (`?id=`), trimmed; '' when absent. */
export function orderIdOf(params: URLSearchParams): string {
  return (params.get('id') ?? '').trim();
}

/** No order in the address, or one that cannot be read: what to do instead. */
export function OrderMissing({ failed, onRetry }: { failed?: boolean; onRetry?: () => void }) {
  const { t } = useTranslation('payments');
  return (
    <Result
      status={failed ? 'error' : 'warning'}
      title={failed ? t('load.failed') : t('load.noOrder')}
      subTitle={failed ? t('load.failedHint') : t('load.noOrderHint')}
      data-testid={failed ? 'pay-load-failed' : 'pay-no-order'}
      extra={[
        failed && onRetry ? (
          <Button key="retry" type="primary" onClick={onRetry} data-testid="pay-retry">
            {t('action.retry')}
          </Button>
        ) : null,
        <LinkButton key="finance" to={FINANCE_HOME}>
          {t('action.toFinance')}
        </LinkButton>,
      ]}
    />
  );
}

/** The page's loading state. */
export function OrderLoading() {
  return (
    <Card size="small" data-testid="pay-loading">
      <Skeleton active />
    </Card>
  );
}

/** A one-line note above a page's content. */
export function PayNote({ children }: { children: React.ReactNode }) {
  return <Alert type="info" showIcon title={children} className="mq-pay-note" />;
}
