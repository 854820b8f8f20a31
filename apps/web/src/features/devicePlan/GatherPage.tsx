import { AGE_BANDS, type AudienceFigures, formatSize, formatTime, type GatherRow, Perm } from '@marquee/protocol';
import { Card, Checkbox, Empty, Segmented, Skeleton, Space, Table, Tag, Typography } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCallQuery } from '../../api/queries';
import { ListPage, useListPage } from '../../components/listPage';
import './devicePlan.css';

const AudienceChart = lazy(() => import('./AudienceChart'));
const DAYS = [1, 7, 30] as const;

/** Seconds as "2 d 3 h" / "3 h 12 min" in the current language. */
export function uptimeParts(sec: number): { d: number; h: number; m: number } {
  return { d: Math.floor(sec / 86400), h: Math.floor((sec % 86400) / 3600), m: Math.floor((sec % 3600) / 60) };
}

/**
 * Data collection (/device/gather, outside the menu): what every device the caller can see
 * last reported (storage, volume, brightness, screen, version, uptime), and the audience in
 * the spec's age bands that devices with a people-counting sensor add to their heartbeats.
 * Nothing is estimated: a device that reports no audience shows none.
 */
export default function GatherPage() {
  const { t } = useTranslation('devicePlan');
  const [days, setDays] = useState<(typeof DAYS)[number]>(7);
  const [device, setDevice] = useState<GatherRow | null>(null);

  const audience = useCallQuery('gatherAudience', { days, deviceId: device?.id });

  const uptime = (sec: number | null) => {
    if (sec === null) return '-';
    const { d, h, m } = uptimeParts(sec);
    return d > 0 ? t('uptime.days', { d, h }) : t('uptime.hours', { h, m });
  };
  const list = useListPage({
    id: 'gather',
    endpoint: 'gatherList',
    filters: [
      { key: 'keyword', label: t('gather.keyword'), maxLength: 64 },
      // The URL keeps `withAudience=true` (links and bookmarks say so).
      {
        key: 'withAudience',
        kind: 'custom',
        label: null,
        param: (v) => v === 'true' || undefined,
        render: () => <AudienceCheck label={t('gather.withAudience')} />,
      },
    ],
    operationsLabel: t('gather.actions'),
    columns: [
      { prop: 'name', label: t('device.name'), width: 180, ellipsis: true },
      { prop: 'number', label: t('device.number'), width: 150, ellipsis: true },
      {
        prop: 'status',
        label: t('device.status'),
        width: 110,
        slot: (v: GatherRow['status']) => <Tag color={v === 'online' ? 'success' : 'default'}>{t(`status.${v}`)}</Tag>,
      },
      {
        prop: 'storageUsed',
        label: t('gather.storage'),
        width: 170,
        slot: (_v: number | null, r: GatherRow) =>
          r.storageUsed === null
            ? '-'
            : t('gather.storageValue', { used: formatSize(r.storageUsed), free: formatSize(r.storageFree) }),
      },
      { prop: 'volume', label: t('gather.volume'), width: 90, align: 'right' },
      { prop: 'brightness', label: t('gather.brightness'), width: 90, align: 'right' },
      {
        prop: 'screenWidth',
        label: t('gather.screen'),
        width: 150,
        slot: (_v: number | null, r: GatherRow) =>
          r.screenWidth
            ? `${r.screenWidth}×${r.screenHeight} · ${t(r.screenOn ? 'gather.screenOn' : 'gather.screenOff')}`
            : '-',
      },
      { prop: 'playerVersion', label: t('device.version'), width: 140, ellipsis: true },
      { prop: 'uptimeSec', label: t('gather.uptime'), width: 130, slot: (v: number | null) => uptime(v) },
      {
        prop: 'lastSeenAt',
        label: t('device.lastSeen'),
        width: 170,
        slot: (v: string | null) => (v ? formatTime(v) : '-'),
      },
      {
        prop: 'audience24h',
        label: t('gather.audience24h'),
        width: 130,
        align: 'right',
        showThousands: true,
        slot: (v: number | null) => (v === null ? t('gather.noAudience') : v),
      },
    ],
    operations: [
      {
        key: 'audience',
        label: t('gather.showAudience'),
        authCode: Perm.deviceGather,
        handler: (row) => setDevice(row),
        testId: (row) => `gather-audience-${row.name}`,
      },
    ],
  });

  const figures: AudienceFigures | undefined = audience.data;
  return (
    <ListPage
      list={list}
      className="mq-gather"
      title={t('gather.title')}
      header={
        <Card
          size="small"
          style={{ marginBottom: 12 }}
          title={device ? t('gather.audienceOf', { name: device.name }) : t('gather.audienceAll')}
          extra={
            <Space wrap>
              {device ? (
                <Typography.Link onClick={() => setDevice(null)} data-testid="gather-audience-all">
                  {t('gather.allDevices')}
                </Typography.Link>
              ) : null}
              <Segmented
                aria-label={t('gather.range')}
                value={days}
                onChange={(v) => setDays(v as (typeof DAYS)[number])}
                options={DAYS.map((d) => ({ value: d, label: t('gather.days', { count: d }) }))}
                data-testid="gather-days"
              />
            </Space>
          }
        >
          {!figures ? (
            <Skeleton active />
          ) : figures.total === 0 ? (
            <Empty
              image={Empty.PRESENTED_IMAGE_SIMPLE}
              description={<span data-testid="gather-audience-empty">{t('gather.audienceEmpty')}</span>}
            />
          ) : (
            <div className="mq-gather-audience" data-testid="gather-audience">
              <Typography.Paragraph>
                {t('gather.audienceSummary', { count: figures.total, devices: figures.devices })}
              </Typography.Paragraph>
              <Suspense fallback={<Skeleton active />}>
                <AudienceChart figures={figures} />
              </Suspense>
              <Table
                size="small"
                style={{ marginTop: 12 }}
                pagination={false}
                rowKey="band"
                dataSource={figures.bands}
                columns={[
                  { key: 'band', title: t('gather.band'), dataIndex: 'band' },
                  { key: 'male', title: t('gender.male'), dataIndex: 'male', align: 'right' },
                  { key: 'female', title: t('gender.female'), dataIndex: 'female', align: 'right' },
                  { key: 'unknown', title: t('gender.unknown'), dataIndex: 'unknown', align: 'right' },
                ]}
                data-testid="gather-audience-table"
              />
              <Typography.Text type="secondary">{t('gather.bands', { bands: AGE_BANDS.join(', ') })}</Typography.Text>
            </div>
          )}
        </Card>
      }
      rowTestId={(row) => `gather-row-${row.name}`}
      empty={t('gather.empty')}
      showTotal={(total) => t('gather.total', { count: total })}
    />
  );
}

/** The 'with audience only' check box, bound to its URL value as the text `true`. */
function AudienceCheck({
  label,
  value,
  onChange,
}: {
  label: string;
  value?: string;
  onChange?: (v: string | undefined) => void;
}) {
  return (
    <Checkbox
      checked={value === 'true'}
      onChange={(e) => onChange?.(e.target.checked ? 'true' : undefined)}
      data-testid="gather-filter-audience"
    >
      {label}
    </Checkbox>
  );
}
