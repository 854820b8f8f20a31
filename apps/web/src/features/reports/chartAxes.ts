/** A series of a report chart: bars or a line over the chart's categories (null: no point). */
export interface ChartSeries {
  name: string;
  type: 'bar' | 'line';
  data: (number | null)[];
}

/**
 * A line reaching more than this many times the bars' highest value gets its own axis on the
 * right: on one scale the bars would be slivers beside it (issue 25: an ad's plays under its
 * expected plays). Within the ratio both share the left axis, the comparison read directly.
 */
export const OWN_AXIS_RATIO = 3;

const highest = (data: readonly (number | null)[]) => data.reduce<number>((m, v) => Math.max(m, v ?? 0), 0);

/** The y axis of each series: 0 (left, the bars') or 1 (right, a line far above the bars). */
export function seriesAxes(series: readonly ChartSeries[]): (0 | 1)[] {
  const bars = highest(series.filter((s) => s.type === 'bar').flatMap((s) => s.data));
  return series.map((s) => (s.type === 'line' && bars > 0 && highest(s.data) > OWN_AXIS_RATIO * bars ? 1 : 0));
}

/**
 * Expected figures per day drawn only from the first day something was expected: the days
 * before the ad could play (not approved, not downloaded, not started) are no point of the line.
 */
export function fromFirstExpected(values: readonly number[]): (number | null)[] {
  const first = values.findIndex((v) => v > 0);
  return first < 0 ? values.map(() => null) : values.map((v, i) => (i < first ? null : v));
}
