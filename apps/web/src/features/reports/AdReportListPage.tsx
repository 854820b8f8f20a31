import { AD_REPORT_SORT_KEYS, AD_TYPES, type AdReportRow, type AdType, Perm } from '@marquee/protocol';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Alert, Card, DatePicker, Form, Input, Select, Skeleton, Typography } from 'antd';
import { lazy, Suspense, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { call } from '../../api/client';
import { tagColumn } from '../../components/columns';
import { type DayRange, dayRangeParams, dayRangeValue } from '../../components/dateRange';
import { FilterBar } from '../../components/FilterBar';
import { ListTable } from '../../components/ListTable';
import { useUrlListState } from '../../components/listState';
import type { TableConfig } from '../../components/tableConfig';
import { useCan } from '../../session/useCan';
import { usePlanOptions } from '../ads/plans';
import { fromFirstExpected } from './chartAxes';
import { deliveryCell, pctText, playTime, ReportExportButton } from './look';
import { useSearchRound } from './searchRound';
import './reports.css';

const ReportChart = lazy(() => import('./ReportChart'));
const FILTER_KEYS = ['keyword', 'type', 'planId', 'from', 'to'] as const;

interface FilterValues {
  keyword?: string;
  type?: string;
  planId?: string;
  range?: DayRange;
}

/** The detail route of a list route: /report/ad -> /report/adDetail, /advert/report -> /advert/reportDetail. */
export function detailPath(pathname: string): string {
  return pathname.startsWith('/advert') ? '/advert/reportDetail' : '/report/adDetail';
}

/**
 * The ad report (/report/ad, and /advert/report for advertisers: one page, two routes): per ad
 * of the caller's scope, plays, play time, devices, expected plays, delivery and full rate over
 * a range of UTC days (the last 7 by default), the daily trend of plays against expected plays,
 * and the Excel export.
 */
export default function AdReportListPage() {
  const { t } = useTranslation(['reports', 'ads']);
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const can = useCan();
  const listState = useUrlListState(FILTER_KEYS, { sortKeys: AD_REPORT_SORT_KEYS });
  const { filters, pageRequest } = listState;
  const plans = usePlanOptions(can(Perm.advPlan));
  const { round, again } = useSearchRound();
  const request = {
    keyword: filters.keyword,
    type: filters.type as AdType | undefined,
    planId: filters.planId,
    from: filters.from,
    to: filters.to,
  };
  const list = useQuery({
    queryKey: ['reports', 'adList', pageRequest, filters, round],
    queryFn: ({ signal }) => call('reportAdList', { ...pageRequest, ...request }, { signal }),
    placeholderData: keepPreviousData,
  });
  const open = (row: AdReportRow) => {
    const range = list.data ? `&from=${list.data.from}&to=${list.data.to}` : '';
    navigate(`${detailPath(pathname)}?id=${encodeURIComponent(row.adId)}${range}`);
  };

  const config: TableConfig<AdReportRow> = {
    id: 'adReport',
    operationsLabel: t('actions'),
    columns: [
      { prop: 'number', label: t('field.number'), width: 110 },
      { prop: 'name', label: t('field.name'), width: 200, ellipsis: true },
      tagColumn('type', t('field.type'), (v) => ({ text: t(`ads:type.${v}`) }), { width: 110 }),
      { prop: 'planName', label: t('field.plan'), width: 150, ellipsis: true, show: false },
      { prop: 'plays', label: t('field.plays'), width: 110, align: 'right', showThousands: true, sortable: true },
      {
        prop: 'durationMs',
        label: t('field.playTime'),
        width: 120,
        align: 'right',
        sortable: true,
        slot: (v: number) => playTime(v),
      },
      { prop: 'devices', label: t('field.devices'), width: 100, align: 'right', showThousands: true, sortable: true },
      { prop: 'expected', label: t('field.expected'), width: 120, align: 'right', showThousands: true },
      {
        prop: 'deliveryPct',
        label: t('field.delivery'),
        width: 170,
        align: 'right',
        slot: (_v: number | null, row) => deliveryCell(t, row),
      },
      {
        prop: 'fullRate',
        label: t('field.fullRate'),
        width: 110,
        align: 'right',
        slot: (v: number | null) => pctText(v),
      },
    ],
    operations: [{ key: 'open', label: t('open'), handler: open, testId: (row) => `ad-report-open-${row.name}` }],
  };

  const filterValues = useMemo<FilterValues>(
    () => ({
      keyword: filters.keyword,
      type: filters.type,
      planId: filters.planId,
      range: dayRangeValue(filters.from, filters.to),
    }),
    [filters],
  );
  const search = (v: FilterValues) =>
    listState.applyFilters({
      keyword: v.keyword,
      type: v.type,
      planId: v.planId,
      ...dayRangeParams(v.range),
    });

  const trend = list.data?.trend ?? [];
  const chart = useMemo(
    () => ({
      categories: trend.map((p) => p.day.slice(5)),
      series: [
        { name: t('field.plays'), type: 'bar' as const, data: trend.map((p) => p.plays) },
        { name: t('field.expected'), type: 'line' as const, data: fromFirstExpected(trend.map((p) => p.expected)) },
      ],
    }),
    [trend, t],
  );

  return (
    <div className="mq-view mq-reports" data-testid="ad-report-page">
      <Card size="small" className="mq-filter-card" style={{ marginBottom: 12 }}>
        <FilterBar
          values={filterValues}
          onSearch={again(search)}
          onReset={again(listState.clearFilters)}
          testIds={{ search: 'ad-report-search', reset: 'ad-report-reset' }}
        >
          <Form.Item name="keyword" label={t('field.keyword')}>
            <Input allowClear style={{ width: 180 }} data-testid="ad-report-keyword" />
          </Form.Item>
          <Form.Item name="type" label={t('field.type')}>
            <Select
              allowClear
              style={{ width: 130 }}
              placeholder={t('all')}
              options={AD_TYPES.map((v) => ({ value: v, label: t(`ads:type.${v}`) }))}
            />
          </Form.Item>
          {can(Perm.advPlan) ? (
            <Form.Item name="planId" label={t('field.plan')}>
              <Select
                allowClear
                showSearch={{ optionFilterProp: 'label' }}
                style={{ width: 160 }}
                placeholder={t('all')}
                loading={plans.isFetching}
                options={plans.data ?? []}
              />
            </Form.Item>
          ) : null}
          <Form.Item name="range" label={t('field.rangeUtc')}>
            <DatePicker.RangePicker allowEmpty={[true, true]} data-testid="ad-report-range" />
          </Form.Item>
        </FilterBar>
      </Card>
      <Card
        size="small"
        style={{ marginBottom: 12 }}
        title={list.data ? t('trend', { from: list.data.from, to: list.data.to }) : t('trendTitle')}
      >
        {list.isError ? (
          <Alert type="error" showIcon title={t('loadFailed')} />
        ) : list.isPending ? (
          <Skeleton active paragraph={{ rows: 4 }} />
        ) : (
          <Suspense fallback={<Skeleton active paragraph={{ rows: 4 }} />}>
            <ReportChart
              categories={chart.categories}
              series={chart.series}
              label={t('trendTitle')}
              testId="ad-report-trend"
            />
          </Suspense>
        )}
      </Card>
      <Card size="small" className="mq-list-card" title={t('adReport')}>
        <ListTable
          config={config}
          query={list}
          state={listState}
          rowKey="adId"
          toolbar={
            <ReportExportButton
              testId="ad-report-export"
              start={() => call('reportAdListExportStart', { ...request, ...listSort(pageRequest) })}
            />
          }
          rowTestId={(row) => `ad-report-row-${row.name}`}
          empty={t('empty')}
          failed={{ description: t('loadFailed'), retryLabel: t('retry') }}
          showTotal={(total) => t('total', { count: total })}
        />
        <Typography.Paragraph type="secondary" style={{ marginTop: 8, marginBottom: 0 }}>
          {t('legend')}
        </Typography.Paragraph>
      </Card>
    </div>
  );
}

/** The sort of a page request, without its page (an export takes the list's order). */
function listSort<S extends string>(r: { sort?: S; order?: 'asc' | 'desc' }) {
  return r.sort ? { sort: r.sort, order: r.order } : {};
}
