import type { AudienceFigures } from '@marquee/protocol';
import { theme } from 'antd';
import { useEffect, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';

const GENDERS = ['male', 'female', 'unknown'] as const;

/**
 * The audience per age band (spec section 9), stacked by gender: ECharts, loaded on first use
 * (the home page's piecemeal bundle). A legend in the page names the colours; the figures
 * are also in the table beside it for screen readers.
 */
export default function AudienceChart({ figures }: { figures: AudienceFigures }) {
  const { t } = useTranslation('devicePlan');
  const ref = useRef<HTMLDivElement>(null);
  const { token } = theme.useToken();
  const colors = useMemo(
    () => [token.colorPrimary, token.colorWarning, token.colorTextQuaternary],
    [token.colorPrimary, token.colorWarning, token.colorTextQuaternary],
  );
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    let disposed = false;
    let dispose = () => {};
    void import('../home/echartsBar')
      .then(({ echarts }) => {
        if (disposed) return;
        const chart = echarts.init(el, undefined, { renderer: 'svg' });
        chart.setOption({
          aria: { enabled: true, label: { description: t('gather.chartLabel') } },
          grid: { left: 8, right: 8, top: 16, bottom: 4, containLabel: true },
          tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
          xAxis: {
            type: 'category',
            data: figures.bands.map((b) => b.band),
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
          series: GENDERS.map((gender, i) => ({
            type: 'bar',
            stack: 'people',
            name: t(`gender.${gender}`),
            data: figures.bands.map((b) => b[gender]),
            barMaxWidth: 36,
            itemStyle: { color: colors[i] },
          })),
        });
        const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(() => chart.resize());
        observer?.observe(el);
        dispose = () => {
          observer?.disconnect();
          chart.dispose();
        };
      })
      .catch((err: unknown) => console.warn('[gather] chart failed', err));
    return () => {
      disposed = true;
      dispose();
    };
  }, [figures, token, t, colors]);
  return (
    <div>
      <div ref={ref} className="mq-audience-chart" data-testid="gather-audience-chart" />
      <div className="mq-audience-legend" aria-hidden="true">
        {GENDERS.map((gender, i) => (
          <span key={gender}>
            <span className="mq-audience-swatch" style={{ background: colors[i] }} />
            {t(`gender.${gender}`)}
          </span>
        ))}
      </div>
    </div>
  );
}
