import type { TrendPoint } from '@marquee/protocol';
import { theme } from 'antd';
import { useEffect, useRef } from 'react';

/** The day as the chart's axis shows it: MM-DD. */
export function axisLabel(date: string): string {
  return date.slice(5);
}

/**
 * A bar chart of a trend, one bar per day (ECharts, loaded on first use). `label` names the
 * series for the tooltip and for screen readers (ECharts' aria description).
 */
export default function TrendChart({ points, label }: { points: TrendPoint[]; label: string }) {
  const ref = useRef<HTMLDivElement>(null);
  const { token } = theme.useToken();
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    let disposed = false;
    let dispose = () => {};
    void import('./echartsBar')
      .then(({ echarts }) => {
        if (disposed) return;
        const chart = echarts.init(el, undefined, { renderer: 'svg' });
        chart.setOption({
          aria: { enabled: true, label: { description: label } },
          grid: { left: 8, right: 8, top: 16, bottom: 4, containLabel: true },
          tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
          xAxis: {
            type: 'category',
            data: points.map((p) => axisLabel(p.date)),
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
          series: [
            {
              type: 'bar',
              name: label,
              data: points.map((p) => p.value),
              barMaxWidth: 22,
              itemStyle: { color: token.colorPrimary, borderRadius: [3, 3, 0, 0] },
            },
          ],
        });
        const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(() => chart.resize());
        observer?.observe(el);
        dispose = () => {
          observer?.disconnect();
          chart.dispose();
        };
      })
      .catch((err: unknown) => console.warn('[home] chart failed', err));
    return () => {
      disposed = true;
      dispose();
    };
  }, [points, label, token]);
  return <div ref={ref} className="mq-home-chart" data-testid="home-trend-chart" />;
}
