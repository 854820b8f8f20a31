import { theme } from 'antd';
import type { EChartsCoreOption } from 'echarts/core';
import { useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { categoryAxis, useEChart } from '../../components/useEChart';

const loadReportCharts = () => import('../reports/echartsReport');

/** The QR code events' chart: scans a day over the range, as bars (the report pages' ECharts parts). */
export default function QrcodeChart({ series }: { series: readonly { day: string; scans: number }[] }) {
  const { t } = useTranslation('qrcode');
  const { token } = theme.useToken();
  const ref = useRef<HTMLDivElement>(null);
  const option = useMemo<EChartsCoreOption>(
    () => ({
      aria: { enabled: true, label: { description: t('chart.label') } },
      grid: { left: 8, right: 8, top: 24, bottom: 4, containLabel: true },
      tooltip: { trigger: 'axis' },
      xAxis: categoryAxis(
        series.map((p) => p.day.slice(5)),
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
          name: t('chart.scans'),
          barMaxWidth: 22,
          itemStyle: { color: token.colorPrimary },
          data: series.map((p) => p.scans),
        },
      ],
    }),
    [series, t, token],
  );
  useEChart(ref, loadReportCharts, option, 'qrcode');
  return <div ref={ref} style={{ height: 220, width: '100%' }} data-testid="qrcode-chart" />;
}
