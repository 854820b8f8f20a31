import {
  type Endpoints,
  formatFen,
  formatTime,
  type Req,
  RTB_AUCTION_STATES,
  RTB_WINNER_KINDS,
  type RtbAuction,
  type RtbAuctionState,
} from '@marquee/protocol';
import { Button, Descriptions, Drawer, Result, Skeleton, Space, Table, Tag } from 'antd';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCallQuery } from '../../api/queries';
import { timeColumn } from '../../components/columns';
import { ListPage, useListPage } from '../../components/listPage';
import { AuctionStateTag, OutcomeTag, useCpmText } from './rtbLook';

/**
 * /operate/slot?tab=auctions: the RTB auction log (rtb.auctionList), one row per decided turn,
 * filtered by slot, state, winner kind and time; columns turn time, slot, screen, floor,
 * bidders / bids / timeouts, winner, clearing CPM, price and state. A row opens its bids
 * (rtb.auctionInfo) in a drawer.
 */
export function AuctionLogTab({ header }: { header?: ReactNode }) {
  const { t, i18n } = useTranslation('rtb');
  const language = i18n.language;
  const cpm = useCpmText();
  const [open, setOpen] = useState<string | null>(null);
  // The slot list is this page's own read (operateSlot); the slot options are the goods editors'.
  const slots = useCallQuery('salesSlotList', { page: 1, size: 500 } as Req<Endpoints['salesSlotList']>, {
    staleTime: 60_000,
  });
  const list = useListPage({
    id: 'rtbAuctions',
    endpoint: 'rtbAuctionList',
    filters: [
      {
        key: 'slotId',
        kind: 'select',
        label: t('auction.slot'),
        placeholder: t('all'),
        showSearch: true,
        width: 180,
        loading: slots.isPending,
        options: (slots.data?.data ?? []).map((s) => ({ value: s.id, label: s.name })),
      },
      {
        key: 'state',
        kind: 'select',
        label: t('auction.state'),
        placeholder: t('all'),
        width: 130,
        options: RTB_AUCTION_STATES.map((s) => ({ value: s, label: t(`auction.states.${s}`) })),
      },
      {
        key: 'winnerKind',
        kind: 'select',
        label: t('auction.winnerKind'),
        placeholder: t('all'),
        width: 130,
        options: RTB_WINNER_KINDS.map((k) => ({ value: k, label: t(`kind.${k}`) })),
      },
      { key: 'range', kind: 'range', from: 'from', to: 'to', time: true, label: t('auction.turnAt') },
    ],
    request: (filters, page) =>
      ({ page: page.page, pageSize: page.size, ...filters }) as Req<Endpoints['rtbAuctionList']>,
    columns: [
      {
        prop: 'turnAt',
        label: t('auction.turnAt'),
        width: 180,
        slot: (v: string, row) => (
          <Button type="link" size="small" onClick={() => setOpen(row.id)} data-testid={`rtb-auction-open-${row.id}`}>
            {formatTime(v)}
          </Button>
        ),
      },
      { prop: 'slotName', label: t('auction.slot'), width: 150, ellipsis: true },
      { prop: 'deviceName', label: t('auction.screen'), width: 150, ellipsis: true },
      { prop: 'floorCpm', label: t('auction.floor'), width: 120, align: 'right', slot: (v: number) => cpm(v) },
      {
        prop: 'bidders',
        label: t('auction.biddersBidsTimeouts'),
        width: 150,
        align: 'right',
        slot: (_: number, row) => `${row.bidders} / ${row.bids} / ${row.timeouts}`,
      },
      {
        prop: 'winnerName',
        label: t('auction.winner'),
        width: 170,
        ellipsis: true,
        slot: (v: string | null, row) =>
          v ? (
            <Space size={4}>
              {row.winnerKind ? <Tag>{t(`kind.${row.winnerKind}`)}</Tag> : null}
              {v}
            </Space>
          ) : (
            t('auction.noWinner')
          ),
      },
      {
        prop: 'clearingCpm',
        label: t('auction.clearingCpm'),
        width: 120,
        align: 'right',
        slot: (v: number | null) => cpm(v),
      },
      {
        prop: 'price',
        label: t('auction.price'),
        width: 100,
        align: 'right',
        slot: (v: number | null) => (v === null ? '-' : formatFen(v, language)),
      },
      {
        prop: 'state',
        label: t('auction.state'),
        width: 110,
        slot: (v: RtbAuctionState) => <AuctionStateTag state={v} />,
      },
      timeColumn<RtbAuction>('decidedAt', t('auction.decidedAt'), { show: false }),
    ],
  });

  return (
    <ListPage
      list={list}
      header={header}
      title={t('auction.title')}
      testPrefix="rtb-auctions"
      rowTestId={(row) => `rtb-auction-row-${row.id}`}
      onRow={(row) => ({ onClick: () => setOpen(row.id), style: { cursor: 'pointer' } })}
      empty={list.filtered ? t('auction.emptyFiltered') : t('auction.empty')}
      failed={{ description: t('loadFailed'), retryLabel: t('retry') }}
      showTotal={(total) => t('auction.total', { count: total })}
    >
      <AuctionDrawer id={open} onClose={() => setOpen(null)} />
    </ListPage>
  );
}

