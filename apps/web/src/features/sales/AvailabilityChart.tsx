import { theme } from 'antd';
import type { EChartsCoreOption } from 'echarts/core';
import { useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { categoryAxis, useEChart } from '../../components/useEChart';

/** The report charts' ECharts parts (bar, line, legend): one chunk, loaded on first use. */
export const loadSalesCharts = () => import('../reports/echartsReport');

export interface AvailabilityBucket {
  at: string;
  booked: number;
  held: number;
  available: number;
  fillRate: number;
}

/** A bucket's axis label: the day, or the hour (MM-DD HH:00) of an hourly series: the availability grid's day and hour, not an instant. */
export function bucketLabel(at: string, granularity: 'hour' | 'day'): string {
  if (granularity === 'day') return at.slice(0, 10);
  return `${at.slice(5, 10)} ${at.slice(11, 13)}:00`;
}

/**
 * Booked, held and available rotations per day (or per hour) as stacked bars, with the fill
 * rate as a line on its own axis (percent). ECharts is loaded on first use.
 */
export default function AvailabilityChart({
  series,
  granularity,
}: {
  series: readonly AvailabilityBucket[];
  granularity: 'hour' | 'day';
}) {
  const { t } = useTranslation('sales');
  const { token } = theme.useToken();
  const ref = useRef<HTMLDivElement>(null);
  const option = useMemo<EChartsCoreOption>(() => {
    const bar = (name: string, key: 'booked' | 'held' | 'available', color: string) => ({
      type: 'bar',
      name,
      stack: 'rotations',
      barMaxWidth: 22,
      itemStyle: { color },
      data: series.map((s) => s[key]),
    });
    return {
      aria: { enabled: true, label: { description: t('availability.chartLabel') } },
      grid: { left: 8, right: 8, top: 40, bottom: 4, containLabel: true },
      legend: { top: 0, textStyle: { color: token.colorTextSecondary } },
      tooltip: { trigger: 'axis' },
      xAxis: categoryAxis(
        series.map((s) => bucketLabel(s.at, granularity)),
        token,
      ),
      yAxis: [
        {
          type: 'value',
          name: t('availability.rotations'),
          minInterval: 1,
          nameTextStyle: { color: token.colorTextSecondary },
          splitLine: { lineStyle: { color: token.colorBorderSecondary } },
          axisLabel: { color: token.colorTextSecondary },
        },
        {
          type: 'value',
          name: '%',
          min: 0,
          max: 100,
          nameTextStyle: { color: token.colorTextSecondary },
          splitLine: { show: false },
          axisLabel: { color: token.colorTextSecondary },
        },
      ],
      series: [
        bar(t('availability.booked'), 'booked', token.colorPrimary),
        bar(t('availability.held'), 'held', token.colorWarning),
        bar(t('availability.available'), 'available', token.colorSuccessBg),
        {
          type: 'line',
          name: t('availability.fillRate'),
          yAxisIndex: 1,
          symbolSize: 5,
          itemStyle: { color: token.colorError },
          data: series.map((s) => s.fillRate),
          tooltip: { valueFormatter: (v: number) => `${v}%` },
        },
      ],
    };
  }, [series, granularity, t, token]);
  useEChart(ref, loadSalesCharts, option, 'sales');
  return <div ref={ref} style={{ height: 240, width: '100%' }} data-testid="sales-availability-chart" />;
}
