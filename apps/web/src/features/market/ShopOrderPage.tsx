import { Card, Tabs, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { ItemsTab } from './ItemsTab';
import { OrdersTab } from './OrdersTab';
import { RenewalsTab } from './RenewalsTab';
import './market.css';

const ORDER_TABS = ['orders', 'items', 'renewals'] as const;
type OrderTab = (typeof ORDER_TABS)[number];

/**
 * The market's orders (/shop/order; issue 27): the tabs Orders (`?id=` opens one), My items
 * (what the market keeps alive, with auto-renewal) and Renewals (every attempt and why one
 * failed). The tab is in the URL (`?tab=`); another tab leaves the lists' filters behind.
 */
export default function ShopOrderPage() {
  const { t } = useTranslation('market');
  const [params, setParams] = useSearchParams();
  const requested = params.get('tab');
  const active: OrderTab = (ORDER_TABS as readonly string[]).includes(requested ?? '')
    ? (requested as OrderTab)
    : 'orders';
  const items: { key: OrderTab; label: string; children: ReactNode }[] = [
    { key: 'orders', label: t('tab.orders'), children: <OrdersTab /> },
    { key: 'items', label: t('tab.items'), children: <ItemsTab /> },
    { key: 'renewals', label: t('tab.renewals'), children: <RenewalsTab /> },
  ];
  return (
    <div className="mq-view mq-market" data-testid="market-order-page">
      <Typography.Title level={4} className="mq-market-title">
        {t('order.title')}
      </Typography.Title>
      <Card size="small">
        <Tabs
          activeKey={active}
          onChange={(key) => setParams({ tab: key }, { replace: true })}
          destroyOnHidden
          items={items.map((i) => ({ ...i, label: <span data-testid={`market-tab-${i.key}`}>{i.label}</span> }))}
        />
      </Card>
    </div>
  );
}
