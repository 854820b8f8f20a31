import { theme } from 'antd';
import type { EChartsCoreOption } from 'echarts/core';
import { useMemo, useRef } from 'react';
import { categoryAxis, useEChart } from '../../components/useEChart';

const loadReportCharts = () => import('./echartsReport');

/** One bar series of a day chart: its name, its colour and a value per day. */
export interface DailyBars {
  name: string;
  color: string;
  values: readonly number[];
}

/**
 * Counts per day as bars over a range (the report pages' ECharts parts, loaded lazily): days
 * labelled MM-DD, whole numbers on the value axis, one bar series per entry of `bars`.
 */
export function DailyBarChart({
  days,
  bars,
  label,
  height,
  chartKey,
  testId,
}: {
  days: readonly string[];
  bars: readonly DailyBars[];
  /** What the chart shows, for screen readers. */
  label: string;
  height: number;
  /** useEChart's key (the chart's instance). */
  chartKey: string;
  testId: string;
}) {
  const { token } = theme.useToken();
  const ref = useRef<HTMLDivElement>(null);
  const option = useMemo<EChartsCoreOption>(
    () => ({
      aria: { enabled: true, label: { description: label } },
      grid: { left: 8, right: 8, top: 24, bottom: 4, containLabel: true },
      tooltip: { trigger: 'axis' },
      xAxis: categoryAxis(
        days.map((d) => d.slice(5)),
        token,
      ),
      yAxis: {
        type: 'value',
        minInterval: 1,
        axisLabel: { color: token.colorTextSecondary },
        splitLine: { lineStyle: { color: token.colorBorderSecondary } },
      },
      series: bars.map((b) => ({
        type: 'bar',
        name: b.name,
        barMaxWidth: 22,
        itemStyle: { color: b.color },
        data: b.values,
      })),
    }),
    [days, bars, label, token],
  );
  useEChart(ref, loadReportCharts, option, chartKey);
  return <div ref={ref} style={{ height, width: '100%' }} data-testid={testId} />;
}
