import { theme } from 'antd';
import { useEffect, useRef } from 'react';

export interface ChartSeries {
  name: string;
  type: 'bar' | 'line';
  data: number[];
}

/**
 * A report chart over categories (days, hours): bars and lines with a legend (ECharts, loaded
 * on first use). `label` describes the chart for screen readers (ECharts' aria description).
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
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    let disposed = false;
    let dispose = () => {};
    const colors = [token.colorPrimary, token.colorWarning, token.colorSuccess];
    void import('./echartsReport')
      .then(({ echarts }) => {
        if (disposed) return;
        const chart = echarts.init(el, undefined, { renderer: 'svg' });
        chart.setOption({
          aria: { enabled: true, label: { description: label } },
          legend: { top: 0, textStyle: { color: token.colorTextSecondary } },
          grid: { left: 8, right: 8, top: 32, bottom: 4, containLabel: true },
          tooltip: { trigger: 'axis' },
          xAxis: {
            type: 'category',
            data: categories,
            axisTick: { show: false },
            axisLine: { lineStyle: { color: token.colorBorder } },
            axisLabel: { color: token.colorTextSecondary },
          },
          yAxis: {
            type: 'value',
            minInterval: 1,
            splitLine: { lineStyle: { color: token.colorBorderSecondary } },
            axisLabel: { color: token.colorTextSecondary },
          },
          series: series.map((s, i) => ({
            ...s,
            barMaxWidth: 22,
            itemStyle: { color: colors[i % colors.length] },
            ...(s.type === 'line' ? { symbolSize: 6 } : {}),
          })),
        });
        const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(() => chart.resize());
        observer?.observe(el);
        dispose = () => {
          observer?.disconnect();
          chart.dispose();
        };
      })
      .catch((err: unknown) => console.warn('[reports] chart failed', err));
    return () => {
      disposed = true;
      dispose();
    };
  }, [categories, series, label, token]);
  return <div ref={ref} className="mq-report-chart" data-testid={testId} />;
}
