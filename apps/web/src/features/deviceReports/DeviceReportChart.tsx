import { theme } from 'antd';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';

export interface ChartDay {
  day: string;
  plays: number;
  onlineSec: number;
  ads: number;
}

/**
 * A device's days as bars: plays, online hours and distinct ads (ECharts, loaded on first use
 * from the home page's piecemeal bundle). The same figures are in the table below it.
 */
export default function DeviceReportChart({ days }: { days: readonly ChartDay[] }) {
  const { t } = useTranslation('deviceReports');
  const ref = useRef<HTMLDivElement>(null);
  const { token } = theme.useToken();
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    let disposed = false;
    let dispose = () => {};
    void import('../home/echartsBar')
      .then(({ echarts }) => {
        if (disposed) return;
        const chart = echarts.init(el, undefined, { renderer: 'svg' });
        const series = [
          { name: t('chart.plays'), data: days.map((d) => d.plays), color: token.colorPrimary },
          {
            name: t('chart.online'),
            data: days.map((d) => Math.round((d.onlineSec / 3600) * 10) / 10),
            color: token.colorSuccess,
          },
          { name: t('chart.ads'), data: days.map((d) => d.ads), color: token.colorWarning },
        ];
        chart.setOption({
          aria: { enabled: true, label: { description: t('chart.label') } },
          grid: { left: 8, right: 8, top: 16, bottom: 4, containLabel: true },
          tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
          xAxis: {
            type: 'category',
            data: days.map((d) => d.day.slice(5)),
            axisTick: { show: false },
            axisLine: { lineStyle: { color: token.colorBorder } },
            axisLabel: { color: token.colorTextSecondary },
          },
          yAxis: {
            type: 'value',
            splitLine: { lineStyle: { color: token.colorBorderSecondary } },
            axisLabel: { color: token.colorTextSecondary },
          },
          series: series.map((s) => ({
            type: 'bar',
            name: s.name,
            data: s.data,
            barMaxWidth: 24,
            itemStyle: { color: s.color },
          })),
        });
        const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(() => chart.resize());
        observer?.observe(el);
        dispose = () => {
          observer?.disconnect();
          chart.dispose();
        };
      })
      .catch((err: unknown) => console.warn('[deviceReports] chart failed', err));
    return () => {
      disposed = true;
      dispose();
    };
  }, [days, token, t]);
  return <div ref={ref} className="mq-device-report-chart" data-testid="device-report-chart" />;
}
