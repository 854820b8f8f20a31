import { describe, expect, it } from 'vitest';
import { type ChartSeries, fromFirstExpected, seriesAxes } from '../src/features/reports/chartAxes';

const bar = (data: number[]): ChartSeries => ({ name: 'Plays', type: 'bar', data });
const line = (data: (number | null)[]): ChartSeries => ({ name: 'Expected', type: 'line', data });

describe('report chart axes (issue 25)', () => {
  it('draws expected plays far above the plays against their own axis, so the bars stay readable', () => {
    // An ad approved at 17:00 and expected from midnight: 6,122 expected beside 18 plays.
    expect(seriesAxes([bar([0, 18]), line([0, 6122])])).toEqual([0, 1]);
  });
  it('keeps one scale when the figures are comparable, or when nothing played', () => {
    expect(seriesAxes([bar([90, 100]), line([100, 100])])).toEqual([0, 0]);
    expect(seriesAxes([bar([10, 40]), line([100, 120])])).toEqual([0, 0]);
    expect(seriesAxes([bar([0, 0]), line([100, 100])])).toEqual([0, 0]);
    expect(seriesAxes([bar([1, 2])])).toEqual([0]);
  });
  it('draws expected plays from the first day anything was expected', () => {
    expect(fromFirstExpected([0, 0, 2490, 8640, 0])).toEqual([null, null, 2490, 8640, 0]);
    expect(fromFirstExpected([0, 0])).toEqual([null, null]);
    expect(fromFirstExpected([5, 0, 5])).toEqual([5, 0, 5]);
  });
});
