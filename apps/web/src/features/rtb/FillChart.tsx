import { fenToYuan } from '@marquee/protocol';
import { theme } from 'antd';
import type { EChartsCoreOption } from 'echarts/core';
import { useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { categoryAxis, useEChart } from '../../components/useEChart';
import { loadSalesCharts } from '../sales/AvailabilityChart';

export interface FillPoint {
  name: string;
  fillRate: number;
  avgClearingCpm: number | null;
}

/**
 * The fill-rate report's chart: the fill rate (percent) per slot, screen or hour as bars, and
 * the average clearing CPM (yuan per thousand impressions) as a line on its own axis.
 */
export default function FillChart({ rows }: { rows: readonly FillPoint[] }) {
  const { t } = useTranslation('rtb');
  const { token } = theme.useToken();
  const ref = useRef<HTMLDivElement>(null);
  const option = useMemo<EChartsCoreOption>(() => {
    const axis = (name: string, extra: object = {}) => ({
      type: 'value',
      name,
      nameTextStyle: { color: token.colorTextSecondary },
      axisLabel: { color: token.colorTextSecondary },
      ...extra,
    });
    return {
      aria: { enabled: true, label: { description: t('fill.chartLabel') } },
      grid: { left: 8, right: 8, top: 40, bottom: 4, containLabel: true },
      legend: { top: 0, textStyle: { color: token.colorTextSecondary } },
      tooltip: { trigger: 'axis' },
      xAxis: categoryAxis(
        rows.map((r) => r.name),
        token,
      ),
      yAxis: [
        axis('%', { min: 0, max: 100, splitLine: { lineStyle: { color: token.colorBorderSecondary } } }),
        // The unit's name sits at the axis' end, right-aligned, so it stays inside the chart.
        axis(t('fill.cpmAxis'), {
          splitLine: { show: false },
          nameTextStyle: { color: token.colorTextSecondary, align: 'right' },
        }),
      ],
      series: [
        {
          type: 'bar',
          name: t('fill.fillRate'),
          barMaxWidth: 22,
          itemStyle: { color: token.colorPrimary },
          data: rows.map((r) => Math.round(r.fillRate * 1000) / 10),
          tooltip: { valueFormatter: (v: number) => `${v}%` },
        },
        {
          type: 'line',
          name: t('fill.avgClearingCpm'),
          yAxisIndex: 1,
          symbolSize: 5,
          connectNulls: true,
          itemStyle: { color: token.colorWarning },
          data: rows.map((r) => (r.avgClearingCpm === null ? null : Number(fenToYuan(r.avgClearingCpm)))),
        },
      ],
    };
  }, [rows, t, token]);
  useEChart(ref, loadSalesCharts, option, 'rtb');
  return <div ref={ref} style={{ height: 260, width: '100%' }} data-testid="rtb-fill-chart" />;
}
