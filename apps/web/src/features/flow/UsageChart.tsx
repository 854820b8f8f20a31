import { formatSize } from '@marquee/protocol';
import { theme } from 'antd';
import { useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { categoryAxis, useEChart } from '../../components/useEChart';
import { chartUnit } from './look';

const loadFlowCharts = () => import('./echartsFlow');

export type UsageChartKind = 'line' | 'bar';

/**
 * The data used per day as a line or bars (ECharts, loaded on first use): the axis in the unit
 * the largest day reads best in (Bytes..TB), the tooltip in the shared size format.
 */
export default function UsageChart({
  series,
  kind,
}: {
  series: readonly { day: string; bytes: number }[];
  kind: UsageChartKind;
}) {
  const { t } = useTranslation('flow');
  const { token } = theme.useToken();
  const ref = useRef<HTMLDivElement>(null);
  const option = useMemo(() => {
    const { unit, divisor } = chartUnit(Math.max(0, ...series.map((s) => s.bytes)));
    return {
      aria: { enabled: true, label: { description: t('report.chartLabel') } },
      grid: { left: 8, right: 16, top: 32, bottom: 4, containLabel: true },
      tooltip: {
        trigger: 'axis',
        valueFormatter: (v: number) => formatSize(Math.round(Number(v) * divisor)),
      },
      xAxis: categoryAxis(
        series.map((s) => s.day),
        token,
      ),
      yAxis: {
        type: 'value',
        name: unit,
        nameTextStyle: { color: token.colorTextSecondary },
        splitLine: { lineStyle: { color: token.colorBorderSecondary } },
        axisLabel: { color: token.colorTextSecondary },
      },
      series: [
        {
          type: kind,
          name: t('report.used'),
          data: series.map((s) => Math.round((s.bytes / divisor) * 100) / 100),
          barMaxWidth: 22,
          symbolSize: 6,
          smooth: false,
          itemStyle: { color: token.colorPrimary },
          ...(kind === 'line' ? { areaStyle: { color: token.colorPrimaryBg } } : {}),
        },
      ],
    };
  }, [series, kind, t, token]);
  useEChart(ref, loadFlowCharts, option, 'flow');
  return <div ref={ref} className="mq-flow-chart" data-testid="flow-chart" data-kind={kind} />;
}
