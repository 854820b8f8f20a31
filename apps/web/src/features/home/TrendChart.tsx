import type { TrendPoint } from '@marquee/protocol';
import { theme } from 'antd';
import { useMemo, useRef } from 'react';
import { useBarChart } from './useBarChart';

/** The day as the chart's axis shows it: MM-DD. */
export function axisLabel(date: string): string {
  return date.slice(5);
}

/**
 * A bar chart of a trend, one bar per day (ECharts, loaded on first use). `label` names the
 * series for the tooltip and for screen readers (ECharts' aria description).
 */
export default function TrendChart({ points, label, figure }: { points: TrendPoint[]; label: string; figure: string }) {
  const ref = useRef<HTMLDivElement>(null);
  const { token } = theme.useToken();
  const categories = useMemo(() => points.map((p) => axisLabel(p.date)), [points]);
  const series = useMemo(
    () => [{ name: label, data: points.map((p) => p.value), color: token.colorPrimary, rounded: true }],
    [points, label, token.colorPrimary],
  );
  useBarChart(ref, { label, categories, series, barMaxWidth: 22, integer: true }, 'home');
  return <div ref={ref} className="mq-home-chart" data-testid={`home-trend-chart-${figure}`} />;
}