/** One auction's facts and its bids: bidder, kind, CPM, outcome (with why), time taken and note. */
export function AuctionDrawer({ id, onClose }: { id: string | null; onClose: () => void }) {
  const { t, i18n } = useTranslation('rtb');
  const cpm = useCpmText();
  const info = useCallQuery('rtbAuctionInfo', { id: id ?? '' }, { enabled: Boolean(id) });
  const a = info.data?.auction;
  return (
    <Drawer
      open={id !== null}
      onClose={onClose}
      size={720}
      destroyOnHidden
      title={t('auction.drawerTitle')}
      data-testid="rtb-auction-drawer"
    >
      {info.isPending ? (
        <Skeleton active paragraph={{ rows: 6 }} />
      ) : !a || !info.data ? (
        <Result status="warning" title={t('auction.loadFailed')} />
      ) : (
        <Space orientation="vertical" size={12} style={{ width: '100%' }}>
          <Descriptions size="small" column={2} bordered>
            <Descriptions.Item label={t('auction.turnAt')}>{formatTime(a.turnAt)}</Descriptions.Item>
            <Descriptions.Item label={t('auction.duration')}>
              {t('auction.seconds', { count: a.durationSec })}
            </Descriptions.Item>
            <Descriptions.Item label={t('auction.slot')}>{a.slotName}</Descriptions.Item>
            <Descriptions.Item label={t('auction.screen')}>{a.deviceName}</Descriptions.Item>
            <Descriptions.Item label={t('auction.floor')}>{cpm(a.floorCpm)}</Descriptions.Item>
            <Descriptions.Item label={t('auction.qty')}>
              {t(`auction.qtySource.${a.qtySource}`, { qty: a.qty })}
            </Descriptions.Item>
            <Descriptions.Item label={t('auction.clearingCpm')}>{cpm(a.clearingCpm)}</Descriptions.Item>
            <Descriptions.Item label={t('auction.price')}>
              {a.price === null ? '-' : formatFen(a.price, i18n.language)}
            </Descriptions.Item>
            <Descriptions.Item label={t('auction.state')}>
              <AuctionStateTag state={a.state} />
            </Descriptions.Item>
            <Descriptions.Item label={t('auction.billedAt')}>{formatTime(a.billedAt)}</Descriptions.Item>
          </Descriptions>
          <Table
            rowKey="key"
            size="small"
            pagination={false}
            dataSource={info.data.bids.map((b, i) => ({ ...b, key: i }))}
            data-testid="rtb-auction-bids"
            locale={{ emptyText: t('auction.noBids') }}
            onRow={(b) => ({ 'data-testid': `rtb-bid-${b.bidderId}` }) as object}
            columns={[
              { key: 'bidder', dataIndex: 'bidder', title: t('bid.bidder'), ellipsis: true },
              {
                key: 'kind',
                dataIndex: 'kind',
                title: t('bid.kind'),
                width: 100,
                render: (v: string) => t(`kind.${v}`),
              },
              {
                key: 'cpm',
                dataIndex: 'cpm',
                title: t('bid.cpm'),
                width: 120,
                align: 'right',
                render: (v: number | null) => cpm(v),
              },
              {
                key: 'outcome',
                dataIndex: 'outcome',
                title: t('bid.outcome'),
                width: 150,
                render: (_: unknown, b) => <OutcomeTag outcome={b.outcome} />,
              },
              {
                key: 'ms',
                dataIndex: 'ms',
                title: t('bid.ms'),
                width: 80,
                align: 'right',
                render: (v: number | null) => (v === null ? '-' : t('bid.msValue', { ms: v })),
              },
              {
                key: 'note',
                dataIndex: 'note',
                title: t('bid.note'),
                ellipsis: true,
                render: (v: string | null) => v ?? '-',
              },
            ]}
          />
        </Space>
      )}
    </Drawer>
  );
}
