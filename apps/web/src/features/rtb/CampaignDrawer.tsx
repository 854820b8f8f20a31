import { formatFen, formatTime } from '@marquee/protocol';
import { Card, Descriptions, Drawer, Empty, Result, Segmented, Skeleton, Space, Statistic, Table } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCallQuery } from '../../api/queries';
import { formatHours } from '../sales/salesLook';
import { CampaignStateTag, useCpmText } from './rtbLook';

const DeliveryChart = lazy(() => import('./DeliveryChart'));

/**
 * A campaign's detail (rtb.campaignInfo, rtb.campaignDelivery): its settings and budget, the
 * delivery per day or hour (spend as bars, wins and plays as lines) with the totals, and the
 * ledger's transfers of its budget (hold, posts, releases) to reconcile with the wallet.
 */
export function CampaignDrawer({ id, onClose }: { id: string | null; onClose: () => void }) {
  const { t, i18n } = useTranslation(['rtb', 'sales']);
  const language = i18n.language;
  const cpm = useCpmText();
  const [by, setBy] = useState<'day' | 'hour'>('day');
  const info = useCallQuery('rtbCampaignInfo', { id: id ?? '' }, { enabled: Boolean(id) });
  const delivery = useCallQuery(
    'rtbCampaignDelivery',
    { id: id ?? '', by },
    { enabled: Boolean(id), keepPrevious: true },
  );
  const fen = (v: number) => formatFen(v, language);
  const c = info.data?.campaign;

  return (
    <Drawer
      open={id !== null}
      onClose={onClose}
      size={760}
      destroyOnHidden
      title={c ? c.name : t('campaign.detail')}
      data-testid="rtb-campaign-drawer"
    >
      {info.isPending ? (
        <Skeleton active paragraph={{ rows: 8 }} />
      ) : !c || !info.data ? (
        <Result status="warning" title={t('campaign.loadFailed')} />
      ) : (
        <Space orientation="vertical" size={12} style={{ width: '100%' }}>
          <Descriptions size="small" column={2} bordered data-testid="rtb-campaign-facts">
            <Descriptions.Item label={t('campaign.state')}>
              <CampaignStateTag state={c.shownState} />
            </Descriptions.Item>
            <Descriptions.Item label={t('campaign.advertiser')}>{c.advertiserName}</Descriptions.Item>
            <Descriptions.Item label={t('campaign.bidCpm')}>{cpm(c.bidCpm)}</Descriptions.Item>
            <Descriptions.Item label={t('campaign.pacing')}>{t(`pacing.${c.pacing}`)}</Descriptions.Item>
            <Descriptions.Item label={t('campaign.totalBudget')}>{fen(c.totalBudget)}</Descriptions.Item>
            <Descriptions.Item label={t('campaign.dailyBudget')}>
              {c.dailyBudget === null ? t('campaign.noDaily') : fen(c.dailyBudget)}
            </Descriptions.Item>
            <Descriptions.Item label={t('budget.spent')}>{fen(c.spent)}</Descriptions.Item>
            <Descriptions.Item label={t('budget.reserved')}>{fen(c.reserved)}</Descriptions.Item>
            <Descriptions.Item label={t('budget.frozen')}>{fen(c.frozen)}</Descriptions.Item>
            <Descriptions.Item label={t('campaign.ad')}>{c.adName ?? '-'}</Descriptions.Item>
            <Descriptions.Item label={t('campaign.period')} span={2}>
              {c.startDate} ~ {c.endDate} · {formatHours(c.hours)} · {weekdaysText(c.weekdays, t)}
            </Descriptions.Item>
          </Descriptions>

          <Card
            size="small"
            title={delivery.data ? t('delivery.titleIn', { zone: delivery.data.timeZone }) : t('delivery.title')}
            extra={
              <Segmented
                size="small"
                value={by}
                onChange={(v) => setBy(v as 'day' | 'hour')}
                options={[
                  { value: 'day', label: t('delivery.byDay') },
                  { value: 'hour', label: t('delivery.byHour') },
                ]}
                data-testid="rtb-delivery-by"
              />
            }
          >
            {delivery.isPending ? (
              <Skeleton active paragraph={{ rows: 4 }} />
            ) : !delivery.data ? (
              <Result status="warning" title={t('delivery.loadFailed')} />
            ) : (
              <>
                <Space size={32} wrap style={{ marginBottom: 12 }} data-testid="rtb-delivery-totals">
                  <Statistic
                    title={t('delivery.wins')}
                    value={delivery.data.totals.wins}
                    data-testid="rtb-delivery-wins"
                  />
                  <Statistic
                    title={t('delivery.plays')}
                    value={delivery.data.totals.plays}
                    data-testid="rtb-delivery-plays"
                  />
                  <Statistic
                    title={t('delivery.spend')}
                    value={fen(delivery.data.totals.spend)}
                    data-testid="rtb-delivery-spend"
                  />
                </Space>
                {delivery.data.series.length === 0 ? (
                  <Empty description={t('delivery.empty')} />
                ) : (
                  <Suspense fallback={<Skeleton.Node active style={{ width: '100%', height: 240 }} />}>
                    <DeliveryChart series={delivery.data.series} granularity={by} />
                  </Suspense>
                )}
              </>
            )}
          </Card>

          <Card size="small" title={t('transfers.title')} data-testid="rtb-campaign-transfers">
            <Table
              rowKey="id"
              size="small"
              pagination={false}
              dataSource={info.data.transfers}
              onRow={(row) => ({ 'data-testid': `rtb-transfer-${row.code}` }) as object}
              locale={{ emptyText: t('transfers.empty') }}
              columns={[
                { key: 'id', dataIndex: 'id', title: t('transfers.id'), ellipsis: true },
                {
                  key: 'code',
                  dataIndex: 'code',
                  title: t('transfers.code'),
                  width: 110,
                  render: (v: string) => t(`transfers.codes.${v}`, { defaultValue: v }),
                },
                {
                  key: 'amount',
                  dataIndex: 'amount',
                  title: t('transfers.amount'),
                  align: 'right',
                  width: 120,
                  render: (v: number) => fen(v),
                },
                {
                  key: 'at',
                  dataIndex: 'at',
                  title: t('transfers.at'),
                  width: 170,
                  render: (v: string) => formatTime(v),
                },
              ]}
            />
          </Card>
        </Space>
      )}
    </Drawer>
  );
}

/** ISO weekdays (1 = Monday) as the day names; none or all 7: every day. */
export function weekdaysText(days: readonly number[], t: (key: string) => string): string {
  const set = [...new Set(days)].filter((d) => d >= 1 && d <= 7).sort((a, b) => a - b);
  if (set.length === 0 || set.length === 7) return t('weekday.every');
  return set.map((d) => t(`weekday.${d}`)).join(', ');
}
