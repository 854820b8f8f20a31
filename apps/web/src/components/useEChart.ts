import type { EChartsCoreOption } from 'echarts/core';
import { type RefObject, useEffect } from 'react';

/** A feature's ECharts module (its own chunk, registering only the charts and parts it draws). */
export type EChartsModule = Promise<{ echarts: typeof import('echarts/core') }>;

/**
 * An ECharts chart drawn in an element (the home trend, the report charts, the device report's
 * days): ECharts loaded on first use from the feature's module (`load`, a stable function),
 * SVG, `option` drawn again whenever it changes (memoize it), resized with its element and
 * disposed with the component. `logTag` names the feature in a failed load's warning.
 */
export function useEChart(
  ref: RefObject<HTMLDivElement | null>,
  load: () => EChartsModule,
  option: EChartsCoreOption,
  logTag: string,
): void {
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    let disposed = false;
    let dispose = () => {};
    void load()
      .then(({ echarts }) => {
        if (disposed) return;
        const instance = echarts.init(el, undefined, { renderer: 'svg' });
        instance.setOption(option);
        // A resize only when the size changed: an observer reports the element once when it starts
        // observing (the size the chart was just drawn at), and hiding the page reports 0 x 0.
        let drawn = `${el.clientWidth}x${el.clientHeight}`;
        const observer =
          typeof ResizeObserver === 'undefined'
            ? null
            : new ResizeObserver(() => {
                const size = `${el.clientWidth}x${el.clientHeight}`;
                if (size === drawn || el.clientWidth === 0 || el.clientHeight === 0) return;
                drawn = size;
                instance.resize();
              });
        observer?.observe(el);
        dispose = () => {
          observer?.disconnect();
          instance.dispose();
        };
      })
      .catch((err: unknown) => console.warn(`[${logTag}] chart failed`, err));
    return () => {
      disposed = true;
      dispose();
    };
  }, [ref, load, option, logTag]);
}

/** The category axis of the console's charts (days, hours): no ticks, the theme's line and text colours. */
export function categoryAxis(data: readonly string[], token: { colorBorder: string; colorTextSecondary: string }) {
  return {
    type: 'category',
    data,
    axisTick: { show: false },
    axisLine: { lineStyle: { color: token.colorBorder } },
    axisLabel: { color: token.colorTextSecondary },
  };
}
