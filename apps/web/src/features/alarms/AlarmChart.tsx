import { theme } from 'antd';
import type { EChartsCoreOption } from 'echarts/core';
import { useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { categoryAxis, useEChart } from '../../components/useEChart';

const loadReportCharts = () => import('../reports/echartsReport');

/** Alarm events and closed events a day (the report pages' ECharts parts). */
export default function AlarmChart({ days }: { days: readonly { day: string; events: number; closed: number }[] }) {
  const { t } = useTranslation('alarms');
  const { token } = theme.useToken();
  const ref = useRef<HTMLDivElement>(null);
  const option = useMemo<EChartsCoreOption>(
    () => ({
      aria: { enabled: true, label: { description: t('report.chart') } },
      grid: { left: 8, right: 8, top: 24, bottom: 4, containLabel: true },
      tooltip: { trigger: 'axis' },
      xAxis: categoryAxis(
        days.map((p) => p.day.slice(5)),
        token,
      ),
      yAxis: {
        type: 'value',
        minInterval: 1,
        axisLabel: { color: token.colorTextSecondary },
        splitLine: { lineStyle: { color: token.colorBorderSecondary } },
      },
      series: [
        {
          type: 'bar',
          name: t('report.events'),
          barMaxWidth: 22,
          itemStyle: { color: token.colorError },
          data: days.map((p) => p.events),
        },
        {
          type: 'bar',
          name: t('report.closed'),
          barMaxWidth: 22,
          itemStyle: { color: token.colorSuccess },
          data: days.map((p) => p.closed),
        },
      ],
    }),
    [days, t, token],
  );
  useEChart(ref, loadReportCharts, option, 'alarms');
  return <div ref={ref} style={{ height: 240, width: '100%' }} data-testid="alarm-chart" />;
}
