import { formatFen, type OrderLine } from '@marquee/protocol';
import { App, Button, Card, Descriptions, Empty, Modal, Space, Spin, Table, Typography, theme } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { useCallMutation, useCallQuery } from '../../api/queries';
import { NotForMonitor } from '../../components/MonitorGuard';
import { ExpiryChange } from './look';
import { balanceBlock, orderPath, type PurchaseRequest, payPath, requestKey, shortfall } from './marketLogic';
import { useDebounced } from './useDebounced';

/** How long the choices must stay put before the quote is asked for, ms. */
export const QUOTE_DEBOUNCE_MS = 350;

/**
 * The detail page's summary: the quote of what is chosen (market.quote, asked for once the
 * choices settle): each line's expiry before -> after and amount, the total and the wallet's
 * available balance; 'Pay with balance' (after a confirmation showing the total; disabled with
 * the reason when the balance does not cover it, a link to recharge) and 'Other payment' (the
 * order waits, unpaid, to be paid at /pay). Neither acts on a quote of other choices than those shown.
 */
export function QuotePanel({ request, missing }: { request: PurchaseRequest | null; missing: string | null }) {
  const { t, i18n } = useTranslation('market');
  const { token } = theme.useToken();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const language = i18n.language;
  const key = requestKey(request);
  const settledKey = useDebounced(key, QUOTE_DEBOUNCE_MS);
  const settled = settledKey ? (JSON.parse(settledKey) as PurchaseRequest) : null;
  const quote = useCallQuery('marketQuote', settled ?? ({} as PurchaseRequest), {
    enabled: Boolean(settled),
    keepPrevious: true,
    retry: false,
  });
  const [confirming, setConfirming] = useState(false);
  const create = useCallMutation('marketOrderCreate', {
    invalidates: ['finance', 'payments', 'flow', 'devices', 'materials'],
  });

  const current =
    Boolean(request) && settledKey === key && !quote.isFetching && quote.isSuccess && !quote.isPlaceholderData;
  const data = request ? quote.data : undefined;
  const block = current ? balanceBlock(data?.available, data?.amount) : 'noQuote';
  const busy = create.isPending;

  const pay = async (payBy: 'balance' | 'other') => {
    if (!request) return;
    const order = await create.mutateAsync({ ...request, payBy });
    if (payBy === 'balance') {
      void message.success(t('toast.paid', { no: order.no }));
      navigate(orderPath(order.id));
    } else {
      void message.success(t('toast.ordered', { no: order.no }));
      navigate(payPath(order.payOrderId));
    }
  };

  return (
    <Card size="small" title={t('quote.title')} className="mq-market-quote" data-testid="market-quote">
      {!request ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={missing} data-testid="market-quote-missing" />
      ) : !data ? (
        <div className="mq-market-quote-loading">
          <Spin spinning={quote.isFetching || settledKey !== key} />
          {quote.isError ? <Typography.Text type="danger">{t('quote.failed')}</Typography.Text> : null}
        </div>
      ) : (
        <Spin spinning={!current && !quote.isError}>
          <Table<OrderLine & { key: number }>
            rowKey="key"
            size="small"
            className="mq-market-lines"
            data-testid="market-quote-lines"
            dataSource={data.lines.map((line, key) => ({ ...line, key }))}
            pagination={data.lines.length > 5 ? { pageSize: 5, size: 'small', showSizeChanger: false } : false}
            columns={[
              { key: 'subject', dataIndex: 'subjectName', title: t('quote.subject'), ellipsis: true },
              {
                key: 'expiry',
                title: t('quote.expiry'),
                render: (_: unknown, row) => <ExpiryChange t={t} before={row.expiresBefore} after={row.expiresAfter} />,
              },
              {
                key: 'amount',
                dataIndex: 'amount',
                title: t('quote.amount'),
                align: 'right',
                width: 110,
                render: (v: number) => formatFen(v, language),
              },
            ]}
          />
          <Descriptions size="small" column={1} className="mq-market-quote-sums">
            <Descriptions.Item label={t('quote.unitPrice')}>
              {formatFen(data.unitPrice, language)} × {data.quantity}
            </Descriptions.Item>
            <Descriptions.Item label={t('quote.total')}>
              <Typography.Text
                strong
                style={{ color: token.colorPrimaryText, fontSize: token.fontSizeLG }}
                data-testid="market-quote-total"
              >
                {formatFen(data.amount, language)}
              </Typography.Text>
            </Descriptions.Item>
            <Descriptions.Item label={t('quote.available')}>
              <span data-testid="market-quote-available">{formatFen(data.available, language)}</span>
            </Descriptions.Item>
          </Descriptions>
        </Spin>
      )}
      {block === 'insufficient' && data ? (
        <Typography.Paragraph type="danger" data-testid="market-pay-balance-reason" className="mq-market-reason">
          {t('quote.insufficient', { short: formatFen(shortfall(data.available, data.amount), language) })}{' '}
          <Link to="/my/finance" data-testid="market-quote-recharge">
            {t('strip.recharge')}
          </Link>
        </Typography.Paragraph>
      ) : null}
      <NotForMonitor>
        <Space orientation="vertical" className="mq-market-pay">
          <Button
            type="primary"
            block
            disabled={block !== null || busy}
            title={block === 'insufficient' ? t('quote.insufficientShort') : undefined}
            onClick={() => setConfirming(true)}
            data-testid="market-pay-balance"
          >
            {t('quote.payBalance')}
          </Button>
          <Button
            block
            disabled={!current || busy}
            loading={busy && !confirming}
            onClick={() => void pay('other').catch(() => undefined)}
            data-testid="market-pay-other"
          >
            {t('quote.payOther')}
          </Button>
          <Typography.Text type="secondary" className="mq-market-hint">
            {t('quote.otherHint')}
          </Typography.Text>
        </Space>
      </NotForMonitor>
      <Modal
        open={confirming && Boolean(data)}
        title={t('quote.confirmTitle')}
        okText={t('quote.confirmPay')}
        cancelText={t('action.cancel')}
        confirmLoading={busy}
        okButtonProps={{ 'data-testid': 'market-confirm-pay', disabled: !current }}
        cancelButtonProps={{ disabled: busy, 'data-testid': 'market-confirm-cancel' }}
        mask={{ closable: false }}
        onCancel={() => setConfirming(false)}
        onOk={() =>
          pay('balance')
            .then(() => setConfirming(false))
            .catch(() => undefined)
        }
        destroyOnHidden
      >
        {data ? (
          <Typography.Paragraph data-testid="market-confirm-text">
            {t('quote.confirmText', {
              total: formatFen(data.amount, language),
              available: formatFen(data.available, language),
              after: formatFen(data.available - data.amount, language),
            })}
          </Typography.Paragraph>
        ) : null}
      </Modal>
    </Card>
  );
}
