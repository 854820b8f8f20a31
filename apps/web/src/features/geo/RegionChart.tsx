import type { RegionStat } from '@marquee/protocol';
import { theme } from 'antd';
import { useEffect, useRef } from 'react';

/**
 * Devices per region as stacked bars, online and not online (ECharts, loaded on first use);
 * a click on a bar drills down like the table's region link. `labels` name the two series
 * for the legend, the tooltip and screen readers.
 */
export default function RegionChart({
  regions,
  labels,
  description,
  onPick,
}: {
  regions: RegionStat[];
  labels: { online: string; offline: string };
  description: string;
  onPick?: (code: string) => void;
}) {
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
        const shown = regions.slice(0, 20);
        chart.setOption({
          aria: { enabled: true, label: { description } },
          grid: { left: 8, right: 8, top: 32, bottom: 4, containLabel: true },
          legend: { top: 0, textStyle: { color: token.colorTextSecondary } },
          tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
          xAxis: {
            type: 'category',
            data: shown.map((r) => r.name),
            axisTick: { show: false },
            axisLine: { lineStyle: { color: token.colorBorder } },
            axisLabel: { color: token.colorTextSecondary, interval: 0, rotate: shown.length > 8 ? 30 : 0 },
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
              name: labels.online,
              stack: 'devices',
              data: shown.map((r) => r.online),
              barMaxWidth: 28,
              itemStyle: { color: token.colorSuccess },
            },
            {
              type: 'bar',
              name: labels.offline,
              stack: 'devices',
              data: shown.map((r) => r.devices - r.online),
              barMaxWidth: 28,
              itemStyle: { color: token.colorTextQuaternary, borderRadius: [3, 3, 0, 0] },
            },
          ],
        });
        chart.on('click', (p: { dataIndex?: number }) => {
          const region = p.dataIndex === undefined ? undefined : shown[p.dataIndex];
          if (region) onPick?.(region.code);
        });
        const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(() => chart.resize());
        observer?.observe(el);
        dispose = () => {
          observer?.disconnect();
          chart.dispose();
        };
      })
      .catch((err: unknown) => console.warn('[deviceMap] chart failed', err));
    return () => {
      disposed = true;
      dispose();
    };
  }, [regions, labels, description, token, onPick]);
  return <div ref={ref} className="mq-region-chart" data-testid="region-chart" />;
}
