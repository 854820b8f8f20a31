import { ArrowDownOutlined, ArrowUpOutlined } from '@ant-design/icons';
import { formatTime, type PlaylistEntry } from '@marquee/protocol';
import { Button, Card, Empty, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCallMutation, useCallQuery } from '../../api/queries';
import { NotForMonitor } from '../../components/MonitorGuard';
import { DevicePicker, useDeviceParam } from './DevicePicker';
import './devicePlan.css';

/** Moves the common ad at `index` of the loop one place up (-1) or down (+1) among the common ads. */
export function moveCommon(entries: readonly PlaylistEntry[], index: number, step: -1 | 1): PlaylistEntry[] {
  const common = entries.filter((e) => e.type === 'common');
  const at = common.indexOf(entries[index]);
  const to = at + step;
  if (at < 0 || to < 0 || to >= common.length) return [...entries];
  const order = [...common];
  [order[at], order[to]] = [order[to], order[at]];
  let next = 0;
  return entries.map((e) => (e.type === 'common' ? order[next++] : e));
}

/**
 * A device's playlist (/device/playlist): its ads in the order the player plays them (the
 * manifest's), with each ad's type, role, period, plays rule and download; an operator who
 * manages the device sorts the common ads of its loop (spec 'playlist sort'), and the device
 * gets its new playlist at once.
 */
