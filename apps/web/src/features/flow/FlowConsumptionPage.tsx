import { FLOW_REPORT_MAX_DAYS, formatSize, Perm, type usageRowSchema } from '@marquee/protocol';
import { Card, Col, DatePicker, Empty, Row, Segmented, Select, Skeleton, Statistic, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { lazy, Suspense, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { z } from 'zod';
import { useCallQuery } from '../../api/queries';
import { ExportButton } from '../../components/ExportDialog';
import { ListPage, useListPage } from '../../components/listPage';
import { DeviceSelect } from '../../components/pickers/DevicePicker';
import { useCan } from '../../session/useCan';
import { defaultRange, parseRange, rangeText } from './look';
import type { UsageChartKind } from './UsageChart';
import './flow.css';

const UsageChart = lazy(() => import('./UsageChart'));

type UsageRow = z.infer<typeof usageRowSchema>;

/**
 * The report's range as one filter (`?range=from~to`, days): the picker shows the range the
 * report reads (the last 30 days while none is chosen) and offers at most 366 days.
 */
function RangeField({ value, onChange }: { value?: string; onChange?: (next: string | undefined) => void }) {
  const [from, to] = parseRange(value) ?? defaultRange(new Date());
  const [first, setFirst] = useState<Dayjs | null>(null);
  const today = dayjs().endOf('day');
  return (
    <DatePicker.RangePicker
      value={[dayjs(from), dayjs(to)]}
      allowClear={false}
      onCalendarChange={(dates) => setFirst(dates?.[0] ?? null)}
      onOpenChange={(open) => {
        if (!open) setFirst(null);
      }}
      disabledDate={(day, info) => {
        if (day.isAfter(today)) return true;
        const start = info?.from ?? first;
        return Boolean(start && Math.abs(day.diff(start, 'day')) >= FLOW_REPORT_MAX_DAYS);
      }}
      onChange={(dates) => {
        if (dates?.[0] && dates[1]) onChange?.(rangeText(dates[0].format('YYYY-MM-DD'), dates[1].format('YYYY-MM-DD')));
      }}
      data-testid="flow-report-range"
    />
  );
}

/** Picks one card by its ICCID (searched on the server among the caller's cards). */
function CardSelect({
  value,
  onChange,
  known,
}: {
  value?: string;
  onChange?: (id: string | undefined) => void;
  /** Cards named beforehand (the report's rows), so a chosen one keeps its ICCID after a reload. */
  known: { current: Map<string, string> };
}) {
  const { t } = useTranslation('flow');
  const [search, setSearch] = useState('');
  const found = useCallQuery(
    'flowCardList',
    { page: 1, size: 50, ...(search.trim() ? { keyword: search.trim() } : {}) },
    { keepPrevious: true },
  );
  const seen = useRef(new Map<string, string>());
  for (const [id, iccid] of known.current) seen.current.set(id, iccid);
  for (const c of found.data?.data ?? []) seen.current.set(c.id, c.iccid);
  const options = (found.data?.data ?? []).map((c) => ({ value: c.id, label: c.iccid }));
  if (value && !options.some((o) => o.value === value))
    options.unshift({ value, label: seen.current.get(value) ?? value });
  return (
    <Select
      allowClear
      showSearch={{ filterOption: false, onSearch: setSearch }}
      value={value}
      onChange={(v) => {
        setSearch('');
        onChange?.(v);
      }}
      options={options}
      loading={found.isFetching}
      placeholder={t('filter.all')}
      notFoundContent={found.isFetching ? null : t('report.noCard')}
      style={{ width: 230 }}
      className="mq-flow-mono"
      aria-label={t('report.card')}
      data-testid="flow-report-filter-card"
    />
  );
}

/** The range's figures: the total, the average of a day, the busiest day. */
function Summary({
  series,
  totalBytes,
  loading,
}: {
  series: readonly { day: string; bytes: number }[];
  totalBytes: number;
  loading: boolean;
}) {
  const { t } = useTranslation('flow');
  if (loading) return <Skeleton active paragraph={{ rows: 1 }} />;
  const peak = series.reduce<{ day: string; bytes: number } | null>(
    (best, s) => (s.bytes > (best?.bytes ?? 0) ? s : best),
    null,
  );
  const average = series.length > 0 ? totalBytes / series.length : 0;
  return (
    <Row gutter={[16, 12]} className="mq-flow-summary">
      <Col xs={24} sm={8}>
        <Statistic title={t('report.total')} value={formatSize(totalBytes)} data-testid="flow-report-total" />
      </Col>
      <Col xs={24} sm={8}>
        <Statistic
          title={t('report.average', { count: series.length })}
          value={formatSize(Math.round(average))}
          data-testid="flow-report-average"
        />
      </Col>
      <Col xs={24} sm={8}>
        <Statistic
          title={peak ? t('report.peakOn', { day: peak.day }) : t('report.peak')}
          value={peak ? formatSize(peak.bytes) : '-'}
          data-testid="flow-report-peak"
        />
      </Col>
    </Row>
  );
}

/**
 * Data consumption (/report/flowConsumption; issue 27): the data the cards' devices used per
 * day in a range (default the last 30 days, at most 366), narrowed by keyword (ICCID or device),
 * card and device. The range's total, daily average and busiest day; the days as a line or
 * bars; the rows (day, ICCID, device, used; counted up to 10,000, then 'more than'); an Excel
 * export of the same filters with its progress.
 */
export default function FlowConsumptionPage() {
  const { t, i18n } = useTranslation('flow');
  const can = useCan();
  const canPickDevices = can(Perm.device);
  const canOpenDevice = can(Perm.deviceContext);
  const [kind, setKind] = useState<UsageChartKind>('line');
  // The cards and devices the report's rows name, for the filters' chosen values.
  const knownCards = useRef(new Map<string, string>());
  const knownDevices = useRef(new Map<string, string>());

  const list = useListPage({
    id: 'flowUsage',
    endpoint: 'flowUsageReport',
    defaultSize: 20,
    filters: [
      { key: 'range', kind: 'custom', label: t('report.range'), render: () => <RangeField /> },
      {
        key: 'keyword',
        label: t('filter.keyword'),
        placeholder: t('filter.keywordPlaceholder'),
        maxLength: 64,
        width: 200,
      },
      { key: 'cardId', kind: 'custom', label: t('report.card'), render: () => <CardSelect known={knownCards} /> },
      {
        key: 'deviceId',
        kind: 'custom',
        label: t('col.device'),
        hidden: !canPickDevices,
        render: () => (
          <DeviceSelect
            testId="flow-report-filter-device"
            known={[...knownDevices.current].map(([id, name]) => ({ id, name }))}
            allowClear
            placeholder={t('filter.all')}
            notFound={t('bind.noDevice')}
            style={{ width: 200 }}
            aria-label={t('col.device')}
          />
        ),
      },
    ],
    // The range is one URL key (`from~to`); without one the report reads the last 30 days.
    request: ({ range, ...filters }, page) => {
      const [from, to] = parseRange(range as string | undefined) ?? defaultRange(new Date());
      return {
        page: page.page,
        size: page.size,
        from,
        to,
        ...(filters as { keyword?: string; cardId?: string; deviceId?: string }),
      };
    },
    columns: [
      { prop: 'day', label: t('col.day'), width: 120 },
      {
        prop: 'iccid',
        label: t('col.iccid'),
        width: 230,
        slot: (v: string | null) =>
          v ? (
            <Typography.Text className="mq-flow-mono">{v}</Typography.Text>
          ) : (
            <Typography.Text type="secondary">{t('report.noCardRow')}</Typography.Text>
          ),
      },
      {
        prop: 'deviceName',
        label: t('col.device'),
        ellipsis: true,
        slot: (v: string, row: UsageRow) =>
          canOpenDevice ? (
            <Link to={`/device/context?id=${encodeURIComponent(row.deviceId)}`}>{v || row.deviceId}</Link>
          ) : (
            v || row.deviceId
          ),
      },
      { prop: 'bytes', label: t('report.used'), width: 140, align: 'right', slot: (v: number) => formatSize(v) },
    ],
  });

  const data = list.query.data;
  for (const row of data?.data ?? []) {
    if (row.cardId && row.iccid) knownCards.current.set(row.cardId, row.iccid);
    knownDevices.current.set(row.deviceId, row.deviceName);
  }
  const series = useMemo(() => data?.series ?? [], [data]);
  const loading = !data && list.query.isFetching;
  const capped = Boolean(data?.capped);

  const above = (
    <Card
      size="small"
      style={{ marginBottom: 12 }}
      title={t('report.daily')}
      extra={
        <Segmented<UsageChartKind>
          size="small"
          value={kind}
          onChange={setKind}
          options={[
            { value: 'line', label: t('report.line') },
            { value: 'bar', label: t('report.bar') },
          ]}
          aria-label={t('report.chartKind')}
          data-testid="flow-chart-kind"
        />
      }
      data-testid="flow-report-summary"
    >
      <Summary series={series} totalBytes={data?.totalBytes ?? 0} loading={loading} />
      {loading ? (
        <div className="mq-flow-chart" />
      ) : data && data.totalBytes > 0 ? (
        <Suspense fallback={<div className="mq-flow-chart" />}>
          <UsageChart series={series} kind={kind} />
        </Suspense>
      ) : (
        <Empty
          image={Empty.PRESENTED_IMAGE_SIMPLE}
          description={list.query.isError ? t('list.failed') : t('report.noUse')}
          data-testid="flow-chart-empty"
        />
      )}
    </Card>
  );

  return (
    <ListPage
      list={list}
      title={t('report.rows')}
      testPrefix="flow-report"
      className="mq-flow"
      above={above}
      rowKey={(row: UsageRow) => `${row.day}:${row.cardId ?? ''}:${row.deviceId}`}
      toolbar={
        <ExportButton
          ns="flow"
          testId="flow-export"
          calls={{
            start: 'flowUsageExportStart',
            status: 'flowUsageExportStatus',
            download: 'flowUsageExportDownload',
          }}
          request={list.request}
        />
      }
      rowTestId={() => 'flow-report-row'}
      empty={list.filtered ? t('report.emptyFiltered') : t('report.empty')}
      failed={{ description: t('list.failed'), retryLabel: t('action.retry') }}
      showTotal={(total) =>
        capped
          ? t('report.totalCapped', { count: total, max: total.toLocaleString(i18n.language) })
          : t('report.totalRows', { count: total })
      }
    />
  );
}
