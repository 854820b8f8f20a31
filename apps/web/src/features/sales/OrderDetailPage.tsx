import { formatFen, formatTime, Perm, type SubOrder } from '@marquee/protocol';
import {
  Alert,
  Button,
  Card,
  Descriptions,
  Empty,
  Popconfirm,
  Result,
  Skeleton,
  Space,
  Statistic,
  Table,
  Tag,
  Timeline,
  Typography,
} from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useCallMutation, useCallQuery } from '../../api/queries';
import { confirmOkProps } from '../../components/ConfirmAction';
import { NotForMonitor } from '../../components/MonitorGuard';
import { useCan } from '../../session/useCan';
import { statusLook } from '../ads/adLook';
import { ContractDrawDialog, type DrawSubject } from '../contracts/ContractDrawDialog';
import { PayOrderButton } from './OrderComposer';
import { useCancelText } from './OrderListPage';
import { canCancel, canDrawContract, canPay, countdownText, holdLeft, needsMaterials } from './orderLogic';
import { SettlementPanel } from './SettlementPanel';
import { SubOrderMaterialsDialog } from './SubOrderMaterialsDialog';
import { ContractStateTag, formatHours, OrderStateTag, SalesMethodTag } from './salesLook';

/** The time left of an unpaid order's hold, ticking each second. */
function HoldCountdown({ until }: { until: string }) {
  const { t } = useTranslation('sales');
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  const left = holdLeft(until, now);
  return (
    <Alert
      type={left > 0 ? 'warning' : 'error'}
      showIcon
      data-testid="sales-order-hold"
      title={
        left > 0
          ? t('order.holdLeft', { left: countdownText(left), at: formatTime(until) })
          : t('order.holdOver', { at: formatTime(until) })
      }
    />
  );
}

const REVIEW_COLOR: Record<string, string> = {
  pending: 'processing',
  pendingSecond: 'processing',
  passed: 'success',
  failed: 'error',
};

/**
 * /operate/orderDetail?id= : an airtime order (sales.orderInfo): number, state, advertiser,
 * amounts (amount, paid, frozen, refunded), the hold's countdown while unpaid; actions by
 * state (pay, cancel, draw up the contract, open the contract); its sub-orders with their ads
 * and review (materials attached through SubOrderMaterialsDialog); the state timeline; the
 * ledger transfers; the settlement.
 */
