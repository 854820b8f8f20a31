import { CloudServerOutlined, DesktopOutlined, WifiOutlined } from '@ant-design/icons';
import { formatFen, type MarketKind, type Product } from '@marquee/protocol';
import { Button, Card, Col, Empty, Result, Row, Skeleton, Typography, theme } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useCallQuery } from '../../api/queries';
import { kindText, termText } from './look';
import { detailPath, groupByKind, lowestMonthly, sortedTerms } from './marketLogic';

const KIND_ICONS: Record<MarketKind, ReactNode> = {
  devicePoints: <DesktopOutlined />,
  storagePack: <CloudServerOutlined />,
  dataCard: <WifiOutlined />,
};

/** One product as a card: its name, description, the cheapest price per month, its terms and Buy. */
function ProductCard({ product }: { product: Product }) {
  const { t, i18n } = useTranslation('market');
  const { token } = theme.useToken();
  const navigate = useNavigate();
  const lowest = lowestMonthly(product.prices);
  const terms = sortedTerms(product.prices);
  return (
    <Card
      size="small"
      className="mq-market-product"
      data-testid={`market-product-${product.id}`}
      title={
        <span className="mq-market-product-title">
          {KIND_ICONS[product.kind]} {product.name}
        </span>
      }
      actions={[
        <Button
          key="buy"
          type="primary"
          onClick={() => navigate(detailPath({ id: product.id }))}
          data-testid={`market-buy-${product.id}`}
        >
          {t('shop.buy')}
        </Button>,
      ]}
    >
      <Typography.Paragraph type="secondary" ellipsis={{ rows: 2 }} className="mq-market-product-desc">
        {product.description || kindText(t, product.kind)}
      </Typography.Paragraph>
      {product.kind === 'dataCard' && product.dataMbPerMonth ? (
        <Typography.Text>{t('shop.dataPerMonth', { mb: product.dataMbPerMonth })}</Typography.Text>
      ) : null}
      <div className="mq-market-price" data-testid={`market-price-${product.id}`}>
        {lowest ? (
          <Typography.Text strong style={{ color: token.colorPrimaryText, fontSize: token.fontSizeLG }}>
            {t('shop.fromPerMonth', { price: formatFen(lowest.perMonth, i18n.language) })}
          </Typography.Text>
        ) : (
          <Typography.Text type="secondary">{t('shop.noPrice')}</Typography.Text>
        )}
      </div>
      <Typography.Text type="secondary" className="mq-market-terms">
        {terms.map((p) => `${termText(t, p.months)} ${formatFen(p.price, i18n.language)}`).join(' · ')}
      </Typography.Text>
    </Card>
  );
}

/** The catalogue on sale as cards, grouped by kind (device points, storage packs, IoT data cards). */
export function ShopCatalogue() {
  const { t } = useTranslation('market');
  const list = useCallQuery('marketProductList', { state: 'onSale' });
  if (list.isPending)
    return (
      <Card size="small" data-testid="market-catalogue-loading">
        <Skeleton active paragraph={{ rows: 4 }} />
      </Card>
    );
  if (list.isError && !list.data)
    return (
      <Result
        status="warning"
        title={t('loadFailed')}
        extra={
          <Button onClick={() => list.refetch()} data-testid="market-retry">
            {t('action.retry')}
          </Button>
        }
      />
    );
  const groups = groupByKind(list.data?.data ?? []);
  if (groups.length === 0)
    return (
      <Card size="small">
        <Empty description={t('shop.empty')} data-testid="market-catalogue-empty" />
      </Card>
    );
  return (
    <div className="mq-market-groups" data-testid="market-catalogue">
      {groups.map((g) => (
        <section key={g.kind} className="mq-market-group" data-testid={`market-group-${g.kind}`}>
          <Typography.Title level={5} className="mq-market-group-title">
            {KIND_ICONS[g.kind]} {kindText(t, g.kind)}
          </Typography.Title>
          <Row gutter={[12, 12]}>
            {g.products.map((p) => (
              <Col key={p.id} xs={24} sm={12} xl={8} xxl={6}>
                <ProductCard product={p} />
              </Col>
            ))}
          </Row>
        </section>
      ))}
    </div>
  );
}
