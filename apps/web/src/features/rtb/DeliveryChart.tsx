import { fenToYuan } from '@marquee/protocol';
import { theme } from 'antd';
import type { EChartsCoreOption } from 'echarts/core';
import { useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { categoryAxis, useEChart } from '../../components/useEChart';
import { bucketLabel, loadSalesCharts } from '../sales/AvailabilityChart';

export interface DeliveryPoint {
  at: string;
  wins: number;
  plays: number;
  spend: number;
}

/**
 * A campaign's delivery per day (or hour): the spend in yuan as bars, the turns won and the
 * plays billed as lines on their own axis. ECharts is loaded on first use (the sales charts' chunk).
 */
export default function DeliveryChart({
  series,
  granularity,
}: {
  series: readonly DeliveryPoint[];
  granularity: 'hour' | 'day';
}) {
  const { t } = useTranslation('rtb');
  const { token } = theme.useToken();
  const ref = useRef<HTMLDivElement>(null);
  const option = useMemo<EChartsCoreOption>(() => {
    const axis = (name: string, extra: object = {}) => ({
      type: 'value',
      name,
      nameTextStyle: { color: token.colorTextSecondary },
      axisLabel: { color: token.colorTextSecondary },
      ...extra,
    });
    const line = (name: string, key: 'wins' | 'plays', color: string) => ({
      type: 'line',
      name,
      yAxisIndex: 1,
      symbolSize: 5,
      itemStyle: { color },
      data: series.map((s) => s[key]),
    });
    return {
      aria: { enabled: true, label: { description: t('delivery.chartLabel') } },
      grid: { left: 8, right: 8, top: 40, bottom: 4, containLabel: true },
      legend: { top: 0, textStyle: { color: token.colorTextSecondary } },
      tooltip: { trigger: 'axis' },
      xAxis: categoryAxis(
        series.map((s) => bucketLabel(s.at, granularity)),
        token,
      ),
      yAxis: [
        axis(t('delivery.yuan'), { splitLine: { lineStyle: { color: token.colorBorderSecondary } } }),
        axis(t('delivery.count'), { minInterval: 1, splitLine: { show: false } }),
      ],
      series: [
        {
          type: 'bar',
          name: t('delivery.spend'),
          barMaxWidth: 22,
          itemStyle: { color: token.colorPrimary },
          data: series.map((s) => Number(fenToYuan(s.spend))),
        },
        line(t('delivery.wins'), 'wins', token.colorWarning),
        line(t('delivery.plays'), 'plays', token.colorSuccess),
      ],
    };
  }, [series, granularity, t, token]);
  useEChart(ref, loadSalesCharts, option, 'rtb');
  return <div ref={ref} style={{ height: 240, width: '100%' }} data-testid="rtb-delivery-chart" />;
}
