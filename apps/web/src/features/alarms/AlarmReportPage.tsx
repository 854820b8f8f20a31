import type { AlarmReport } from '@marquee/protocol';
import { Card, Col, DatePicker, Empty, Row, Skeleton, Space, Statistic, Table, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCallQuery } from '../../api/queries';
import { ExportButton } from '../../components/ExportDialog';

const AlarmChart = lazy(() => import('./AlarmChart'));

type Durations = AlarmReport['totals'];

/**
 * /alarm/report (issue 30): alarm events over a date range (the last 30 days by default): totals,
 * a chart a day, per region and per device with the mean time to acknowledge and to close; Excel
 * export in the background as the other reports.
 */
export default function AlarmReportPage() {
  const { t } = useTranslation('alarms');
  const [range, setRange] = useState<[Dayjs, Dayjs]>([dayjs().subtract(29, 'day'), dayjs()]);
  const request = { from: range[0].format('YYYY-MM-DD'), to: range[1].format('YYYY-MM-DD') };
  const report = useCallQuery('alarmReport', request, { keepPrevious: true });
  const data = report.data;
  const secs = (v: number | null) => (v == null ? '—' : t('seconds', { count: Math.round(v) }));
  const columns = (first: { key: string; title: string }) => [
    { dataIndex: first.key, title: first.title, ellipsis: true },
    { dataIndex: 'events', title: t('report.events'), width: 100 },
    { dataIndex: 'acknowledged', title: t('report.acknowledged'), width: 110 },
    { dataIndex: 'closed', title: t('report.closed'), width: 100 },
    { dataIndex: 'meanAckSec', title: t('fig.meanAck'), width: 150, render: secs },
    { dataIndex: 'meanCloseSec', title: t('fig.meanClose'), width: 150, render: secs },
  ];
  return (
    <Space direction="vertical" style={{ width: '100%' }} size={12} data-testid="alarm-report">
      <Card size="small">
        <Space wrap style={{ justifyContent: 'space-between', width: '100%' }}>
          <Typography.Title level={4} style={{ margin: 0 }}>
            {t('report.title')}
          </Typography.Title>
          <Space wrap>
            <DatePicker.RangePicker
              value={range}
              allowClear={false}
              aria-label={t('filter.range')}
              onChange={(v) => v?.[0] && v[1] && setRange([v[0], v[1]])}
              data-testid="alarm-report-range"
            />
            <ExportButton
              ns="alarms"
              testId="alarm-export"
              calls={{ start: 'alarmExportStart', status: 'alarmExportStatus', download: 'alarmExportDownload' }}
              request={request}
            />
          </Space>
        </Space>
      </Card>
      <Card size="small">
        {!data ? (
          <Skeleton active paragraph={{ rows: 4 }} />
        ) : (
          <Row gutter={16}>
            <Col xs={24} md={6}>
              <Space direction="vertical">
                <Statistic title={t('report.events')} value={data.totals.events} data-testid="alarm-report-events" />
                <Statistic title={t('fig.meanAck')} value={secs(data.totals.meanAckSec)} />
                <Statistic title={t('fig.meanClose')} value={secs(data.totals.meanCloseSec)} />
              </Space>
            </Col>
            <Col xs={24} md={18}>
              {data.totals.events === 0 ? (
                <Empty description={t('report.empty')} image={Empty.PRESENTED_IMAGE_SIMPLE} />
              ) : (
                <Suspense fallback={<Skeleton active paragraph={{ rows: 4 }} />}>
                  <AlarmChart days={data.days} />
                </Suspense>
              )}
            </Col>
          </Row>
        )}
      </Card>
      <Card size="small" title={t('report.perRegion')}>
        <Table<Durations & { name: string }>
          size="small"
          rowKey="name"
          loading={report.isLoading}
          dataSource={data?.regions ?? []}
          columns={columns({ key: 'name', title: t('col.regions') })}
          pagination={false}
        />
      </Card>
      <Card size="small" title={t('report.perDevice')}>
        <Table<Durations & { deviceId: string; name: string }>
          size="small"
          rowKey="deviceId"
          loading={report.isLoading}
          dataSource={data?.devices ?? []}
          columns={columns({ key: 'name', title: t('col.device') })}
          pagination={{ pageSize: 20 }}
        />
      </Card>
    </Space>
  );
}
