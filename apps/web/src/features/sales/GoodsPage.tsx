import { type Endpoints, GOODS_STATES, type Goods, Perm, type Req } from '@marquee/protocol';
import { Button, Space, Tooltip } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useCallMutation } from '../../api/queries';
import { AddButton } from '../../components/AddButton';
import { ConfirmAction } from '../../components/ConfirmAction';
import { ListPage, useListPage } from '../../components/listPage';
import { useCan } from '../../session/useCan';
import { GoodsDialog } from './GoodsDialog';
import { formatHours, GoodsStateTag } from './salesLook';

/**
 * /operate/goods (sales.goodsList): the goods — number, name, state, kind, period, hours, slots,
 * orders; filters keyword and state. Managers (salesManage) add and edit goods off shelf
 * (GoodsDialog), put them on sale or take them off shelf, and delete them, each after a
 * confirmation. Advertisers (no salesManage) order on-sale goods: the composer opens on
 * /operate/order?compose=1&goodsId=<id>.
 */
export default function GoodsPage() {
  const { t } = useTranslation('sales');
  const can = useCan();
  const manage = can(Perm.salesManage);
  const navigate = useNavigate();
  const [dialog, setDialog] = useState<{ editing: Goods | null } | null>(null);
  const shelf = useCallMutation('salesGoodsShelf', {
    success: (g) => (g.state === 'offShelf' ? t('goods.takenOff') : t('goods.putOn')),
  });
  const remove = useCallMutation('salesGoodsDelete', { success: t('goods.deleted') });
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
        ? [
            {
              prop: 'id',
              label: t('common.actions'),
              width: 220,
              slot: (_: unknown, row: Goods) => {
                const off = row.state === 'offShelf';
                return (
                  <Space size={4}>
                    <Tooltip title={off ? undefined : t('goods.onSaleHint')}>
                      <Button
                        type="link"
                        size="small"
                        disabled={!off}
                        onClick={() => setDialog({ editing: row })}
                        data-testid={`sales-goods-edit-${row.id}`}
                      >
                        {t('common.edit')}
                      </Button>
                    </Tooltip>
                    <ConfirmAction
                      label={off ? t('goods.putOnSale') : t('goods.takeOff')}
                      title={
                        off
                          ? t('goods.putOnSaleConfirm', { name: row.name })
                          : t('goods.takeOffConfirm', { name: row.name })
                      }
                      cancelText={t('common.cancel')}
                      danger={!off}
                      testId={`sales-goods-shelf-${row.id}`}
                      onConfirm={() => shelf.mutateAsync({ id: row.id, onSale: off })}
                    />
                    {off ? (
                      <ConfirmAction
                        label={t('goods.delete')}
                        title={t('goods.deleteConfirm', { name: row.name })}
                        cancelText={t('common.cancel')}
                        danger
                        testId={`sales-goods-delete-${row.id}`}
                        onConfirm={() => remove.mutateAsync({ id: row.id })}
                      />
                    ) : null}
                  </Space>
                );
              },
            },
          ]
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
      toolbar={
        manage ? (
          <AddButton
            label={t('goods.add')}
            notForMonitor
            onClick={() => setDialog({ editing: null })}
            testId="sales-goods-add"
          />
        ) : undefined
      }
    >
      <GoodsDialog open={dialog !== null} editing={dialog?.editing ?? null} onClose={() => setDialog(null)} />
    </ListPage>
  );
}
