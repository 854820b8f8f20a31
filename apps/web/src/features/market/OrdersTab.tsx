import {
  type Endpoints,
  formatFen,
  formatTime,
  MARKET_KINDS,
  MARKET_ORDER_SOURCES,
  MARKET_ORDER_STATES,
  type MarketOrder,
  type OrderLine,
  type Req,
} from '@marquee/protocol';
import { Alert, Button, Descriptions, Drawer, Skeleton, Space, Table } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useCallMutation, useCallQuery } from '../../api/queries';
import { tagColumn, timeColumn } from '../../components/columns';
import { ListPage, useListPage } from '../../components/listPage';
import { ExpiryChange, kindLook, LookTag, orderStateLook, sourceLook, termText } from './look';
import { orderOpen, orderShownState, payPath } from './marketLogic';

/** One order: its figures and lines (each subject's expiry before -> after and amount), the ledger link once paid. */
function OrderDrawer({ id, onClose }: { id: string; onClose: () => void }) {
  const { t, i18n } = useTranslation('market');
  const language = i18n.language;
  const navigate = useNavigate();
  const info = useCallQuery('marketOrderInfo', { id }, { enabled: Boolean(id) });
  const order = info.data?.order;
  return (
    <Drawer
      open={Boolean(id)}
      onClose={onClose}
      title={order ? t('order.detailTitle', { no: order.no }) : t('order.detail')}
      size="large"
      destroyOnHidden
      data-testid="market-order-drawer"
      extra={
        order && orderOpen(order) ? (
          <Button
            type="primary"
            onClick={() => navigate(payPath(order.payOrderId))}
            data-testid="market-order-drawer-pay"
          >
            {t('order.pay')}
          </Button>
        ) : null
      }
    >
      {!order ? (
        <Skeleton active={info.isPending} paragraph={{ rows: 6 }} />
      ) : (
        <Space orientation="vertical" size={16} style={{ width: '100%' }}>
          {order.state === 'unpaid' && order.payState === 'review' ? (
            <Alert type="info" showIcon title={t('order.underReview')} />
          ) : null}
          <Descriptions size="small" column={{ xs: 1, md: 2 }} bordered>
            <Descriptions.Item label={t('order.no')}>{order.no}</Descriptions.Item>
            <Descriptions.Item label={t('order.state')}>
              <LookTag look={orderStateLook(t)(orderShownState(order))} />
            </Descriptions.Item>
            <Descriptions.Item label={t('order.product')}>
              {order.productName} <LookTag look={kindLook(t)(order.kind)} />
            </Descriptions.Item>
            <Descriptions.Item label={t('order.term')}>{termText(t, order.months)}</Descriptions.Item>
            <Descriptions.Item label={t('order.unitPrice')}>{formatFen(order.unitPrice, language)}</Descriptions.Item>
            <Descriptions.Item label={t('order.quantity')}>{order.quantity}</Descriptions.Item>
            <Descriptions.Item label={t('order.amount')}>
              <span data-testid="market-order-amount">{formatFen(order.amount, language)}</span>
            </Descriptions.Item>
            <Descriptions.Item label={t('order.source')}>
              <LookTag look={sourceLook(t)(order.source)} />
            </Descriptions.Item>
            <Descriptions.Item label={t('order.payMethod')}>
              {order.payMethod ? t(`payMethod.${order.payMethod}`) : '-'}
            </Descriptions.Item>
            <Descriptions.Item label={t('order.createdBy')}>{order.createdBy || '-'}</Descriptions.Item>
            <Descriptions.Item label={t('order.createdAt')}>{formatTime(order.createdAt)}</Descriptions.Item>
            <Descriptions.Item label={t('order.paidAt')}>{formatTime(order.paidAt)}</Descriptions.Item>
            {order.cancelledAt ? (
              <Descriptions.Item label={t('order.cancelledAt')}>{formatTime(order.cancelledAt)}</Descriptions.Item>
            ) : null}
          </Descriptions>
          <Table<OrderLine & { key: number }>
            rowKey="key"
            size="small"
            data-testid="market-order-lines"
            dataSource={(info.data?.lines ?? []).map((line, key) => ({ ...line, key }))}
            pagination={(info.data?.lines.length ?? 0) > 10 ? { pageSize: 10, showSizeChanger: false } : false}
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
                width: 120,
                render: (v: number) => formatFen(v, language),
              },
            ]}
          />
          {order.state === 'paid' ? (
            <Link to="/my/finance?tab=movements" data-testid="market-order-ledger">
              {t('order.ledger')}
            </Link>
          ) : null}
        </Space>
      )}
    </Drawer>
  );
}