export default function PlaylistPage() {
  const { t } = useTranslation('devicePlan');
  const [deviceId, setDeviceId] = useDeviceParam();
  const [draft, setDraft] = useState<PlaylistEntry[] | null>(null);
  const playlist = useCallQuery('devicePlaylist', { deviceId: deviceId ?? '' }, { enabled: Boolean(deviceId) });
  const sort = useCallMutation('devicePlaylistSort', {
    success: t('playlist.saved'),
    onSuccess: () => setDraft(null),
  });
  const save = (entries: PlaylistEntry[]) =>
    sort.mutate({
      deviceId: deviceId ?? '',
      adIds: [...new Set(entries.filter((e) => e.type === 'common').map((e) => e.adId))],
    });
  const entries = draft ?? playlist.data?.entries ?? [];
  const commonCount = entries.filter((e) => e.type === 'common').length;

  const columns = [
    {
      key: 'order',
      title: t('playlist.order'),
      width: 64,
      render: (_: unknown, __: PlaylistEntry, i: number) => i + 1,
    },
    { key: 'number', title: t('playlist.number'), dataIndex: 'adNumber', width: 120 },
    { key: 'name', title: t('playlist.name'), dataIndex: 'adName', ellipsis: true },
    {
      key: 'type',
      title: t('playlist.type'),
      width: 120,
      render: (_: unknown, e: PlaylistEntry) => t(`adType.${e.type}`),
    },
    {
      key: 'role',
      title: t('playlist.role'),
      width: 100,
      render: (_: unknown, e: PlaylistEntry) => <Tag>{t(`role.${e.role}`)}</Tag>,
    },
    {
      key: 'period',
      title: t('playlist.period'),
      width: 300,
      render: (_: unknown, e: PlaylistEntry) => (
        <span>
          {formatTime(e.startAt)} – {formatTime(e.endAt)}
          <br />
          <Typography.Text type="secondary">
            {e.periods.length > 0 ? e.periods.map((p) => `${p.start}–${p.end}`).join(', ') : t('playlist.allDay')}
          </Typography.Text>
        </span>
      ),
    },
    {
      key: 'rule',
      title: t('playlist.rule'),
      width: 140,
      render: (_: unknown, e: PlaylistEntry) => t(`rule.${e.strategy}`, { min: e.playsMin, max: e.playsMax }),
    },
    {
      key: 'download',
      title: t('playlist.download'),
      width: 160,
      render: (_: unknown, e: PlaylistEntry) => <DownloadTag entry={e} />,
    },
    ...(draft
      ? [
          {
            key: 'move',
            title: t('playlist.move'),
            width: 96,
            render: (_: unknown, e: PlaylistEntry, i: number) =>
              e.type === 'common' ? (
                <Space size={4}>
                  <Button
                    size="small"
                    icon={<ArrowUpOutlined />}
                    aria-label={t('playlist.up')}
                    onClick={() => setDraft(moveCommon(entries, i, -1))}
                    data-testid={`playlist-up-${i}`}
                  />
                  <Button
                    size="small"
                    icon={<ArrowDownOutlined />}
                    aria-label={t('playlist.down')}
                    onClick={() => setDraft(moveCommon(entries, i, 1))}
                    data-testid={`playlist-down-${i}`}
                  />
                </Space>
              ) : null,
          },
        ]
      : []),
  ];

  const empty = (
    <div data-testid="device-playlist-empty">
      <Typography.Paragraph strong style={{ marginBottom: 4 }}>
        {deviceId ? t('playlist.none') : t('plan.pick')}
      </Typography.Paragraph>
      <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
        {t('playlist.explain')}
      </Typography.Paragraph>
    </div>
  );

  return (
    <div className="mq-view mq-device-playlist" data-testid="device-playlist-page">
      <Card size="small" className="mq-filter-card" style={{ marginBottom: 12 }}>
        <DevicePicker
          value={deviceId}
          onChange={(id) => {
            setDraft(null);
            setDeviceId(id);
          }}
        />
      </Card>
      <Card
        size="small"
        title={
          <span>
            {t('playlist.title')}
            {playlist.data?.order.length ? <Tag style={{ marginLeft: 8 }}>{t('playlist.sorted')}</Tag> : null}
          </span>
        }
        extra={
          deviceId && playlist.data?.canSort && commonCount > 1 ? (
            <NotForMonitor>
              {draft ? (
                <Space>
                  <Button onClick={() => setDraft(null)} data-testid="playlist-cancel">
                    {t('playlist.cancel')}
                  </Button>
                  <Button
                    type="primary"
                    loading={sort.isPending}
                    onClick={() => save(draft)}
                    data-testid="playlist-save"
                  >
                    {t('playlist.save')}
                  </Button>
                </Space>
              ) : (
                <Button onClick={() => setDraft(entries)} data-testid="playlist-sort">
                  {t('playlist.sort')}
                </Button>
              )}
            </NotForMonitor>
          ) : null
        }
      >
        {draft ? (
          <Typography.Paragraph type="secondary" data-testid="playlist-sort-hint">
            {t('playlist.sortHint')}
          </Typography.Paragraph>
        ) : null}
        {deviceId && (playlist.isLoading || entries.length > 0) ? (
          <Table<PlaylistEntry>
            size="small"
            rowKey="key"
            loading={playlist.isLoading}
            columns={columns}
            dataSource={entries}
            pagination={false}
            scroll={{ x: 1100 }}
            onRow={() => ({ 'data-testid': 'playlist-row' }) as React.HTMLAttributes<HTMLElement>}
          />
        ) : (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={empty} />
        )}
      </Card>
    </div>
  );
}

const DOWNLOAD_COLORS = {
  not_downloaded: 'default',
  downloading: 'processing',
  failed: 'error',
  successful: 'success',
};

/** The ad's download on the device (spec 'Download'): the state, the percent while downloading, the reason of a failure. */
function DownloadTag({ entry }: { entry: PlaylistEntry }) {
  const { t } = useTranslation('devicePlan');
  const label =
    entry.download === 'downloading'
      ? t('download.downloadingPercent', { percent: entry.downloadPercent ?? 0 })
      : entry.download === 'failed' && entry.downloadError
        ? t('download.failedReason', { reason: entry.downloadError })
        : t(`download.${entry.download}`);
  const title =
    entry.download === 'successful' && entry.downloadedAt
      ? t('download.doneAt', { at: formatTime(entry.downloadedAt) })
      : undefined;
  return (
    <Tag color={DOWNLOAD_COLORS[entry.download]} title={title}>
      {label}
    </Tag>
  );
}
