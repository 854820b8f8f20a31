import {
  CARD_STATES,
  type Endpoints,
  EXPIRING_DEVICE_DAYS,
  type IotCard,
  LICENCE_STATES,
  type LicenceState,
  LONG_OFFLINE_HOURS,
  MARKET_ORDER_MAX_SUBJECTS,
  Perm,
  type Res,
} from '@marquee/protocol';
import { Alert, Button, Checkbox, Input, Select, Space, Table, type TableColumnsType, Tooltip, Typography } from 'antd';
import type { TFunction } from 'i18next';
import { type HTMLAttributes, type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCallQuery } from '../../api/queries';
import { useCan } from '../../session/useCan';
import { ExpiryText, LookTag, licenceLook } from './look';

type MarketDevice = Res<Endpoints['marketDeviceOptions']>['data'][number];

/** The selection column's cell: a checkbox that cannot be ticked explains why in a tooltip (the row also says it in words). */
function reasonCell(reason: string | null, node: ReactNode) {
  if (!reason) return node;
  return (
    <Tooltip title={reason}>
      <span>{node}</span>
    </Tooltip>
  );
}

/** The count chosen, with Clear. */
function Chosen({ t, count, onClear, testId }: { t: TFunction; count: number; onClear: () => void; testId: string }) {
  return (
    <Space size={8}>
      <Typography.Text data-testid={`${testId}-count`}>
        {t('detail.chosen', { count, max: MARKET_ORDER_MAX_SUBJECTS })}
      </Typography.Text>
      {count > 0 ? (
        <Button size="small" type="link" onClick={onClear} data-testid={`${testId}-clear`}>
          {t('detail.clear')}
        </Button>
      ) : null}
    </Space>
  );
}

export const deviceReason = (t: TFunction, d: Pick<MarketDevice, 'selectable' | 'reason'>) =>
  d.selectable ? null : t('device.longOffline', { ns: 'market', hours: LONG_OFFLINE_HOURS });

/**
 * The devices to buy points for (market.deviceOptions): keyword, licence and the 'expiring'
 * quick filter (within 15 days); each with its licence, expiry and offline hours. A device
 * offline more than 72 hours cannot be chosen (the reason in a tooltip). The choice is kept
 * across pages and filters.
 */
