import {
  formatFen,
  formatSize,
  MARKET_KINDS,
  MARKET_ORDER_MAX_SUBJECTS,
  type MarketKind,
  type Product,
  RENEWAL_LEAD_DAYS,
  STORAGE_PACK_BYTES,
  STORAGE_PACK_MAX_QUANTITY,
} from '@marquee/protocol';
import { Button, Card, Col, InputNumber, Radio, Result, Row, Skeleton, Space, Switch, Typography } from 'antd';
import { type ReactNode, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { useCallQuery } from '../../api/queries';
import { kindLook, LookTag, termText } from './look';
import { chooseTerm, purchaseOf, quotaAfter, sortedTerms } from './marketLogic';
import { QuotePanel } from './QuotePanel';
import { CardPicker, DevicePicker } from './SubjectPickers';
import './market.css';

/** The storage pack's part: how many packs, and the quota they make. */
function PackQuantity({
  product,
  quantity,
  onChange,
}: {
  product: Product;
  quantity: number | null;
  onChange: (q: number | null) => void;
}) {
  const { t } = useTranslation('market');
  const storage = useCallQuery('marketStorage', {}, { staleTime: 30_000 });
  const packBytes = product.storageBytes ?? STORAGE_PACK_BYTES;
  const quota = storage.data?.quotaBytes;
  return (
    <Space orientation="vertical" size={8} data-testid="market-packs">
      <Space wrap align="center">
        <label htmlFor="market-quantity">{t('pack.quantity')}</label>
        <InputNumber
          id="market-quantity"
          min={1}
          max={STORAGE_PACK_MAX_QUANTITY}
          precision={0}
          value={quantity}
          onChange={(v) => onChange(typeof v === 'number' ? v : null)}
          data-testid="market-quantity"
        />
        <Typography.Text type="secondary">{t('pack.size', { size: formatSize(packBytes) })}</Typography.Text>
      </Space>
      {quota === undefined ? null : (
        <Typography.Text data-testid="market-quota-after">
          {t('pack.quotaAfter', {
            now: formatSize(quota),
            after: formatSize(quotaAfter(quota, quantity ?? 0, packBytes)),
          })}
        </Typography.Text>
      )}
    </Space>
  );
}

/** The product's choices: term, subjects (devices, cards or a quantity), auto-renewal; the quote beside them. */
function Purchase({
  product,
  wantedMonths,
  expiring,
}: {
  product: Product;
  wantedMonths: number | null;
  expiring: boolean;
}) {
  const { t, i18n } = useTranslation('market');
  const [months, setMonths] = useState<number | null>(() => chooseTerm(product.prices, wantedMonths));
  const [deviceIds, setDeviceIds] = useState<string[]>([]);
  const [cardIds, setCardIds] = useState<string[]>([]);
  const [quantity, setQuantity] = useState<number | null>(1);
  const [autoRenew, setAutoRenew] = useState(product.kind === 'devicePoints');
  // The time the expiry warnings count from: the page's opening (a render never reads the clock).
  const [now] = useState(() => Date.now());
  const terms = sortedTerms(product.prices);
  const purchase = purchaseOf({ product, months, deviceIds, cardIds, quantity, autoRenew });
  const missing = purchase.ok
    ? null
    : purchase.reason === 'nothing'
      ? t(`detail.missing.nothing.${product.kind}`)
      : t(`detail.missing.${purchase.reason}`, { max: MARKET_ORDER_MAX_SUBJECTS, maxPacks: STORAGE_PACK_MAX_QUANTITY });

  return (
    <Row gutter={[12, 12]}>
      <Col xs={24} xl={16}>
        <Space orientation="vertical" size={12} className="mq-market-detail-main">
          <Card size="small" title={t('detail.term')}>
            {terms.length === 0 ? (
              <Typography.Text type="secondary">{t('shop.noPrice')}</Typography.Text>
            ) : (
              <Radio.Group
                value={months}
                onChange={(e) => setMonths(e.target.value as number)}
                optionType="button"
                buttonStyle="solid"
                aria-label={t('detail.term')}
                className="mq-market-terms-radio"
              >
                {terms.map((p) => (
                  <Radio.Button key={p.months} value={p.months} data-testid={`market-term-${p.months}`}>
                    {termText(t, p.months)} · {formatFen(p.price, i18n.language)}
                  </Radio.Button>
                ))}
              </Radio.Group>
            )}
          </Card>
          <Card size="small" title={t(`detail.subjects.${product.kind}`)}>
            {product.kind === 'devicePoints' ? (
              <DevicePicker selected={deviceIds} onChange={setDeviceIds} initialExpiring={expiring} now={now} />
            ) : product.kind === 'dataCard' ? (
              <CardPicker selected={cardIds} onChange={setCardIds} now={now} />
            ) : (
              <PackQuantity product={product} quantity={quantity} onChange={setQuantity} />
            )}
          </Card>
          <Card size="small">
            <Space align="start">
              <Switch
                checked={autoRenew}
                onChange={setAutoRenew}
                aria-label={t('autoRenew.label')}
                data-testid="market-autorenew"
              />
              <div>
                <Typography.Text strong>{t('autoRenew.label')}</Typography.Text>
                <br />
                <Typography.Text type="secondary">{t('autoRenew.hint', { days: RENEWAL_LEAD_DAYS })}</Typography.Text>
              </div>
            </Space>
          </Card>
        </Space>
      </Col>
      <Col xs={24} xl={8}>
        <div className="mq-market-quote-col">
          <QuotePanel request={purchase.ok ? purchase.request : null} missing={missing} />
        </div>
      </Col>
    </Row>
  );
}

/**
 * A product to buy (/shop/detail?id=<productId>; ?kind= without an id: the first product on sale
 * of that kind, ?expiring=1: the devices expiring soon first): its term, what it applies to
 * (devices to license, IoT cards to give the package, a number of storage packs), auto-renewal,
 * and the quote with the two ways to pay.
 */
export default function ShopDetailPage() {
  const { t } = useTranslation('market');
  const [params] = useSearchParams();
  const id = params.get('id') ?? '';
  const kindParam = params.get('kind');
  const kind = (MARKET_KINDS as readonly string[]).includes(kindParam ?? '') ? (kindParam as MarketKind) : undefined;
  const wantedMonths = Number(params.get('months')) || null;
  const expiring = params.get('expiring') === '1';
  const info = useCallQuery('marketProductInfo', { id }, { enabled: Boolean(id) });
  const ofKind = useCallQuery('marketProductList', { kind, state: 'onSale' }, { enabled: !id && Boolean(kind) });
  const product = useMemo(() => (id ? info.data : ofKind.data?.data[0]), [id, info.data, ofKind.data]);
  const loading = id ? info.isPending : kind ? ofKind.isPending : false;
  const failed = id ? info.isError : kind ? ofKind.isError : false;

  const back = (
    <Link to="/shop" data-testid="market-back">
      {t('detail.back')}
    </Link>
  );

  let body: ReactNode;
  if (!id && !kind)
    body = <Result status="info" title={t('detail.choose')} extra={back} data-testid="market-detail-choose" />;
  else if (loading)
    body = (
      <Card size="small">
        <Skeleton active paragraph={{ rows: 6 }} />
      </Card>
    );
  else if (!product)
    body = (
      <Result
        status="warning"
        title={failed ? t('detail.notFound') : t('detail.noneOfKind')}
        extra={
          <Space>
            {back}
            {failed ? (
              <Button onClick={() => (id ? info.refetch() : ofKind.refetch())} data-testid="market-retry">
                {t('action.retry')}
              </Button>
            ) : null}
          </Space>
        }
        data-testid="market-detail-missing"
      />
    );
  else
    body = (
      <>
        <Card size="small" className="mq-market-detail-head" data-testid={`market-detail-${product.id}`}>
          <Space orientation="vertical" size={4}>
            <Space wrap>
              <Typography.Title level={4} className="mq-market-title">
                {product.name}
              </Typography.Title>
              <LookTag look={kindLook(t)(product.kind)} />
              {product.state === 'offShelf' ? (
                <Typography.Text type="danger">{t('detail.offShelf')}</Typography.Text>
              ) : null}
            </Space>
            {product.description ? <Typography.Text type="secondary">{product.description}</Typography.Text> : null}
            {product.dataMbPerMonth ? (
              <Typography.Text>{t('shop.dataPerMonth', { mb: product.dataMbPerMonth })}</Typography.Text>
            ) : null}
          </Space>
        </Card>
        <Purchase key={product.id} product={product} wantedMonths={wantedMonths} expiring={expiring} />
      </>
    );

  return (
    <div className="mq-view mq-market" data-testid="market-detail-page">
      <div className="mq-market-crumbs">{back}</div>
      {body}
    </div>
  );
}
