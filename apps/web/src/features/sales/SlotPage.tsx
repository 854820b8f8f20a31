import { type Endpoints, formatFen, Perm, type Req, SALES_METHODS, type Slot } from '@marquee/protocol';
import { Button, Space, Tag } from 'antd';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCallMutation } from '../../api/queries';
import { AddButton } from '../../components/AddButton';
import { ConfirmAction } from '../../components/ConfirmAction';
import { ListPage, useListPage } from '../../components/listPage';
import { useCan } from '../../session/useCan';
import { AuctionLogTab } from '../rtb/AuctionLogTab';
import { DspTab } from '../rtb/DspTab';
import { FillReportTab } from '../rtb/FillReportTab';
import { PageTabs, useUrlTab } from '../rtb/rtbLook';
import { SlotDialog } from './SlotDialog';
import { SlotRtbDialog } from './SlotRtbDialog';
import { SalesMethodTag } from './salesLook';

const TABS = ['slots', 'auctions', 'fill', 'dsps'] as const;

/**
 * /operate/slot: four tabs kept in the URL (`?tab=`): the ad slots (SlotsTab, the default),
 * and issue 29's programmatic airtime: the auction log (`auctions`), the fill-rate report
 * (`fill`) and the external DSPs (`dsps`).
 */
export default function SlotPage() {
  const { t } = useTranslation('rtb');
  const [active, go] = useUrlTab(TABS);
  const header = (
    <PageTabs
      testPrefix="sales-slot-page"
      active={active}
      onChange={go}
      items={TABS.map((key) => ({ key, label: t(`page.${key}`) }))}
    />
  );
  if (active === 'auctions') return <AuctionLogTab header={header} />;
  if (active === 'fill') return <FillReportTab header={header} />;
  if (active === 'dsps') return <DspTab header={header} />;
  return <SlotsTab header={header} />;
}

/**
 * The slots tab of /operate/slot (sales.slotList): the ad slots — number, name, screen size, resolution, duration,
 * sales method, CPT/CPM price in yuan, max rotations, screens (with the long-offline count), RTB,
 * in use; filters keyword, method, RTB. Managers (salesManage) add and edit slots (SlotDialog),
 * turn RTB on or off with its floor, fallback ad and venue type (SlotRtbDialog) and delete one after a confirmation
 * (SLOT_IN_USE shows the server's message).
 */
