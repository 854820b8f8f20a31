import { PrinterOutlined } from '@ant-design/icons';
import type { AdReportDeviceRow, AdReportDetail as Detail, Endpoints, Req } from '@marquee/protocol';
import {
  Alert,
  Button,
  Card,
  Checkbox,
  Col,
  DatePicker,
  Descriptions,
  Empty,
  Row,
  Skeleton,
  Space,
  Statistic,
  Table,
  Tag,
} from 'antd';
import { lazy, Suspense, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useCallQuery } from '../../api/queries';
import { dayRangeValue } from '../../components/dateRange';
import { ListTable } from '../../components/ListTable';
import { useListPage } from '../../components/listPage';
import { ReportZoneNote } from '../../components/ReportZoneNote';
import { AdEvidence } from '../monitoring/AdEvidence';
import { fromFirstExpected } from './chartAxes';
import { deliveryCell, pctText, playColumns, playTime, ReportExportButton } from './look';
import './reports.css';

const ReportChart = lazy(() => import('./ReportChart'));

/**
 * One ad's report (/report/adDetail and /advert/reportDetail; read-only at /adReport): the
 * KPIs, plays against expected plays per day, the devices with their delivery (under-delivered
 * tagged), the materials and the hourly profile, over a range of UTC days. `readOnly` (the
 * advertiser's printable report) leaves out the export and offers printing.
 */
