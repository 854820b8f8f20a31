import { COUPON_STATES, type Coupon, type Endpoints, Perm, type Req } from '@marquee/protocol';
import { Button, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCallMutation } from '../../api/queries';
import { AddButton } from '../../components/AddButton';
import { ConfirmAction } from '../../components/ConfirmAction';
import { timeColumn } from '../../components/columns';
import { ListPage, useListPage } from '../../components/listPage';
import { useCan } from '../../session/useCan';
import { CouponDialog } from './CouponDialog';
import { CouponUsesDrawer } from './CouponUsesDrawer';
import { CouponStateTag, discountText } from './salesLook';

/**
 * /operate/coupon (sales.couponList): the enterprise's coupons — name, discount (the spec's
 * 0..1 and as text), limit, used, validity, eligible goods, state; filters keyword and state.
 * Everyone who sees the page opens a coupon's uses (CouponUsesDrawer); managers (salesManage)
 * add and edit coupons (CouponDialog) and enable or disable one after a confirmation.
 */
export default function CouponPage() {
  const { t, i18n } = useTranslation('sales');
  const can = useCan();
  const manage = can(Perm.salesManage);
  const enable = useCallMutation('salesCouponEnable', { success: t('coupon.saved') });
  const [dialog, setDialog] = useState<{ editing: Coupon | null } | null>(null);
  // Kept after closing, so the drawer keeps its content while it slides out.
  const [uses, setUses] = useState<{ coupon: Coupon; open: boolean } | null>(null);
  const list = useListPage({
    id: 'salesCoupons',
    endpoint: 'salesCouponList',
    filters: [
      { key: 'keyword', label: t('coupon.name'), placeholder: t('coupon.keywordHint'), width: 180 },
      {
        key: 'state',
        kind: 'select',
        label: t('coupon.state'),
        placeholder: t('common.all'),
        width: 140,
        options: COUPON_STATES.map((s) => ({ value: s, label: t(`state.coupon.${s}`) })),
      },
    ],
    request: (filters, page) => ({ page: page.page, size: page.size, ...filters }) as Req<Endpoints['salesCouponList']>,
    columns: [
      { prop: 'name', label: t('coupon.name'), width: 180, ellipsis: true },
      {
        prop: 'discount',
        label: t('coupon.discount'),
        width: 150,
        slot: (v: number) => `${v.toFixed(2)} (${discountText(v, i18n.language)})`,
      },
      { prop: 'limit', label: t('coupon.limit'), width: 90, align: 'right' },
      { prop: 'used', label: t('coupon.used'), width: 90, align: 'right' },
      {
        prop: 'validFrom',
        label: t('coupon.validity'),
        width: 200,
        slot: (_: unknown, row: Coupon) => `${row.validFrom} – ${row.validTo}`,
      },
      {
        prop: 'goodsNames',
        label: t('coupon.goods'),
        width: 200,
        ellipsis: true,
        slot: (v: string[]) => (v.length === 0 ? t('coupon.allGoods') : v.join(', ')),
      },
      {
        prop: 'state',
        label: t('coupon.state'),
        width: 110,
        slot: (v: Coupon['state']) => <CouponStateTag state={v} />,
      },
      timeColumn<Coupon>('createdAt', t('coupon.createdAt')),
      {
        prop: 'id',
        label: t('common.actions'),
        width: manage ? 200 : 90,
        slot: (_: unknown, row: Coupon) => (
          <Space size={4}>
            <Button
              type="link"
              size="small"
              onClick={() => setUses({ coupon: row, open: true })}
              data-testid={`sales-coupon-uses-${row.id}`}
            >
              {t('couponUses.action')}
            </Button>
            {manage ? (
              <>
                <Button
                  type="link"
                  size="small"
                  onClick={() => setDialog({ editing: row })}
                  data-testid={`sales-coupon-edit-${row.id}`}
                >
                  {t('common.edit')}
                </Button>
                <ConfirmAction
                  label={row.enabled ? t('coupon.disable') : t('coupon.enable')}
                  title={row.enabled ? t('coupon.disableConfirm') : t('coupon.enableConfirm')}
                  cancelText={t('common.cancel')}
                  danger={row.enabled}
                  testId={`sales-coupon-enable-${row.id}`}
                  onConfirm={() => enable.mutateAsync({ id: row.id, enabled: !row.enabled })}
                />
              </>
            ) : null}
          </Space>
        ),
      },
    ],
  });

  return (
    <ListPage
      list={list}
      title={t('coupon.title')}
      testPrefix="sales-coupons"
      rowTestId={(row) => `sales-coupon-row-${row.id}`}
      empty={list.filtered ? t('coupon.emptyFiltered') : t('coupon.empty')}
      failed={{ description: t('common.loadFailed'), retryLabel: t('common.retry') }}
      showTotal={(total) => t('coupon.total', { count: total })}
      toolbar={
        manage ? (
          <AddButton
            label={t('coupon.add')}
            notForMonitor
            onClick={() => setDialog({ editing: null })}
            testId="sales-coupon-add"
          />
        ) : undefined
      }
    >
      <CouponDialog open={dialog !== null} editing={dialog?.editing ?? null} onClose={() => setDialog(null)} />
      <CouponUsesDrawer
        coupon={uses?.coupon ?? null}
        open={uses?.open ?? false}
        onClose={() => setUses((u) => (u ? { ...u, open: false } : null))}
      />
    </ListPage>
  );
}
