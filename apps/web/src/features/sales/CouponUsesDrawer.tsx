import { type Coupon, type Endpoints, formatFen, formatTime, type Res } from '@marquee/protocol';
import { Drawer, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useCallQuery } from '../../api/queries';
import { orderDetailPath } from './orderLogic';

const PAGE_SIZE = 20;

type CouponUse = Res<Endpoints['salesCouponUses']>['data'][number];

/**
 * A coupon's uses (sales.couponUses), newest first as the server answers, in a drawer opened
 * from the coupon list: the order (its number opens the order), the advertiser, the amount the
 * coupon took off, when it was used, and "given back" when the order was cancelled (the use no
 * longer counts against the limit). Paginated; loading, empty and failed states of its own.
 */
export function CouponUsesDrawer({
  coupon,
  open,
  onClose,
}: {
  coupon: Coupon | null;
  open: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation('sales');
  return (
    <Drawer
      open={open}
      onClose={onClose}
      title={t('couponUses.title', { name: coupon?.name ?? '' })}
      size="large"
      destroyOnHidden
    >
      {/* One list per coupon: another coupon starts at page 1 with nothing of the last one shown. */}
      {coupon ? <UsesList key={coupon.id} coupon={coupon} /> : null}
    </Drawer>
  );
}

function UsesList({ coupon }: { coupon: Coupon }) {
  const { t, i18n } = useTranslation('sales');
  const [page, setPage] = useState(1);
  const uses = useCallQuery('salesCouponUses', { couponId: coupon.id, page, size: PAGE_SIZE }, { keepPrevious: true });
  return (
    <div data-testid="sales-coupon-uses">
      <Typography.Paragraph type="secondary" data-testid="sales-coupon-uses-summary">
        {t('couponUses.summary', { used: coupon.used, limit: coupon.limit })}
      </Typography.Paragraph>
      <Table<CouponUse>
        size="small"
        rowKey="id"
        loading={uses.isFetching}
        dataSource={uses.data?.data ?? []}
        locale={{
          emptyText: uses.isError ? t('common.loadFailed') : uses.isPending ? ' ' : t('couponUses.empty'),
        }}
        pagination={{
          current: page,
          pageSize: PAGE_SIZE,
          total: uses.data?.total ?? 0,
          onChange: setPage,
          showSizeChanger: false,
          hideOnSinglePage: true,
          showTotal: (total) => t('couponUses.total', { count: total }),
        }}
        onRow={(row) => ({ 'data-testid': `sales-coupon-use-${row.id}` }) as React.HTMLAttributes<HTMLElement>}
        columns={[
          {
            key: 'orderNo',
            title: t('couponUses.order'),
            dataIndex: 'orderNo',
            width: 170,
            render: (v: string, row) => <Link to={orderDetailPath(row.orderId)}>{v}</Link>,
          },
          { key: 'advertiser', title: t('couponUses.advertiser'), dataIndex: 'advertiserName', ellipsis: true },
          {
            key: 'saved',
            title: t('couponUses.saved'),
            dataIndex: 'saved',
            width: 120,
            align: 'right',
            render: (v: number) => formatFen(v, i18n.language),
          },
          {
            key: 'usedAt',
            title: t('couponUses.usedAt'),
            dataIndex: 'usedAt',
            width: 170,
            render: (v: string) => formatTime(v),
          },
          {
            key: 'releasedAt',
            title: t('couponUses.state'),
            dataIndex: 'releasedAt',
            width: 170,
            render: (v: string | null) =>
              v ? (
                <span title={t('couponUses.givenBackHint')}>
                  <Tag data-testid="sales-coupon-use-released">{t('couponUses.givenBack')}</Tag>
                  <br />
                  <Typography.Text type="secondary">{formatTime(v)}</Typography.Text>
                </span>
              ) : (
                <Tag color="success">{t('couponUses.counted')}</Tag>
              ),
          },
        ]}
      />
    </div>
  );
}