function SlotsTab({ header }: { header: ReactNode }) {
  const { t, i18n } = useTranslation('sales');
  const language = i18n.language;
  const can = useCan();
  const manage = can(Perm.salesManage);
  const remove = useCallMutation('salesSlotDelete', { success: t('slot.deleted') });
  const [dialog, setDialog] = useState<{ editing: Slot | null } | null>(null);
  const [rtb, setRtb] = useState<Slot | null>(null);
  const price = (v: number | null) => (v === null ? '-' : formatFen(v, language));
  const list = useListPage({
    id: 'salesSlots',
    endpoint: 'salesSlotList',
    filters: [
      { key: 'keyword', label: t('slot.keyword'), placeholder: t('slot.keywordHint'), width: 180 },
      {
        key: 'salesMethod',
        kind: 'select',
        label: t('slot.method'),
        placeholder: t('common.all'),
        width: 120,
        options: SALES_METHODS.map((m) => ({ value: m, label: t(`method.${m}`) })),
      },
      {
        key: 'rtbEnabled',
        kind: 'select',
        label: t('slot.rtb'),
        placeholder: t('common.all'),
        width: 120,
        param: (v: string) => v === 'true',
        options: [
          { value: 'true', label: t('slot.rtbOn') },
          { value: 'false', label: t('slot.rtbOff') },
        ],
      },
    ],
    request: (filters, page) => ({ page: page.page, size: page.size, ...filters }) as Req<Endpoints['salesSlotList']>,
    columns: [
      { prop: 'number', label: t('slot.number'), width: 110 },
      { prop: 'name', label: t('slot.name'), width: 180, ellipsis: true },
      { prop: 'screenSize', label: t('slot.screenSize'), width: 100 },
      {
        prop: 'width',
        label: t('slot.resolution'),
        width: 120,
        slot: (_: unknown, row: Slot) => `${row.width}×${row.height}`,
      },
      {
        prop: 'durationSec',
        label: t('slot.duration'),
        width: 90,
        align: 'right',
        slot: (v: number) => t('slot.seconds', { count: v }),
      },
      {
        prop: 'salesMethod',
        label: t('slot.method'),
        width: 90,
        slot: (v: Slot['salesMethod']) => <SalesMethodTag method={v} />,
      },
      { prop: 'cptPrice', label: t('slot.cptPrice'), width: 120, align: 'right', slot: price },
      { prop: 'cpmPrice', label: t('slot.cpmPrice'), width: 120, align: 'right', slot: price },
      { prop: 'maxRotations', label: t('slot.maxRotations'), width: 100, align: 'right' },
      {
        prop: 'screens',
        label: t('slot.screens'),
        width: 160,
        slot: (v: number, row: Slot) => (
          <>
            {v}
            {row.longOfflineScreens > 0 && (
              <Tag color="warning" className="mq-sales-offline">
                {t('slot.longOffline', { count: row.longOfflineScreens })}
              </Tag>
            )}
          </>
        ),
      },
      {
        prop: 'rtbEnabled',
        label: t('slot.rtb'),
        width: 140,
        slot: (v: boolean, row: Slot) =>
          v
            ? `${t('slot.rtbOn')} (${row.rtbFloor === null ? '-' : formatFen(row.rtbFloor, language)})`
            : t('slot.rtbOff'),
      },
      {
        prop: 'inUse',
        label: t('slot.inUse'),
        width: 90,
        slot: (v: boolean) => (v ? <Tag color="processing">{t('slot.inUse')}</Tag> : '-'),
      },
      ...(manage
        ? [
            {
              prop: 'id',
              label: t('common.actions'),
              width: 180,
              slot: (_: unknown, row: Slot) => (
                <Space size={4}>
                  <Button
                    type="link"
                    size="small"
                    onClick={() => setDialog({ editing: row })}
                    data-testid={`sales-slot-edit-${row.id}`}
                  >
                    {t('common.edit')}
                  </Button>
                  <Button type="link" size="small" onClick={() => setRtb(row)} data-testid={`sales-slot-rtb-${row.id}`}>
                    {t('rtb.action')}
                  </Button>
                  <ConfirmAction
                    label={t('slot.delete')}
                    title={t('slot.deleteConfirm', { name: row.name })}
                    cancelText={t('common.cancel')}
                    danger
                    testId={`sales-slot-delete-${row.id}`}
                    onConfirm={() => remove.mutateAsync({ id: row.id })}
                  />
                </Space>
              ),
            },
          ]
        : []),
    ],
  });

  return (
    <ListPage
      list={list}
      header={header}
      title={t('slot.title')}
      testPrefix="sales-slots"
      rowTestId={(row) => `sales-slot-row-${row.id}`}
      empty={list.filtered ? t('slot.emptyFiltered') : t('slot.empty')}
      failed={{ description: t('common.loadFailed'), retryLabel: t('common.retry') }}
      showTotal={(total) => t('slot.total', { count: total })}
      toolbar={
        manage ? (
          <AddButton
            label={t('slot.add')}
            notForMonitor
            onClick={() => setDialog({ editing: null })}
            testId="sales-slot-add"
          />
        ) : undefined
      }
    >
      <SlotDialog open={dialog !== null} editing={dialog?.editing ?? null} onClose={() => setDialog(null)} />
      <SlotRtbDialog slot={rtb} onClose={() => setRtb(null)} />
    </ListPage>
  );
}