export default function OrderDetailPage() {
  const { t, i18n } = useTranslation(['sales', 'ads']);
  const language = i18n.language;
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const id = params.get('id') ?? '';
  const can = useCan();
  const manage = can(Perm.salesManage);
  const cancelText = useCancelText();
  const info = useCallQuery('salesOrderInfo', { id }, { enabled: Boolean(id) });
  const [uploading, setUploading] = useState<SubOrder | null>(null);
  const cancel = useCallMutation('salesOrderCancel', {
    success: (o) => t('order.cancelledToast', { no: o.no }),
    invalidates: ['finance', 'payments', 'ads'],
  });
  const [drawing, setDrawing] = useState<DrawSubject | null>(null);

  if (!id) return <Result status="404" title={t('order.noId')} />;
  if (info.isPending)
    return (
      <div className="mq-view">
        <Skeleton active paragraph={{ rows: 8 }} />
      </div>
    );
  if (!info.data) return <Result status="warning" title={t('order.loadFailed')} />;
  const { order, subOrders, events, transfers } = info.data;

  return (
    <div className="mq-view" data-testid="sales-order-detail">
      <Space orientation="vertical" size={12} style={{ width: '100%' }}>
        <Card
          size="small"
          title={
            <Space wrap>
              <span data-testid="sales-order-detail-no">{t('order.detailTitle', { no: order.no })}</span>
              <OrderStateTag state={order.state} />
              {order.contractState ? <ContractStateTag state={order.contractState} /> : null}
            </Space>
          }
          extra={
            <NotForMonitor>
              <Space wrap>
                {canPay(order) ? <PayOrderButton order={order} /> : null}
                {canCancel(order) ? (
                  <Popconfirm
                    title={t('order.cancelConfirm', { no: order.no })}
                    description={cancelText(order)}
                    okText={t('order.cancel')}
                    cancelText={t('order.back')}
                    okButtonProps={confirmOkProps(true)}
                    onConfirm={() => cancel.mutateAsync({ id: order.id, note: '' }).catch(() => undefined)}
                  >
                    <Button danger data-testid="sales-order-detail-cancel">
                      {t('order.cancel')}
                    </Button>
                  </Popconfirm>
                ) : null}
                {manage && canDrawContract(order) ? (
                  <Button
                    onClick={() => setDrawing({ kind: 'order', id: order.id, no: order.no })}
                    data-testid="sales-order-contract-draw"
                  >
                    {t('order.contractDraw')}
                  </Button>
                ) : null}
                {order.contractState ? (
                  <Link
                    to={`/operate/signContract?keyword=${encodeURIComponent(order.no)}`}
                    data-testid="sales-order-contract-open"
                  >
                    {t('order.contractOpen')}
                  </Link>
                ) : null}
              </Space>
            </NotForMonitor>
          }
        >
          <Space orientation="vertical" size={12} style={{ width: '100%' }}>
            {order.state === 'unpaid' && order.holdUntil ? <HoldCountdown until={order.holdUntil} /> : null}
            {order.state === 'toUpload' ? (
              <Alert type="info" showIcon title={t('order.toUploadHint')} data-testid="sales-order-to-upload" />
            ) : null}
            <Space size={32} wrap>
              <Statistic title={t('order.amount')} value={formatFen(order.amount, language)} />
              <Statistic title={t('order.paidAmount')} value={formatFen(order.paidAmount, language)} />
              <Statistic title={t('order.frozenAmount')} value={formatFen(order.frozenAmount, language)} />
              <Statistic title={t('order.refundedAmount')} value={formatFen(order.refundedAmount, language)} />
            </Space>
            <Descriptions size="small" bordered column={{ xs: 1, md: 2, xl: 3 }}>
              <Descriptions.Item label={t('order.advertiser')}>{order.advertiserName}</Descriptions.Item>
              <Descriptions.Item label={t('order.goods')}>{order.goodsName ?? t('order.directSlot')}</Descriptions.Item>
              <Descriptions.Item label={t('order.period')}>
                {order.startDate} ~ {order.endDate}
              </Descriptions.Item>
              <Descriptions.Item label={t('order.hours')}>{formatHours(order.hours)}</Descriptions.Item>
              <Descriptions.Item label={t('order.listAmount')}>
                {formatFen(order.listAmount, language)}
              </Descriptions.Item>
              <Descriptions.Item label={t('order.coupon')}>{order.couponName ?? '-'}</Descriptions.Item>
              <Descriptions.Item label={t('order.screens')}>{order.screens}</Descriptions.Item>
              <Descriptions.Item label={t('order.createdBy')}>{order.createdBy || '-'}</Descriptions.Item>
              <Descriptions.Item label={t('order.createdAt')}>{formatTime(order.createdAt)}</Descriptions.Item>
              <Descriptions.Item label={t('order.paidAt')}>{formatTime(order.paidAt)}</Descriptions.Item>
              {order.cancelReason ? (
                <Descriptions.Item label={t('order.cancelReason')}>
                  {t(`order.cancelReasons.${order.cancelReason}`)}
                </Descriptions.Item>
              ) : null}
            </Descriptions>
          </Space>
        </Card>

        <Card size="small" title={t('order.subOrdersTitle')}>
          <Table<SubOrder>
            rowKey="id"
            size="small"
            pagination={false}
            scroll={{ x: 1100 }}
            data-testid="sales-suborders"
            dataSource={subOrders}
            columns={[
              { key: 'subNo', dataIndex: 'subNo', title: t('order.subNo'), width: 170 },
              { key: 'slot', dataIndex: 'slotName', title: t('order.slot'), ellipsis: true },
              {
                key: 'method',
                dataIndex: 'salesMethod',
                title: t('order.method'),
                width: 80,
                render: (v: 'cpt' | 'cpm') => <SalesMethodTag method={v} />,
              },
              { key: 'screens', dataIndex: 'screens', title: t('order.screens'), width: 80, align: 'right' },
              {
                key: 'units',
                title: t('order.units'),
                width: 140,
                render: (_: unknown, s) =>
                  s.salesMethod === 'cpm'
                    ? t('composer.unitsCpmShort', { k: s.impressionsK ?? 0 })
                    : t('composer.rotationsShort', { count: s.rotations }),
              },
              {
                key: 'unitPrice',
                dataIndex: 'unitPrice',
                title: t('order.unitPrice'),
                width: 110,
                align: 'right',
                render: (v: number) => formatFen(v, language),
              },
              {
                key: 'amount',
                dataIndex: 'amount',
                title: t('order.amount'),
                width: 120,
                align: 'right',
                render: (v: number) => formatFen(v, language),
              },
              {
                key: 'ad',
                title: t('order.ad'),
                width: 260,
                render: (_: unknown, s) =>
                  s.adId ? (
                    <Space size={4} wrap>
                      <Link
                        to={`/advert?name=${encodeURIComponent(s.adName ?? '')}`}
                        data-testid={`sales-sub-ad-${s.id}`}
                      >
                        {s.adName}
                      </Link>
                      {s.adReviewState ? (
                        <Tag color={REVIEW_COLOR[s.adReviewState] ?? 'default'}>
                          {t(`order.review.${s.adReviewState}`)}
                        </Tag>
                      ) : null}
                      {s.adStatus ? (
                        <Tag color={statusLook(t)(s.adStatus).color}>{statusLook(t)(s.adStatus).text}</Tag>
                      ) : null}
                    </Space>
                  ) : (
                    <Typography.Text type="secondary">{t('order.noAd')}</Typography.Text>
                  ),
              },
              {
                key: 'op',
                title: t('order.operations'),
                width: 140,
                fixed: 'right',
                render: (_: unknown, s) =>
                  needsMaterials(order, s) ? (
                    <NotForMonitor>
                      <Button
                        type="link"
                        size="small"
                        onClick={() => setUploading(s)}
                        data-testid={`sales-sub-upload-${s.id}`}
                      >
                        {s.adId ? t('order.uploadAgain') : t('order.upload')}
                      </Button>
                    </NotForMonitor>
                  ) : null,
              },
            ]}
          />
        </Card>

        <div style={{ display: 'grid', gap: 12, gridTemplateColumns: 'repeat(auto-fit, minmax(360px, 1fr))' }}>
          <Card size="small" title={t('order.timeline')} data-testid="sales-order-timeline">
            {events.length === 0 ? (
              <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} />
            ) : (
              <Timeline
                items={events.map((e, i) => ({
                  key: `${e.at}-${i}`,
                  content: (
                    <div>
                      <OrderStateTag state={e.to} /> {formatTime(e.at)} · {e.actorName || t('order.system')}
                      {e.note ? <div>{e.note}</div> : null}
                    </div>
                  ),
                }))}
              />
            )}
          </Card>
          <Card size="small" title={t('order.transfers')} data-testid="sales-order-transfers">
            <Table
              rowKey="id"
              size="small"
              pagination={false}
              dataSource={transfers}
              locale={{ emptyText: t('order.noTransfers') }}
              columns={[
                { key: 'id', dataIndex: 'id', title: t('order.transferId'), ellipsis: true },
                { key: 'code', dataIndex: 'code', title: t('order.transferCode'), width: 80 },
                {
                  key: 'amount',
                  dataIndex: 'amount',
                  title: t('order.transferAmount'),
                  align: 'right',
                  width: 120,
                  render: (v: number) => formatFen(v, language),
                },
                {
                  key: 'at',
                  dataIndex: 'at',
                  title: t('order.transferAt'),
                  width: 160,
                  render: (v: string) => formatTime(v),
                },
              ]}
            />
          </Card>
        </div>

        {['inProgress', 'settled'].includes(order.state) || order.settlementState ? (
          <SettlementPanel order={order} />
        ) : null}
      </Space>
      <SubOrderMaterialsDialog orderId={order.id} sub={uploading} onClose={() => setUploading(null)} />
      <ContractDrawDialog
        subject={drawing}
        onClose={() => setDrawing(null)}
        onDrawn={(no) => navigate(`/operate/signContract?keyword=${encodeURIComponent(no)}`)}
      />
    </div>
  );
}
