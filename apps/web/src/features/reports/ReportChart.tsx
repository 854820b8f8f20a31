import { theme } from 'antd';
import { useMemo, useRef } from 'react';
import { categoryAxis, useEChart } from '../../components/useEChart';
import { type ChartSeries, seriesAxes } from './chartAxes';

export type { ChartSeries } from './chartAxes';

const loadReport = () => import('./echartsReport');

/**
 * A report chart over categories (days, hours): bars and lines with a legend (ECharts, loaded
 * on first use). `label` describes the chart for screen readers (ECharts' aria description).
 * A line far above the bars is drawn against its own axis on the right (chartAxes.ts).
 */
export default function ReportChart({
  categories,
  series,
  label,
  testId,
}: {
  categories: string[];
  series: ChartSeries[];
  label: string;
  testId: string;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const { token } = theme.useToken();
  const option = useMemo(() => {
    const colors = [token.colorPrimary, token.colorWarning, token.colorSuccess];
    const axes = seriesAxes(series);
    const axis = (own?: { name: string; color: string }) => ({
      type: 'value',
      minInterval: 1,
      splitLine: own ? { show: false } : { lineStyle: { color: token.colorBorderSecondary } },
      axisLabel: { color: own?.color ?? token.colorTextSecondary },
      ...(own ? { name: own.name, nameTextStyle: { color: own.color } } : {}),
    });
    const right = axes.indexOf(1);
    return {
      aria: { enabled: true, label: { description: label } },
      legend: { top: 0, textStyle: { color: token.colorTextSecondary } },
      grid: { left: 8, right: 8, top: right < 0 ? 32 : 48, bottom: 4, containLabel: true },
      tooltip: { trigger: 'axis' },
      xAxis: categoryAxis(categories, token),
      yAxis: right < 0 ? axis() : [axis(), axis({ name: series[right].name, color: colors[right % colors.length] })],
      series: series.map((s, i) => ({
        ...s,
        yAxisIndex: axes[i],
        barMaxWidth: 22,
        itemStyle: { color: colors[i % colors.length] },
        ...(s.type === 'line' ? { symbolSize: 6 } : {}),
      })),
    };
  }, [categories, series, label, token]);
  useEChart(ref, loadReport, option, 'reports');
  return <div ref={ref} className="mq-report-chart" data-testid={testId} />;
}