export function AdReportDetail({ readOnly = false }: { readOnly?: boolean }) {
  const { t } = useTranslation(['reports', 'ads']);
  const [params] = useSearchParams();
  const id = params.get('id') ?? '';
  // The devices' table is its own paged call (a campaign has thousands of screens), so paging
  // or sorting it leaves the figures, days, materials and hours as they are. The range and
  // "under-delivered only" are set by the controls in the cards' headers.
  const list = useListPage({
    id: 'adReportDevices',
    endpoint: 'reportAdDevices',
    defaultSize: 20,
    enabled: Boolean(id),
    filters: [
      { key: 'range', kind: 'range', from: 'from', to: 'to', label: t('field.range') },
      { key: 'underOnly', kind: 'check', label: t('underOnly'), param: () => true },
    ],
    request: (filters, page) => ({ id, ...page, ...filters }) as Req<Endpoints['reportAdDevices']>,
    operationsLabel: t('actions'),
    columns: [
      { prop: 'number', label: t('field.deviceNumber'), width: 150, ellipsis: true },
      { prop: 'name', label: t('field.deviceName'), width: 180, ellipsis: true },
      ...playColumns<AdReportDeviceRow>(t),
      {
        prop: 'expected',
        label: t('field.expected'),
        width: 120,
        align: 'right',
        showThousands: true,
        sortable: true,
      },
      {
        prop: 'deliveryPct',
        label: t('field.delivery'),
        width: 170,
        align: 'right',
        sortable: true,
        slot: (_v: number | null, row) => deliveryCell(t, row),
      },
    ],
    operations: [],
  });
  const { from, to } = list.state.filters;
  const detail = useCallQuery('reportAdDetail', { id, from, to }, { enabled: Boolean(id), keepPrevious: true });
  const d = detail.data;

  const charts = useMemo(() => {
    const days = d?.days ?? [];
    return {
      days: {
        categories: days.map((p) => p.day.slice(5)),
        series: [
          { name: t('field.plays'), type: 'bar' as const, data: days.map((p) => p.plays) },
          { name: t('field.expected'), type: 'line' as const, data: fromFirstExpected(days.map((p) => p.expected)) },
        ],
      },
      hours: {
        categories: (d?.hours ?? []).map((h) => String(h.hour).padStart(2, '0')),
        series: [{ name: t('field.plays'), type: 'bar' as const, data: (d?.hours ?? []).map((h) => h.plays) }],
      },
    };
  }, [d, t]);

  if (!id) return <Empty description={t('noAd')} data-testid="ad-report-detail-empty" />;
  if (detail.isError && !d) {
    return <Alert type="error" showIcon title={t('loadFailed')} data-testid="ad-report-detail-error" />;
  }
  if (!d) return <Skeleton active paragraph={{ rows: 8 }} />;

  const chart = (c: typeof charts.days, label: string, testId: string) => (
    <Suspense fallback={<Skeleton active paragraph={{ rows: 4 }} />}>
      <ReportChart categories={c.categories} series={c.series} label={label} testId={testId} />
    </Suspense>
  );

  return (
    <div className={`mq-view mq-reports${readOnly ? ' mq-report-print' : ''}`} data-testid="ad-report-detail">
      <Card
        size="small"
        style={{ marginBottom: 12 }}
        title={`${d.ad.name} · ${d.ad.number}`}
        extra={
          <Space className="mq-no-print">
            <DatePicker.RangePicker
              allowEmpty={[true, true]}
              value={dayRangeValue(d.from, d.to)}
              onChange={(range) => list.search({ ...list.values, range })}
              data-testid="ad-report-detail-range"
            />
            {readOnly ? (
              <Button icon={<PrinterOutlined />} onClick={() => window.print()} data-testid="ad-report-print">
                {t('print')}
              </Button>
            ) : (
              <ReportExportButton
                testId="ad-report-detail-export"
                start="reportAdDetailExportStart"
                request={{ id, from, to }}
              />
            )}
          </Space>
        }
      >
        <Descriptions size="small" column={{ xs: 1, md: 3 }} style={{ marginBottom: 12 }}>
          <Descriptions.Item label={t('field.type')}>{t(`ads:type.${d.ad.type}`)}</Descriptions.Item>
          <Descriptions.Item label={t('field.status')}>{t(`ads:status.${d.ad.status}`)}</Descriptions.Item>
          <Descriptions.Item label={t('field.plan')}>{d.ad.planName}</Descriptions.Item>
          <Descriptions.Item label={t('field.strategy')}>
            {`${t(`ads:strategy.${d.ad.strategy}`)} · ${d.ad.playsMin}–${d.ad.playsMax}`}
          </Descriptions.Item>
          <Descriptions.Item label={t('field.range')}>
            {t('rangeIn', { from: d.from, to: d.to, zone: d.timeZone })}
            <ReportZoneNote from={d.from} zoneSince={d.zoneSince} />
          </Descriptions.Item>
        </Descriptions>
        <Row gutter={[16, 16]} className="mq-report-kpis">
          <Kpi label={t('field.plays')} value={d.totals.plays} testId="kpi-plays" />
          <Kpi label={t('field.playTime')} value={playTime(d.totals.durationMs)} testId="kpi-play-time" />
          <Kpi label={t('field.devices')} value={d.totals.devices} testId="kpi-devices" />
          <Kpi label={t('field.expected')} value={d.totals.expected} testId="kpi-expected" />
          <Kpi
            label={t('field.delivery')}
            value={pctText(d.totals.deliveryPct)}
            testId="kpi-delivery"
            extra={d.totals.underDelivered ? <Tag color="error">{t('under')}</Tag> : null}
          />
          <Kpi label={t('field.fullRate')} value={pctText(d.totals.fullRate)} testId="kpi-full-rate" />
        </Row>
      </Card>
      <Row gutter={12}>
        <Col xs={24} lg={14}>
          <Card size="small" style={{ marginBottom: 12 }} title={t('daily')}>
            {chart(charts.days, t('daily'), 'ad-report-daily-chart')}
          </Card>
        </Col>
        <Col xs={24} lg={10}>
          <Card
            size="small"
            style={{ marginBottom: 12 }}
            title={t('hourly', { from: d.hoursFrom, to: d.to, zone: d.timeZone })}
          >
            {chart(charts.hours, t('hourlyTitle'), 'ad-report-hourly-chart')}
          </Card>
        </Col>
      </Row>
      <Card
        size="small"
        className="mq-list-card"
        style={{ marginBottom: 12 }}
        title={t('byDevice')}
        extra={
          <Checkbox
            className="mq-no-print"
            checked={list.values.underOnly === true}
            onChange={(e) => list.search({ ...list.values, underOnly: e.target.checked })}
            data-testid="ad-report-under-only"
          >
            {t('underOnly')}
          </Checkbox>
        }
      >
        <ListTable
          config={list.config}
          query={list.query}
          state={list.state}
          rowKey="deviceId"
          rowTestId={(row) => `ad-report-device-${row.number}`}
          empty={t('noDevices')}
          showTotal={(total) => t('devicesTotal', { count: total })}
        />
      </Card>
      <Card size="small" title={t('byMaterial')}>
        <Table<Detail['materials'][number]>
          size="small"
          rowKey="materialId"
          pagination={false}
          dataSource={d.materials}
          locale={{ emptyText: t('noPlays') }}
          columns={[
            { dataIndex: 'name', title: t('field.material'), render: (v: string, r) => v || r.materialId || '—' },
            { dataIndex: 'plays', title: t('field.plays'), align: 'right' },
            { dataIndex: 'durationMs', title: t('field.playTime'), align: 'right', render: (v: number) => playTime(v) },
          ]}
        />
      </Card>
      <AdEvidence adId={id} />
    </div>
  );
}

function Kpi({
  label,
  value,
  testId,
  extra,
}: {
  label: string;
  value: number | string;
  testId: string;
  extra?: React.ReactNode;
}) {
  return (
    <Col xs={12} md={8} xl={4} data-testid={testId}>
      <Statistic title={label} value={value} suffix={extra} />
    </Col>
  );
}

/** /report/adDetail and /advert/reportDetail. */
export default function AdReportDetailPage() {
  return <AdReportDetail />;
}
