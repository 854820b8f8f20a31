import { theme } from 'antd';
import { type RefObject, useMemo } from 'react';
import { categoryAxis, useEChart } from '../../components/useEChart';

const loadBar = () => import('./echartsBar');

/** One series of a bar chart. */
export interface BarSeries {
  name: string;
  data: readonly number[];
  color: string;
  /** Series with the same stack are stacked. */
  stack?: string;
  /** Rounded tops. */
  rounded?: boolean;
}

/**
 * A bar chart in the console's look (the home page's trend, the audience, the device report):
 * ECharts loaded on first use (echartsBar, a chunk of its own; useEChart), one category axis,
 * themed axes, a tooltip per category, `label` as the screen readers' description; resized
 * with its element and disposed with the component. `categories` and `series` should be
 * memoized: a new array draws the chart again.
 */
export function useBarChart(
  ref: RefObject<HTMLDivElement | null>,
  chart: {
    label: string;
    categories: readonly string[];
    series: readonly BarSeries[];
    barMaxWidth?: number;
    /** Whole numbers only on the value axis (counts). */
    integer?: boolean;
  },
  logTag: string,
): void {
  const { token } = theme.useToken();
  const { label, categories, series, barMaxWidth = 24, integer = false } = chart;
  const option = useMemo(
    () => ({
      aria: { enabled: true, label: { description: label } },
      grid: { left: 8, right: 8, top: 16, bottom: 4, containLabel: true },
      tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
      xAxis: categoryAxis(categories, token),
      yAxis: {
        type: 'value',
        minInterval: integer ? 1 : undefined,
        splitLine: { lineStyle: { color: token.colorBorderSecondary } },
        axisLabel: { color: token.colorTextSecondary },
      },
      series: series.map((s) => ({
        type: 'bar',
        name: s.name,
        data: s.data,
        stack: s.stack,
        barMaxWidth,
        itemStyle: { color: s.color, ...(s.rounded ? { borderRadius: [3, 3, 0, 0] } : {}) },
      })),
    }),
    [label, categories, series, barMaxWidth, integer, token],
  );
  useEChart(ref, loadBar, option, logTag);
}
