import { PlusOutlined, SettingOutlined } from '@ant-design/icons';
import {
  type Endpoints,
  formatFen,
  Perm,
  type Req,
  SALES_ORDER_STATES,
  type SalesOrder,
  type SalesOrderState,
} from '@marquee/protocol';
import { Button, Space, Tabs } from 'antd';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { useCallMutation, useCallQuery } from '../../api/queries';
import { CountLabel } from '../../components/CountLabel';
import { timeColumn } from '../../components/columns';
import { ExportButton } from '../../components/ExportDialog';
import { ListPage, useListPage } from '../../components/listPage';
import { NotForMonitor } from '../../components/MonitorGuard';
import { useCan } from '../../session/useCan';
import { CampaignsTab } from '../rtb/CampaignsTab';
import { PageTabs, useUrlTab } from '../rtb/rtbLook';
import { OrderComposer, useOrdersForSelf } from './OrderComposer';
import { canCancel, cancelRefund, canPay, orderDetailPath } from './orderLogic';
import { SalesSettingsDialog } from './SalesSettingsDialog';
import { formatHours, OrderStateTag, SettlementStateTag } from './salesLook';

/** The cancel confirmation's sentence: what cancelling gives back. */
export function useCancelText() {
  const { t, i18n } = useTranslation('sales');
  return (order: Pick<SalesOrder, 'state' | 'frozenAmount'>) => {
    const r = cancelRefund(order);
    if (r.kind === 'release') return t('order.cancelRelease');
    if (r.kind === 'all') return t('order.cancelRefundAll', { amount: formatFen(r.amount, i18n.language) });
    return t('order.cancelRefundUndelivered', { amount: formatFen(r.frozen, i18n.language) });
  };
}

const TABS = ['orders', 'campaigns'] as const;

/**
 * /operate/order (/slot_order_mag): two tabs kept in the URL (`?tab=`): the airtime orders
 * (OrdersTab, the default) and the RTB campaigns (`?tab=campaigns`, issue 29's CampaignsTab).
 */
export default function OrderListPage() {
  const { t } = useTranslation('rtb');
  const [active, go] = useUrlTab(TABS);
  const header = (
    <PageTabs
      testPrefix="sales-order-page"
      active={active}
      onChange={go}
      items={[
        { key: 'orders', label: t('page.orders') },
        { key: 'campaigns', label: t('page.campaigns') },
      ]}
    />
  );
  return active === 'campaigns' ? <CampaignsTab header={header} /> : <OrdersTab header={header} />;
}

/**
 * The orders tab of /operate/order: the advertisers' airtime orders (sales.orderList) with a
 * tab per state and its count, filters keyword, advertiser (staff) and creation period;
 * columns number, sub-orders, advertiser, goods, period and hours, amounts, state and
 * settlement; row actions by state (pay after a confirmation naming the amount frozen, cancel
 * after one naming what is refunded, open the detail); the Excel export of the filter; New
 * order opens the composer (also from `?compose=1&goodsId=`); managers (salesManage) open the
 * sales settings (SalesSettingsDialog) from the toolbar.
 */
