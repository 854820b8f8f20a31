import { CameraOutlined, HistoryOutlined } from '@ant-design/icons';
import { DEVICE_STATUSES, formatTime, type LatestScreenshotRow, Perm, SCREENSHOT_INTERVALS } from '@marquee/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Card, Col, Empty, Image, Row, Select, Skeleton, Space, Switch, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { callKey, useCallMutation, useCallQuery } from '../../api/queries';
import { ListPage, useListPage } from '../../components/listPage';
import { NotForMonitor } from '../../components/MonitorGuard';
import { useCan } from '../../session/useCan';
import { STATUS_COLORS } from './RemotePage';

/** After 'take now' the grid refreshes this often until the new screenshots arrived (or this long). */
const WATCH_INTERVAL_MS = 2000;
const WATCH_FOR_MS = 60_000;

/**
 * Screenshots (/device/screenshot): the newest screenshot of each visible device in a grid,
 * with 'take now' per device or for the page, the image's preview, its time, and the
 * enterprise's timed-screenshot setting (hourly on the hour by default, spec section 9).
 */
export default function ScreenshotPage() {
  const { t } = useTranslation(['screenshots', 'common']);
  const queryClient = useQueryClient();
  const can = useCan();
  const [watchUntil, setWatchUntil] = useState(0);

  const list = useListPage({
    id: 'screenshots',
    endpoint: 'screenshotLatest',
    defaultSize: 20,
    filters: [
      {
        key: 'keyword',
        label: t('screenshots:filter.keyword'),
        placeholder: t('screenshots:filter.keywordHint'),
        testId: 'shot-filter-keyword',
      },
      {
        key: 'status',
        kind: 'select',
        label: t('screenshots:col.status'),
        placeholder: t('screenshots:filter.all'),
        width: 130,
        options: DEVICE_STATUSES.map((s) => ({ value: s, label: t(`screenshots:status.${s}`) })),
        testId: 'shot-filter-status',
      },
    ],
    columns: [],
    refetchInterval: () => (Date.now() < watchUntil ? WATCH_INTERVAL_MS : false),
  });
  const settings = useCallQuery('screenshotSettings', {});
  const saveSettings = useCallMutation('screenshotSaveSettings', {
    success: t('settingsSaved'),
    onSuccess: (saved) => queryClient.setQueryData(callKey('screenshotSettings', {}), saved),
  });
  const take = useCallMutation('screenshotTake', {
    success: (answer) => t('requested', { count: answer.commands.length }),
    onSuccess: () => setWatchUntil(Date.now() + WATCH_FOR_MS),
  });

  const query = list.query;
  const rows = query.data?.data ?? [];
  const mayTake = can(Perm.deviceScreenshot);
  const current = settings.data;

  const card = (row: LatestScreenshotRow) => {
    const shot = row.screenshot;
    return (
      <Col key={row.deviceId} xs={24} sm={12} lg={8} xxl={6}>
        <Card
          size="small"
          data-testid={`shot-card-${row.deviceName}`}
          title={
            <Space size={6}>
              <Typography.Text ellipsis style={{ maxWidth: 160 }}>
                {row.deviceName}
              </Typography.Text>
              <Tag color={STATUS_COLORS[row.status]}>{t(`screenshots:status.${row.status}`)}</Tag>
            </Space>
          }
          extra={
            <Link
              to={`/device/screenshotHistory?deviceId=${encodeURIComponent(row.deviceId)}`}
              aria-label={t('historyOf', { name: row.deviceName })}
            >
              <HistoryOutlined />
            </Link>
          }
          actions={
            mayTake
              ? [
                  <NotForMonitor key="take">
                    <Button
                      type="link"
                      size="small"
                      icon={<CameraOutlined />}
                      loading={take.isPending && take.variables?.deviceIds.includes(row.deviceId)}
                      onClick={() => take.mutate({ deviceIds: [row.deviceId] })}
                      data-testid={`shot-take-${row.deviceName}`}
                    >
                      {t('takeNow')}
                    </Button>
                  </NotForMonitor>,
                ]
              : undefined
          }
        >
          <div
            className="mq-shot-frame"
            style={{
              aspectRatio: '16 / 9',
              display: 'grid',
              placeItems: 'center',
              background: 'rgba(127,127,127,0.08)',
              borderRadius: 4,
              overflow: 'hidden',
            }}
          >
            {shot ? (
              <Image
                src={shot.url}
                alt={t('imageAlt', { name: row.deviceName, time: formatTime(shot.takenAt) })}
                style={{ width: '100%', height: '100%', objectFit: 'contain' }}
                data-testid={`shot-image-${row.deviceName}`}
              />
            ) : (
              <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('noShot')} />
            )}
          </div>
          <Typography.Text type="secondary" style={{ display: 'block', marginTop: 8 }}>
            {shot
              ? `${formatTime(shot.takenAt)} · ${shot.width}×${shot.height} · ${t(`trigger.${shot.trigger}`)}`
              : t('noShotHint')}
          </Typography.Text>
        </Card>
      </Col>
    );
  };

  return (
    <ListPage
      list={list}
      testId="screenshot-page"
      className="mq-screenshots"
      filterTestIds={{ search: 'shot-search', reset: 'shot-reset' }}
      title={t('title')}
      showTotal={(total) => t('total', { count: total })}
      extra={
        <Space wrap>
          {current ? (
            <Space size={8} data-testid="shot-settings">
              <Typography.Text id="shot-timed-label">{t('timed')}</Typography.Text>
              <Switch
                checked={current.timedEnabled}
                loading={saveSettings.isPending}
                disabled={!mayTake}
                onChange={(on) => saveSettings.mutate({ ...current, timedEnabled: on })}
                aria-labelledby="shot-timed-label"
                data-testid="shot-timed-switch"
              />
              <Select
                size="small"
                style={{ width: 150 }}
                value={current.intervalHours}
                disabled={!mayTake || !current.timedEnabled}
                aria-label={t('interval')}
                options={SCREENSHOT_INTERVALS.map((n) => ({ value: n, label: t('everyHours', { count: n }) }))}
                onChange={(n) => saveSettings.mutate({ ...current, intervalHours: n })}
                data-testid="shot-interval"
              />
            </Space>
          ) : null}
          {mayTake ? (
            <NotForMonitor>
              <Button
                type="primary"
                icon={<CameraOutlined />}
                disabled={rows.length === 0}
                loading={take.isPending}
                onClick={() => take.mutate({ deviceIds: rows.map((r) => r.deviceId) })}
                data-testid="shot-take-page"
              >
                {t('takePage')}
              </Button>
            </NotForMonitor>
          ) : null}
          <Link to="/device/screenshotHistory">{t('history')}</Link>
        </Space>
      }
      body={
        query.isLoading ? (
          <Skeleton active />
        ) : query.isError ? (
          <Empty description={t('loadFailed')}>
            <Button onClick={() => void query.refetch()}>{t('retry')}</Button>
          </Empty>
        ) : rows.length === 0 ? (
          <Empty description={t('empty')} data-testid="shot-empty" />
        ) : (
          <Row gutter={[12, 12]}>{rows.map(card)}</Row>
        )
      }
    />
  );
}
