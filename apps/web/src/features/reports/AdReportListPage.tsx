import { AD_TYPES, type AdReportRow, Perm } from '@marquee/protocol';
import { Alert, Card, Skeleton, Typography } from 'antd';
import { lazy, Suspense, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { tagColumn } from '../../components/columns';
import { ListPage, useListPage } from '../../components/listPage';
import { ReportZoneNote } from '../../components/ReportZoneNote';
import { useCan } from '../../session/useCan';
import { usePlanOptions } from '../ads/plans';
import { fromFirstExpected } from './chartAxes';
import { deliveryCell, pctText, playColumns, ReportExportButton } from './look';
import './reports.css';

const ReportChart = lazy(() => import('./ReportChart'));

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
  const plans = usePlanOptions(can(Perm.advPlan));
  const open = (row: AdReportRow) => {
    const range = list.query.data ? `&from=${list.query.data.from}&to=${list.query.data.to}` : '';
    navigate(`${detailPath(pathname)}?id=${encodeURIComponent(row.adId)}${range}`);
  };

  const list = useListPage({
    id: 'adReport',
    endpoint: 'reportAdList',
    filters: [
      { key: 'keyword', label: t('field.keyword'), width: 180, testId: 'ad-report-keyword' },
      {
        key: 'type',
        kind: 'select',
        label: t('field.type'),
        width: 130,
        placeholder: t('all'),
        options: AD_TYPES.map((v) => ({ value: v, label: t(`ads:type.${v}`) })),
      },
      {
        key: 'planId',
        kind: 'select',
        label: t('field.plan'),
        hidden: !can(Perm.advPlan),
        showSearch: true,
        placeholder: t('all'),
        loading: plans.isFetching,
        options: plans.data ?? [],
      },
      { key: 'range', kind: 'range', from: 'from', to: 'to', label: t('field.range'), testId: 'ad-report-range' },
    ],
    operationsLabel: t('actions'),
    columns: [
      { prop: 'number', label: t('field.number'), width: 110 },
      { prop: 'name', label: t('field.name'), width: 200, ellipsis: true },
      tagColumn<AdReportRow>('type', t('field.type'), (v) => ({ text: t(`ads:type.${v}`) }), { width: 110 }),
      { prop: 'planName', label: t('field.plan'), width: 150, ellipsis: true, show: false },
      ...playColumns<AdReportRow>(t),
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
  });
  const report = list.query;

  const trend = report.data?.trend;
  const chart = useMemo(
    () => ({
      categories: (trend ?? []).map((p) => p.day.slice(5)),
      series: [
        { name: t('field.plays'), type: 'bar' as const, data: (trend ?? []).map((p) => p.plays) },
        {
          name: t('field.expected'),
          type: 'line' as const,
          data: fromFirstExpected((trend ?? []).map((p) => p.expected)),
        },
      ],
    }),
    [trend, t],
  );

  return (
    <ListPage
      list={list}
      testPrefix="ad-report"
      className="mq-reports"
      above={
        <Card
          size="small"
          style={{ marginBottom: 12 }}
          title={
            report.data ? (
              <span>
                {t('trend', { from: report.data.from, to: report.data.to, zone: report.data.timeZone })}
                <ReportZoneNote from={report.data.from} zoneSince={report.data.zoneSince} />
              </span>
            ) : (
              t('trendTitle')
            )
          }
        >
          {report.isError ? (
            <Alert type="error" showIcon title={t('loadFailed')} />
          ) : report.isPending ? (
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
      }
      title={t('adReport')}
      rowKey="adId"
      toolbar={<ReportExportButton testId="ad-report-export" start="reportAdListExportStart" request={list.request} />}
      rowTestId={(row) => `ad-report-row-${row.name}`}
      empty={t('empty')}
      failed={{ description: t('loadFailed'), retryLabel: t('retry') }}
      showTotal={(total) => t('total', { count: total })}
      below={
        <Typography.Paragraph type="secondary" style={{ marginTop: 8, marginBottom: 0 }}>
          {t('legend')}
        </Typography.Paragraph>
      }
    />
  );
}
