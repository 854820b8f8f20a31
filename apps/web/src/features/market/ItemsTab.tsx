import {
  type Endpoints,
  EXPIRING_DEVICE_DAYS,
  formatFen,
  ITEM_STATES,
  MARKET_KINDS,
  type MarketItem,
  type Req,
} from '@marquee/protocol';
import { Button, Popconfirm, Space, Switch, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCallMutation } from '../../api/queries';
import { confirmOkProps } from '../../components/ConfirmAction';
import { tagColumn } from '../../components/columns';
import { ListPage, useListPage } from '../../components/listPage';
import { NotForMonitor, useIsMonitor } from '../../components/MonitorGuard';
import { day, ExpiryText, failureText, itemStateLook, kindLook, LookTag, outcomeLook, termText } from './look';

/**
 * The My items tab (market.itemList): what the market keeps alive for the enterprise (device
 * licences, storage packs, card packages), soonest expiry first: kind, subject, product, term,
 * expiry ('expires in N days' under 15 days), state, the auto-renewal switch of each row and
 * for the rows chosen (market.itemAutoRenew), and the last renewal's outcome with its reason.
 */
export function ItemsTab() {
  const { t, i18n } = useTranslation(['market', 'common']);
  const language = i18n.language;
  const monitor = useIsMonitor();
  const [selected, setSelected] = useState<string[]>([]);
  // The time the expiry warnings count from: the tab's opening (a render never reads the clock).
  const [now] = useState(() => Date.now());
  const autoRenew = useCallMutation('marketItemAutoRenew', {
    success: (answer, request) =>
      request.autoRenew
        ? t('toast.autoRenewOn', { count: answer.updated })
        : t('toast.autoRenewOff', { count: answer.updated }),
    invalidates: ['flow', 'devices'],
  });
  const list = useListPage({
    id: 'marketItems',
    endpoint: 'marketItemList',
    onFilter: () => setSelected([]),
    filters: [
      { key: 'keyword', label: t('filter.keyword'), placeholder: t('filter.itemKeyword'), maxLength: 64 },
      {
        key: 'kind',
        kind: 'select',
        label: t('filter.kind'),
        placeholder: t('filter.all'),
        width: 140,
        options: MARKET_KINDS.map((k) => ({ value: k, label: t(`kind.${k}`) })),
      },
      {
        key: 'state',
        kind: 'select',
        label: t('filter.state'),
        placeholder: t('filter.all'),
        width: 110,
        options: ITEM_STATES.map((s) => ({ value: s, label: t(`itemState.${s}`) })),
      },
      {
        key: 'autoRenew',
        kind: 'select',
        label: t('filter.autoRenew'),
        placeholder: t('filter.all'),
        width: 110,
        options: [
          { value: 'true', label: t('autoRenew.on') },
          { value: 'false', label: t('autoRenew.off') },
        ],
        param: (v) => v === 'true',
      },
      {
        key: 'expiring',
        kind: 'check',
        label: t('filter.expiring', { days: EXPIRING_DEVICE_DAYS }),
      },
    ],
    request: ({ expiring, ...filters }, page) =>
      ({
        page: page.page,
        size: page.size,
        ...filters,
        ...(expiring ? { expiringWithinDays: EXPIRING_DEVICE_DAYS } : {}),
      }) as Req<Endpoints['marketItemList']>,
    columns: [
      { prop: 'subjectName', label: t('item.subject'), width: 200, ellipsis: true },
      tagColumn<MarketItem>('kind', t('item.kind'), kindLook(t), { width: 120 }),
      { prop: 'productName', label: t('item.product'), width: 160, ellipsis: true },
      {
        prop: 'months',
        label: t('item.term'),
        width: 150,
        slot: (v: number, row) => (
          <Space orientation="vertical" size={0}>
            <span>{termText(t, v)}</span>
            <Typography.Text type="secondary">
              {row.renewalPrice === null ? t('item.notOnSale') : formatFen(row.renewalPrice, language)}
            </Typography.Text>
          </Space>
        ),
      },
      {
        prop: 'expiresAt',
        label: t('item.expiresAt'),
        width: 200,
        slot: (v: string, row) => <ExpiryText t={t} expiry={v} now={now} testId={`market-item-expiry-${row.id}`} />,
      },
      tagColumn<MarketItem>('state', t('item.state'), itemStateLook(t), { width: 90 }),
      {
        prop: 'autoRenew',
        label: t('item.autoRenew'),
        width: 110,
        slot: (v: boolean, row) => (
          <Switch
            size="small"
            checked={v}
            disabled={monitor}
            loading={autoRenew.isPending && autoRenew.variables?.ids.includes(row.id)}
            aria-label={t('item.autoRenewOf', { name: row.subjectName })}
            onChange={(next) => autoRenew.mutate({ ids: [row.id], autoRenew: next })}
            data-testid={`market-item-autorenew-${row.id}`}
          />
        ),
      },
      {
        prop: 'lastRenewal',
        label: t('item.lastRenewal'),
        width: 220,
        slot: (v: MarketItem['lastRenewal']) =>
          v ? (
            <Space orientation="vertical" size={0}>
              <Space size={4}>
                <LookTag look={outcomeLook(t)(v.outcome)} />
                <Typography.Text type="secondary">{day(v.at)}</Typography.Text>
              </Space>
              {v.reason ? <Typography.Text type="danger">{failureText(t, v.reason)}</Typography.Text> : null}
            </Space>
          ) : (
            '-'
          ),
      },
    ],
  });

  const batch = (on: boolean) => (
    <Popconfirm
      title={
        on
          ? t('item.batchOnConfirm', { count: selected.length })
          : t('item.batchOffConfirm', { count: selected.length })
      }
      okText={on ? t('item.batchOn') : t('item.batchOff')}
      cancelText={t('action.cancel', { ns: 'common' })}
      okButtonProps={confirmOkProps(!on)}
      disabled={selected.length === 0}
      onConfirm={() => autoRenew.mutateAsync({ ids: selected, autoRenew: on }).then(() => setSelected([]))}
    >
      <Button disabled={selected.length === 0} data-testid={`market-items-autorenew-${on ? 'on' : 'off'}`}>
        {on ? t('item.batchOn') : t('item.batchOff')}
      </Button>
    </Popconfirm>
  );

  return (
    <ListPage
      list={list}
      bare
      testPrefix="market-items"
      toolbar={
        <NotForMonitor>
          <Space wrap>
            {batch(true)}
            {batch(false)}
            <Typography.Text type="secondary" data-testid="market-items-selected">
              {t('item.selected', { count: selected.length })}
            </Typography.Text>
          </Space>
        </NotForMonitor>
      }
      rowSelection={
        monitor
          ? undefined
          : {
              selectedRowKeys: selected,
              preserveSelectedRowKeys: true,
              onChange: (keys) => setSelected((keys as string[]).slice(0, 500)),
            }
      }
      rowTestId={(row) => `market-item-row-${row.id}`}
      empty={list.filtered ? t('item.emptyFiltered') : t('item.empty')}
      failed={{ description: t('loadFailed'), retryLabel: t('action.retry') }}
      showTotal={(total) => t('item.total', { count: total })}
    />
  );
}