export function DevicePicker({
  selected,
  onChange,
  initialExpiring,
  now,
}: {
  selected: string[];
  onChange: (ids: string[]) => void;
  initialExpiring: boolean;
  now: number;
}) {
  const { t } = useTranslation('market');
  const [keyword, setKeyword] = useState('');
  const [licence, setLicence] = useState<LicenceState | undefined>();
  const [expiring, setExpiring] = useState(initialExpiring);
  const [page, setPage] = useState({ page: 1, size: 10 });
  const list = useCallQuery(
    'marketDeviceOptions',
    {
      page: page.page,
      size: page.size,
      ...(keyword ? { keyword } : {}),
      ...(licence ? { licence } : {}),
      ...(expiring ? { expiringWithinDays: EXPIRING_DEVICE_DAYS } : {}),
    },
    { keepPrevious: true },
  );
  const rows = list.data?.data ?? [];
  const columns: TableColumnsType<MarketDevice> = [
    {
      key: 'name',
      dataIndex: 'name',
      title: t('device.name'),
      ellipsis: true,
      render: (name: string, row) => (
        <Space orientation="vertical" size={0}>
          <span>{name}</span>
          {row.number ? <Typography.Text type="secondary">{row.number}</Typography.Text> : null}
          {row.selectable ? null : (
            <Typography.Text type="danger" className="mq-market-reason">
              {deviceReason(t, row)}
            </Typography.Text>
          )}
        </Space>
      ),
    },
    {
      key: 'licence',
      dataIndex: 'licence',
      title: t('device.licence'),
      width: 110,
      render: (v: string) => <LookTag look={licenceLook(t)(v)} />,
    },
    {
      key: 'expireAt',
      dataIndex: 'expireAt',
      title: t('device.expireAt'),
      width: 190,
      render: (v: string | null) => <ExpiryText t={t} expiry={v} now={now} />,
    },
    {
      key: 'offlineHours',
      dataIndex: 'offlineHours',
      title: t('device.offline'),
      width: 130,
      render: (v: number | null) =>
        v === null ? (
          <Typography.Text type="success">{t('device.online')}</Typography.Text>
        ) : (
          <Typography.Text type={v > LONG_OFFLINE_HOURS ? 'danger' : undefined}>
            {t('device.offlineHours', { count: Math.floor(v) })}
          </Typography.Text>
        ),
    },
    {
      key: 'autoRenew',
      dataIndex: 'autoRenew',
      title: t('device.autoRenew'),
      width: 110,
      render: (v: boolean) => (v ? t('autoRenew.on') : t('autoRenew.off')),
    },
  ];

  return (
    <div className="mq-market-picker" data-testid="market-devices">
      <div className="mq-market-toolbar">
        <Space wrap>
          <Input.Search
            allowClear
            maxLength={64}
            placeholder={t('device.keyword')}
            aria-label={t('device.keyword')}
            style={{ width: 220 }}
            onSearch={(v) => {
              setKeyword(v.trim());
              setPage((p) => ({ ...p, page: 1 }));
            }}
            data-testid="market-devices-keyword"
          />
          <Select
            allowClear
            placeholder={t('device.licence')}
            aria-label={t('device.licence')}
            style={{ width: 140 }}
            value={licence}
            onChange={(v) => {
              setLicence(v);
              setPage((p) => ({ ...p, page: 1 }));
            }}
            options={LICENCE_STATES.map((l) => ({ value: l, label: licenceLook(t)(l).text }))}
            data-testid="market-devices-licence"
          />
          <Checkbox
            checked={expiring}
            onChange={(e) => {
              setExpiring(e.target.checked);
              setPage((p) => ({ ...p, page: 1 }));
            }}
            data-testid="market-devices-expiring"
          >
            {t('device.expiringOnly', { days: EXPIRING_DEVICE_DAYS })}
          </Checkbox>
        </Space>
        <Chosen t={t} count={selected.length} onClear={() => onChange([])} testId="market-devices-chosen" />
      </div>
      <Table<MarketDevice>
        rowKey="id"
        size="small"
        columns={columns}
        dataSource={rows}
        loading={list.isFetching}
        scroll={{ x: 760 }}
        rowSelection={{
          selectedRowKeys: selected,
          preserveSelectedRowKeys: true,
          onChange: (keys) => onChange((keys as string[]).slice(0, MARKET_ORDER_MAX_SUBJECTS)),
          getCheckboxProps: (row) => ({
            disabled: !row.selectable,
            'data-testid': `market-device-check-${row.id}`,
          }),
          renderCell: (_checked, row, _index, node) => reasonCell(deviceReason(t, row), node),
        }}
        onRow={(row) => ({ 'data-testid': `market-device-row-${row.id}` }) as HTMLAttributes<HTMLElement>}
        pagination={{
          current: page.page,
          pageSize: page.size,
          total: list.data?.total ?? 0,
          showSizeChanger: true,
          pageSizeOptions: [10, 20, 50, 100],
          showTotal: (total) => t('device.total', { count: total }),
          onChange: (p, s) => setPage({ page: s === page.size ? p : 1, size: s }),
        }}
        locale={{ emptyText: expiring ? t('device.emptyExpiring') : t('device.empty') }}
      />
    </div>
  );
}

/**
 * The IoT cards to give the package (flow.cardList): keyword and state; each with its state,
 * ICCID, package and expiry. A cancelled card cannot be chosen.
 */