/**
 * The Orders tab (market.orderList): number, product, term, quantity, amount, source
 * (purchase or renewal), state ('under review' while an offline transfer is checked), created
 * and paid times; filters state, kind, source, time range and keyword. Detail opens a drawer
 * (`?id=` in the URL); an unpaid order is paid at /pay or cancelled after a confirmation.
 */
export function OrdersTab() {
  const { t, i18n } = useTranslation(['market', 'common']);
  const language = i18n.language;
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const openId = params.get('id') ?? '';
  const setOpen = (id: string | null) =>
    setParams(
      (prev) => {
        const out = new URLSearchParams(prev);
        if (id) out.set('id', id);
        else out.delete('id');
        return out;
      },
      { replace: true },
    );
  const cancel = useCallMutation('marketOrderCancel', {
    success: (answer) => t('toast.cancelled', { no: answer.no }),
    invalidates: ['payments', 'finance'],
  });
  const list = useListPage({
    id: 'marketOrders',
    endpoint: 'marketOrderList',
    filters: [
      { key: 'keyword', label: t('filter.keyword'), placeholder: t('filter.orderKeyword'), maxLength: 64 },
      {
        key: 'state',
        kind: 'select',
        label: t('filter.state'),
        placeholder: t('filter.all'),
        width: 120,
        options: MARKET_ORDER_STATES.map((s) => ({ value: s, label: t(`orderState.${s}`) })),
      },
      {
        key: 'kind',
        kind: 'select',
        label: t('filter.kind'),
        placeholder: t('filter.all'),
        width: 140,
        options: MARKET_KINDS.map((k) => ({ value: k, label: t(`kind.${k}`) })),
      },
      {
        key: 'source',
        kind: 'select',
        label: t('filter.source'),
        placeholder: t('filter.all'),
        width: 120,
        options: MARKET_ORDER_SOURCES.map((s) => ({ value: s, label: t(`source.${s}`) })),
      },
      { key: 'range', kind: 'range', from: 'from', to: 'to', time: true, label: t('filter.createdAt') },
    ],
    request: (filters, page) => ({ page: page.page, size: page.size, ...filters }) as Req<Endpoints['marketOrderList']>,
    columns: [
      {
        prop: 'no',
        label: t('order.no'),
        width: 190,
        slot: (v: string, row) => (
          <Button
            type="link"
            size="small"
            className="mq-market-link"
            onClick={() => setOpen(row.id)}
            data-testid="market-order-no"
          >
            {v}
          </Button>
        ),
      },
      { prop: 'productName', label: t('order.product'), width: 180, ellipsis: true },
      tagColumn<MarketOrder>('kind', t('order.kind'), kindLook(t), { width: 120, show: false }),
      { prop: 'months', label: t('order.term'), width: 100, slot: (v: number) => termText(t, v) },
      { prop: 'quantity', label: t('order.quantity'), width: 80, align: 'right' },
      {
        prop: 'amount',
        label: t('order.amount'),
        width: 130,
        align: 'right',
        slot: (v: number) => formatFen(v, language),
      },
      tagColumn<MarketOrder>('source', t('order.source'), sourceLook(t), { width: 100 }),
      {
        prop: 'state',
        label: t('order.state'),
        width: 110,
        slot: (_: string, row) => <LookTag look={orderStateLook(t)(orderShownState(row))} />,
      },
      timeColumn<MarketOrder>('createdAt', t('order.createdAt')),
      timeColumn<MarketOrder>('paidAt', t('order.paidAt')),
    ],
    operations: [
      {
        key: 'detail',
        label: t('order.detail'),
        handler: (row) => setOpen(row.id),
        testId: (row) => `market-order-detail-${row.id}`,
      },
      {
        key: 'pay',
        label: t('order.pay'),
        isShow: orderOpen,
        handler: (row) => navigate(payPath(row.payOrderId)),
        notForMonitor: true,
        testId: (row) => `market-order-pay-${row.id}`,
      },
      {
        key: 'cancel',
        label: t('order.cancel'),
        isShow: orderOpen,
        danger: true,
        notForMonitor: true,
        confirm: (row) => ({ title: t('order.cancelConfirm', { no: row.no }), description: t('order.cancelHint') }),
        handler: (row) => cancel.mutateAsync({ id: row.id }),
        testId: (row) => `market-order-cancel-${row.id}`,
      },
    ],
  });

  return (
    <ListPage
      list={list}
      bare
      testPrefix="market-orders"
      rowTestId={(row) => `market-order-row-${row.id}`}
      empty={list.filtered ? t('order.emptyFiltered') : t('order.empty')}
      failed={{ description: t('loadFailed'), retryLabel: t('action.retry') }}
      showTotal={(total) => t('order.total', { count: total })}
    >
      <OrderDrawer id={openId} onClose={() => setOpen(null)} />
    </ListPage>
  );
}
