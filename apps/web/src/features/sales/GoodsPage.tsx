import { type Endpoints, GOODS_STATES, type Goods, Perm, type Req } from '@marquee/protocol';
import { Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ListPage, useListPage } from '../../components/listPage';
import { useCan } from '../../session/useCan';
import { formatHours, GoodsStateTag } from './salesLook';

/**
 * /operate/goods (sales.goodsList): the goods — number, name, state, kind, period, hours, slots,
 * orders; filters keyword and state. Advertisers (no salesManage) order on-sale goods: the
 * composer opens on /operate/order?compose=1&goodsId=<id>.
 */
export default function GoodsPage() {
  const { t } = useTranslation('sales');
  const can = useCan();
  const manage = can(Perm.salesManage);
  const navigate = useNavigate();
  const list = useListPage({
    id: 'salesGoods',
    endpoint: 'salesGoodsList',
    filters: [
      { key: 'keyword', label: t('goods.name'), placeholder: t('goods.keywordHint'), width: 180 },
      {
        key: 'state',
        kind: 'select',
        label: t('goods.state'),
        placeholder: t('common.all'),
        width: 130,
        options: GOODS_STATES.map((s) => ({ value: s, label: t(`state.goods.${s}`) })),
      },
    ],
    request: (filters, page) => ({ page: page.page, size: page.size, ...filters }) as Req<Endpoints['salesGoodsList']>,
    columns: [
      { prop: 'number', label: t('goods.number'), width: 110 },
      { prop: 'name', label: t('goods.name'), width: 180, ellipsis: true },
      { prop: 'state', label: t('goods.state'), width: 100, slot: (v: Goods['state']) => <GoodsStateTag state={v} /> },
      { prop: 'kind', label: t('goods.kind'), width: 100, slot: (v: Goods['kind']) => t(`goods.kinds.${v}`) },
      {
        prop: 'startDate',
        label: t('goods.period'),
        width: 200,
        slot: (_: unknown, row: Goods) => `${row.startDate} – ${row.endDate}`,
      },
      { prop: 'hours', label: t('goods.hours'), width: 180, slot: (v: number[]) => formatHours(v) },
      {
        prop: 'lines',
        label: t('goods.slots'),
        width: 200,
        ellipsis: true,
        slot: (v: Goods['lines']) => v.map((l) => l.slotName).join(', '),
      },
      { prop: 'orders', label: t('goods.orders'), width: 90, align: 'right' },
      ...(manage
        ? []
        : [
            {
              prop: 'id',
              label: t('common.actions'),
              width: 100,
              slot: (_: unknown, row: Goods) => (
                <Button
                  type="link"
                  size="small"
                  disabled={row.state !== 'onSale'}
                  data-testid={`sales-goods-order-${row.id}`}
                  onClick={() => navigate(`/operate/order?compose=1&goodsId=${encodeURIComponent(row.id)}`)}
                >
                  {t('goods.order')}
                </Button>
              ),
            },
          ]),
    ],
  });

  return (
    <ListPage
      list={list}
      title={t('goods.title')}
      testPrefix="sales-goods"
      rowTestId={(row) => `sales-goods-row-${row.id}`}
      empty={list.filtered ? t('goods.emptyFiltered') : t('goods.empty')}
      failed={{ description: t('common.loadFailed'), retryLabel: t('common.retry') }}
      showTotal={(total) => t('goods.total', { count: total })}
    />
  );
}