export function CardPicker({
  selected,
  onChange,
  now,
}: {
  selected: string[];
  onChange: (ids: string[]) => void;
  now: number;
}) {
  const { t } = useTranslation('market');
  const can = useCan();
  const allowed = can(Perm.operateFlow);
  const [keyword, setKeyword] = useState('');
  const [state, setState] = useState<IotCard['state'] | undefined>();
  const [page, setPage] = useState({ page: 1, size: 10 });
  const list = useCallQuery(
    'flowCardList',
    { page: page.page, size: page.size, ...(keyword ? { keyword } : {}), ...(state ? { state } : {}) },
    { keepPrevious: true, enabled: allowed },
  );
  if (!allowed)
    return <Alert type="info" showIcon title={t('card.noPermission')} data-testid="market-cards-forbidden" />;
  const cardReason = (c: IotCard) => (c.state === 'cancelled' ? t('card.cancelledReason') : null);
  const columns: TableColumnsType<IotCard> = [
    { key: 'iccid', dataIndex: 'iccid', title: 'ICCID', width: 210 },
    {
      key: 'state',
      dataIndex: 'state',
      title: t('card.state'),
      width: 110,
      render: (v: string, row) =>
        row.state === 'cancelled' ? (
          <Tooltip title={cardReason(row)}>
            <Typography.Text type="secondary">{t(`cardState.${v}`)}</Typography.Text>
          </Tooltip>
        ) : (
          t(`cardState.${v}`)
        ),
    },
    {
      key: 'packageName',
      dataIndex: 'packageName',
      title: t('card.package'),
      ellipsis: true,
      render: (v: string | null, row) => (v ? `${v}${row.packageMb ? ` (${row.packageMb} MB)` : ''}` : '-'),
    },
    { key: 'deviceName', dataIndex: 'deviceName', title: t('card.device'), width: 150, ellipsis: true },
    {
      key: 'expiresAt',
      dataIndex: 'expiresAt',
      title: t('card.expiresAt'),
      width: 190,
      render: (v: string | null) => <ExpiryText t={t} expiry={v} now={now} />,
    },
  ];
  return (
    <div className="mq-market-picker" data-testid="market-cards">
      <div className="mq-market-toolbar">
        <Space wrap>
          <Input.Search
            allowClear
            maxLength={64}
            placeholder={t('card.keyword')}
            aria-label={t('card.keyword')}
            style={{ width: 240 }}
            onSearch={(v) => {
              setKeyword(v.trim());
              setPage((p) => ({ ...p, page: 1 }));
            }}
            data-testid="market-cards-keyword"
          />
          <Select
            allowClear
            placeholder={t('card.state')}
            aria-label={t('card.state')}
            style={{ width: 140 }}
            value={state}
            onChange={(v) => {
              setState(v);
              setPage((p) => ({ ...p, page: 1 }));
            }}
            options={CARD_STATES.map((s) => ({ value: s, label: t(`cardState.${s}`) }))}
            data-testid="market-cards-state"
          />
        </Space>
        <Chosen t={t} count={selected.length} onClear={() => onChange([])} testId="market-cards-chosen" />
      </div>
      <Table<IotCard>
        rowKey="id"
        size="small"
        columns={columns}
        dataSource={list.data?.data ?? []}
        loading={list.isFetching}
        scroll={{ x: 760 }}
        rowSelection={{
          selectedRowKeys: selected,
          preserveSelectedRowKeys: true,
          onChange: (keys) => onChange((keys as string[]).slice(0, MARKET_ORDER_MAX_SUBJECTS)),
          getCheckboxProps: (row) => ({
            disabled: row.state === 'cancelled',
            'data-testid': `market-card-check-${row.id}`,
          }),
          renderCell: (_checked, row, _index, node) => reasonCell(cardReason(row), node),
        }}
        onRow={(row) => ({ 'data-testid': `market-card-row-${row.id}` }) as HTMLAttributes<HTMLElement>}
        pagination={{
          current: page.page,
          pageSize: page.size,
          total: list.data?.total ?? 0,
          showSizeChanger: true,
          pageSizeOptions: [10, 20, 50, 100],
          showTotal: (total) => t('card.total', { count: total }),
          onChange: (p, s) => setPage({ page: s === page.size ? p : 1, size: s }),
        }}
        locale={{ emptyText: t('card.empty') }}
      />
    </div>
  );
}