function OrdersTab({ header }: { header: ReactNode }) {
  const { t, i18n } = useTranslation(['sales', 'common']);
  const language = i18n.language;
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const composing = params.get('compose') === '1';
  const composeGoods = params.get('goodsId');
  const [composerKey, setComposerKey] = useState(0);
  const { self } = useOrdersForSelf();
  const advertisers = useCallQuery('salesAdvertiserOptions', {}, { staleTime: 60_000 });
  const cancelText = useCancelText();
  const can = useCan();
  const manage = can(Perm.salesManage);
  const [settingsOpen, setSettingsOpen] = useState(false);

  const setComposing = (open: boolean) => {
    setParams(
      (prev) => {
        const out = new URLSearchParams(prev);
        if (open) out.set('compose', '1');
        else {
          out.delete('compose');
          out.delete('goodsId');
        }
        return out;
      },
      { replace: true },
    );
    if (open) setComposerKey((k) => k + 1);
  };

  const pay = useCallMutation('salesOrderPay', {
    success: (o) => t('order.paidToast', { no: o.no }),
    invalidates: ['finance', 'payments'],
  });
  const cancel = useCallMutation('salesOrderCancel', {
    success: (o) => t('order.cancelledToast', { no: o.no }),
    invalidates: ['finance', 'payments'],
  });

  const list = useListPage({
    id: 'salesOrders',
    endpoint: 'salesOrderList',
    scope: ['state'],
    filters: [
      { key: 'keyword', label: t('order.filter.keyword'), placeholder: t('order.filter.keywordHint'), maxLength: 64 },
      {
        key: 'advertiserId',
        kind: 'select',
        label: t('order.advertiser'),
        placeholder: t('order.filter.all'),
        hidden: self,
        showSearch: true,
        width: 180,
        loading: advertisers.isPending,
        options: (advertisers.data?.data ?? []).map((a) => ({ value: a.id, label: a.name || a.loginName })),
      },
      { key: 'range', kind: 'range', from: 'from', to: 'to', wholeDays: true, label: t('order.createdAt') },
    ],
    request: (filters, page) => ({ page: page.page, size: page.size, ...filters }) as Req<Endpoints['salesOrderList']>,
    columns: [
      {
        prop: 'no',
        label: t('order.no'),
        width: 170,
        slot: (v: string, row) => (
          <Button
            type="link"
            size="small"
            onClick={() => navigate(orderDetailPath(row.id))}
            data-testid={`sales-order-no-${row.id}`}
          >
            {v}
          </Button>
        ),
      },
      { prop: 'subOrders', label: t('order.subOrders'), width: 90, align: 'right' },
      { prop: 'advertiserName', label: t('order.advertiser'), width: 150, ellipsis: true },
      {
        prop: 'goodsName',
        label: t('order.goods'),
        width: 160,
        ellipsis: true,
        slot: (v: string | null) => v ?? t('order.directSlot'),
      },
      {
        prop: 'startDate',
        label: t('order.period'),
        width: 230,
        slot: (_: string, row) => (
          <span>
            {row.startDate} ~ {row.endDate}
            <br />
            <small>{formatHours(row.hours)}</small>
          </span>
        ),
      },
      {
        prop: 'amount',
        label: t('order.amount'),
        width: 120,
        align: 'right',
        slot: (v: number) => formatFen(v, language),
      },
      {
        prop: 'paidAmount',
        label: t('order.paidAmount'),
        width: 120,
        align: 'right',
        slot: (v: number) => formatFen(v, language),
      },
      {
        prop: 'frozenAmount',
        label: t('order.frozenAmount'),
        width: 120,
        align: 'right',
        slot: (v: number) => formatFen(v, language),
      },
      {
        prop: 'state',
        label: t('order.state'),
        width: 110,
        slot: (v: SalesOrderState) => <OrderStateTag state={v} />,
      },
      {
        prop: 'settlementState',
        label: t('order.settlementState'),
        width: 130,
        slot: (v: SalesOrder['settlementState']) => (v ? <SettlementStateTag state={v} /> : '-'),
      },
      timeColumn<SalesOrder>('createdAt', t('order.createdAt')),
    ],
    operations: [
      {
        key: 'open',
        label: t('order.open'),
        handler: (row) => navigate(orderDetailPath(row.id)),
        testId: (row) => `sales-order-open-${row.id}`,
      },
      {
        key: 'pay',
        label: t('order.pay'),
        isShow: canPay,
        notForMonitor: true,
        confirm: (row) => ({
          title: t('order.payConfirm', { no: row.no }),
          description: t('order.payFreezes', { amount: formatFen(row.amount, language) }),
        }),
        handler: (row) => pay.mutateAsync({ id: row.id }),
        testId: (row) => `sales-order-pay-${row.id}`,
      },
      {
        key: 'cancel',
        label: t('order.cancel'),
        isShow: canCancel,
        danger: true,
        notForMonitor: true,
        confirm: (row) => ({ title: t('order.cancelConfirm', { no: row.no }), description: cancelText(row) }),
        handler: (row) => cancel.mutateAsync({ id: row.id, note: '' }),
        testId: (row) => `sales-order-cancel-${row.id}`,
      },
    ],
  });

  const counts = list.query.data?.counts ?? {};
  const all = Object.values(counts).reduce((a, b) => a + b, 0);
  const state = list.state.filters.state ?? '';
  const tabs = (
    <Tabs
      activeKey={state || 'all'}
      onChange={(key) => list.refine({ state: key === 'all' ? undefined : key })}
      data-testid="sales-order-tabs"
      items={[
        { key: 'all', label: <CountLabel text={t('order.tab.all')} count={all} /> },
        ...SALES_ORDER_STATES.map((s) => ({
          key: s,
          label: <CountLabel text={t(`order.states.${s}`)} count={counts[s] ?? 0} testId={`sales-order-tab-${s}`} />,
        })),
      ]}
    />
  );

  return (
    <ListPage
      list={list}
      header={header}
      title={t('order.title')}
      testPrefix="sales-orders"
      above={tabs}
      rowTestId={(row) => `sales-order-row-${row.id}`}
      empty={list.filtered || state ? t('order.emptyFiltered') : t('order.empty')}
      failed={{ description: t('order.loadFailed'), retryLabel: t('order.retry') }}
      showTotal={(total) => t('order.total', { count: total })}
      toolbar={
        <NotForMonitor>
          <Space>
            <Button
              type="primary"
              icon={<PlusOutlined />}
              onClick={() => setComposing(true)}
              data-testid="sales-order-new"
            >
              {t('order.new')}
            </Button>
            {manage ? (
              <Button
                icon={<SettingOutlined />}
                onClick={() => setSettingsOpen(true)}
                data-testid="sales-settings-open"
              >
                {t('settings.button')}
              </Button>
            ) : null}
          </Space>
        </NotForMonitor>
      }
      extra={
        <ExportButton
          ns="sales"
          testId="sales-order-export"
          calls={{
            start: 'salesOrderExportStart',
            status: 'salesOrderExportStatus',
            download: 'salesOrderExportDownload',
          }}
          request={list.request}
        />
      }
    >
      <OrderComposer
        key={composerKey}
        open={composing}
        goodsId={composeGoods}
        onClose={() => setComposing(false)}
        onPlaced={(order) => navigate(orderDetailPath(order.id))}
      />
      <SalesSettingsDialog open={settingsOpen} onClose={() => setSettingsOpen(false)} />
    </ListPage>
  );
}
