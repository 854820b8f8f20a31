import { Card, DatePicker, Descriptions, Empty, Form, Spin, Table, Typography } from 'antd';
import dayjs from 'dayjs';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { useCallQuery } from '../../api/queries';
import { hoursText, playText } from './format';
import './deviceReports.css';

const DeviceReportChart = lazy(() => import('./DeviceReportChart'));

/**
 * One device's report (/report/deviceDetail?id=&from=&to=): its totals, a chart of its days
 * (plays, online hours, distinct ads), the days as a table and the ads it played.
 */
export default function DeviceReportDetailPage() {
  const { t } = useTranslation('deviceReports');
  const [params, setParams] = useSearchParams();
  const id = params.get('id') ?? '';
  const from = params.get('from') || undefined;
  const to = params.get('to') || undefined;
  const detail = useCallQuery('reportDeviceDetail', { id, from, to }, { enabled: Boolean(id) });
  const back = (
    <Link to="/report/device" data-testid="device-report-back">
      {t('detail.back')}
    </Link>
  );
  if (!id) {
    return (
      <div className="mq-view" data-testid="device-report-detail-page">
        <Card size="small">
          <Empty description={t('detail.missing')}>{back}</Empty>
        </Card>
      </div>
    );
  }
  const data = detail.data;
  const device = data?.device;
  return (
    <div className="mq-view mq-device-report-detail" data-testid="device-report-detail-page">
      <Card
        size="small"
        style={{ marginBottom: 12 }}
        title={device ? t('detail.title', { name: device.name }) : t('device.title')}
        extra={back}
      >
        <Form layout="inline" style={{ marginBottom: 12 }}>
          <Form.Item label={t('filter.range')}>
            <DatePicker.RangePicker
              value={data ? [dayjs(data.from), dayjs(data.to)] : null}
              allowClear={false}
              onChange={(v) => {
                if (!v?.[0] || !v[1]) return;
                const next = new URLSearchParams(params);
                next.set('from', v[0].format('YYYY-MM-DD'));
                next.set('to', v[1].format('YYYY-MM-DD'));
                setParams(next, { replace: true });
              }}
              data-testid="device-report-detail-range"
            />
          </Form.Item>
        </Form>
        {detail.isLoading ? (
          <Spin />
        ) : device ? (
          <Descriptions size="small" column={{ xs: 1, sm: 2, lg: 4 }} data-testid="device-report-totals">
            <Descriptions.Item label={t('col.number')}>{device.number ?? '-'}</Descriptions.Item>
            <Descriptions.Item label={t('col.dept')}>{device.deptName || '-'}</Descriptions.Item>
            <Descriptions.Item label={t('col.online')}>{hoursText(t, device.onlineSec)}</Descriptions.Item>
            <Descriptions.Item label={t('col.plays')}>{device.plays.toLocaleString()}</Descriptions.Item>
            <Descriptions.Item label={t('col.playTime')}>{playText(t, device.playMs)}</Descriptions.Item>
            <Descriptions.Item label={t('col.ads')}>{device.ads}</Descriptions.Item>
            <Descriptions.Item label={t('col.downloads')}>{device.downloads}</Descriptions.Item>
            <Descriptions.Item label={t('col.downloadsFailed')}>{device.downloadsFailed}</Descriptions.Item>
            <Descriptions.Item label={t('col.downloadTime')}>
              {device.downloadSec === null
                ? '-'
                : t('downloadTime.value', { sec: device.downloadSec.toLocaleString() })}
            </Descriptions.Item>
            <Descriptions.Item label={t('col.fullRate')}>{`${device.fullRate}%`}</Descriptions.Item>
          </Descriptions>
        ) : null}
      </Card>
      {data ? (
        <>
          <Card size="small" title={t('detail.days')} style={{ marginBottom: 12 }}>
            <Suspense fallback={<div className="mq-device-report-chart" />}>
              <DeviceReportChart days={data.days} />
            </Suspense>
            <Table
              size="small"
              rowKey="day"
              pagination={false}
              dataSource={data.days}
              scroll={{ x: 640 }}
              columns={[
                { key: 'day', title: t('col.day'), dataIndex: 'day', width: 120 },
                {
                  key: 'online',
                  title: t('col.online'),
                  render: (_: unknown, d: (typeof data.days)[number]) => hoursText(t, d.onlineSec),
                },
                { key: 'plays', title: t('col.plays'), dataIndex: 'plays', align: 'right' },
                {
                  key: 'playTime',
                  title: t('col.playTime'),
                  render: (_: unknown, d: (typeof data.days)[number]) => playText(t, d.playMs),
                },
                { key: 'ads', title: t('col.ads'), dataIndex: 'ads', align: 'right' },
                { key: 'downloads', title: t('col.downloads'), dataIndex: 'downloads', align: 'right' },
                {
                  key: 'downloadsFailed',
                  title: t('col.downloadsFailed'),
                  dataIndex: 'downloadsFailed',
                  align: 'right',
                },
              ]}
              data-testid="device-report-days"
            />
          </Card>
          <Card size="small" title={t('detail.ads')}>
            <Table
              size="small"
              rowKey="adId"
              pagination={false}
              dataSource={data.ads}
              locale={{ emptyText: t('detail.noAds') }}
              columns={[
                { key: 'number', title: t('col.adNumber'), dataIndex: 'adNumber', width: 120 },
                { key: 'name', title: t('col.adName'), dataIndex: 'adName', ellipsis: true },
                { key: 'plays', title: t('col.plays'), dataIndex: 'plays', align: 'right' },
                { key: 'completed', title: t('col.completed'), dataIndex: 'completed', align: 'right' },
                {
                  key: 'playTime',
                  title: t('col.playTime'),
                  render: (_: unknown, a: (typeof data.ads)[number]) => playText(t, a.playMs),
                },
                { key: 'days', title: t('col.days'), dataIndex: 'days', align: 'right' },
              ]}
              data-testid="device-report-ads"
            />
            <Typography.Paragraph type="secondary" style={{ marginTop: 8, marginBottom: 0 }}>
              {t('note.downloads')}
            </Typography.Paragraph>
          </Card>
        </>
      ) : null}
    </div>
  );
}
