import { levelPeriodsSchema, strategyRulesSchemaAt } from '@marquee/protocol';
import { describe, expect, it } from 'vitest';
import {
  instantText,
  instantValue,
  issuePaths,
  rowHasIssue,
  timeText,
  timeValue,
} from '../src/features/strategies/rulesForm';

describe('strategy form helpers', () => {
  it('turns HH:mm into picker values and back (24:00 shows as the last minute)', () => {
    expect(timeText(timeValue('08:30'))).toBe('08:30');
    expect(timeText(timeValue('24:00'))).toBe('23:59');
    expect(timeValue('')).toBeNull();
    expect(timeText(null)).toBe('');
  });

  it('keeps instants with an offset, seconds dropped', () => {
    const text = instantText(instantValue('2026-11-24T22:00:42+08:00'));
    expect(Date.parse(text)).toBe(Date.parse('2026-11-24T22:00:00+08:00'));
    expect(text).toMatch(/[+-]\d{2}:\d{2}$/);
  });

  it('names the rows a shared rule refuses, for the editors to mark', () => {
    const week = [1, 2, 3, 4, 5, 6, 7];
    const power = issuePaths(
      strategyRulesSchemaAt('power', () => Date.now()),
      {
        weekly: [
          { weekdays: week, off: '08:00', on: '08:03' },
          { weekdays: week, off: '10:00', on: '12:00' },
        ],
        once: [],
      },
    );
    expect([...power]).toEqual([['weekly.0.on', 'validation.powerGap']]);
    expect(rowHasIssue(power, 'weekly.0')).toBe(true);
    expect(rowHasIssue(power, 'weekly.1')).toBe(false);
    const levels = issuePaths(levelPeriodsSchema, [
      { weekdays: [1], start: '08:00', end: '09:00', level: 10 },
      { weekdays: [1], start: '08:59', end: '10:00', level: 20 },
    ]);
    expect([...levels]).toEqual([['1.start', 'validation.periodsOverlap']]);
  });
});
