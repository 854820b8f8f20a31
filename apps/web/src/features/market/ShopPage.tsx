import { Perm } from '@marquee/protocol';
import { Card, Tabs, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useCan } from '../../session/useCan';
import { CatalogueTab } from './CatalogueTab';
import { ShopCatalogue } from './ShopCatalogue';
import { ShopHeader } from './ShopHeader';
import './market.css';

const SHOP_TABS = ['shop', 'catalogue'] as const;
type ShopTab = (typeof SHOP_TABS)[number];

/**
 * The market (/shop, alias /app_market; issue 27): the wallet's available balance, the storage
 * quota and the devices expiring soon above the catalogue on sale, as cards grouped by kind,
 * each with its cheapest price per month and Buy (-> /shop/detail?id=). The platform operator
 * (Perm.marketManage) also keeps the catalogue in a second tab (`?tab=catalogue`).
 */
export default function ShopPage() {
  const { t } = useTranslation('market');
  const can = useCan();
  const keeper = can(Perm.marketManage);
  const [params, setParams] = useSearchParams();
  const requested = params.get('tab');
  const active: ShopTab = keeper && requested === 'catalogue' ? 'catalogue' : 'shop';

  const shop = (
    <div className="mq-market-shop">
      <ShopHeader />
      <ShopCatalogue />
    </div>
  );

  return (
    <div className="mq-view mq-market" data-testid="market-shop-page">
      <Typography.Title level={4} className="mq-market-title">
        {t('shop.title')}
      </Typography.Title>
      {keeper ? (
        <Card size="small">
          <Tabs
            activeKey={active}
            onChange={(key) => setParams({ tab: key }, { replace: true })}
            destroyOnHidden
            items={[
              { key: 'shop', label: <span data-testid="market-tab-shop">{t('tab.shop')}</span>, children: shop },
              {
                key: 'catalogue',
                label: <span data-testid="market-tab-catalogue">{t('tab.catalogue')}</span>,
                children: <CatalogueTab />,
              },
            ]}
          />
        </Card>
      ) : (
        shop
      )}
    </div>
  );
}
