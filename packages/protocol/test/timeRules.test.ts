import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  applyStrategyParamsSchema,
  commandBodySchema,
  downloadRulesSchema,
  issueMessage,
  minutesOf,
  operationRulesSchema,
  powerRulesSchema,
  STRATEGY_DEFAULTS,
  sendingIntervalSchema,
  strategyBodySchema,
  strategyRulesSchemaAt,
  strategyTimeIssuesAt,
  timeOf,
  timeOfDaySchema,
  validationMessages,
  validationText,
  volumeRulesSchema,
  weekdaysSchema,
} from '../src/index';

/** The message keys of every issue, with their paths. */
function issues(schema: z.ZodType, value: unknown): string[] {
  const result = schema.safeParse(value);
  return result.success ? [] : result.error.issues.map((i) => `${i.path.join('.')}:${issueMessage(i).key}`);
}
const all = [1, 2, 3, 4, 5, 6, 7];
const power = (...weekly: { off: string; on: string; weekdays?: number[] }[]) => ({
  weekly: weekly.map((p) => ({ weekdays: all, ...p })),
});
const level = (...periods: { start: string; end: string; weekdays?: number[] }[]) => ({
  defaultLevel: 40,
  periods: periods.map((p) => ({ weekdays: all, level: 70, ...p })),
});

describe('times of day', () => {
  it('reads HH:mm from 00:00 to 23:59, and 24:00 as the end of the day', () => {
    expect(minutesOf('00:00')).toBe(0);
    expect(minutesOf('23:59')).toBe(1439);
    expect(minutesOf('24:00')).toBe(1440);
    expect(timeOf(1440)).toBe('24:00');
    for (const bad of ['24:01', '7:00', '12:60', '25:00', '', '12:00:00']) {
      expect(issues(timeOfDaySchema, bad)).toEqual([':timeFormat']);
    }
  });

  it('takes weekdays 1 to 7, at least one, each once', () => {
    expect(weekdaysSchema.safeParse([1, 7]).success).toBe(true);
    expect(issues(weekdaysSchema, [])).toEqual([':weekdays']);
    expect(issues(weekdaysSchema, [1, 1])).toEqual([':weekdays']);
    expect(weekdaysSchema.safeParse([0]).success).toBe(false);
    expect(weekdaysSchema.safeParse([8]).success).toBe(false);
  });

  it('sending interval: at least one minute', () => {
    expect(sendingIntervalSchema.safeParse(1).success).toBe(true);
    expect(issues(sendingIntervalSchema, 0)).toEqual([':sendingInterval']);
    expect(issues(sendingIntervalSchema, 0.5)).toEqual([':sendingInterval']);
  });
});

describe('power: shutdown before startup, at least 5 minutes apart, no overlap (time conflict)', () => {
  it('accepts exactly 5 minutes and refuses 4', () => {
    expect(issues(powerRulesSchema, power({ off: '12:00', on: '12:05' }))).toEqual([]);
    expect(issues(powerRulesSchema, power({ off: '12:00', on: '12:04' }))).toEqual(['weekly.0.on:powerGap']);
  });

  it('refuses startup before or at shutdown', () => {
    expect(issues(powerRulesSchema, power({ off: '08:00', on: '07:00' }))).toEqual([
      'weekly.0.on:shutdownBeforeStartup',
    ]);
    expect(issues(powerRulesSchema, power({ off: '08:00', on: '08:00' }))).toEqual([
      'weekly.0.on:shutdownBeforeStartup',
    ]);
  });

  it('at midnight: 23:55 to 24:00 is 5 minutes; 00:00 to 00:05 too; 23:56 to 24:00 is not', () => {
    expect(issues(powerRulesSchema, power({ off: '23:55', on: '24:00' }))).toEqual([]);
    expect(issues(powerRulesSchema, power({ off: '00:00', on: '00:05' }))).toEqual([]);
    expect(issues(powerRulesSchema, power({ off: '23:56', on: '24:00' }))).toEqual(['weekly.0.on:powerGap']);
    expect(issues(powerRulesSchema, power({ off: '24:00', on: '00:05' }))).toEqual([
      'weekly.0.on:shutdownBeforeStartup',
    ]);
  });

  it('refuses periods overlapping by one minute on a shared weekday, not on other days', () => {
    expect(issues(powerRulesSchema, power({ off: '01:00', on: '03:00' }, { off: '02:59', on: '05:00' }))).toEqual([
      'weekly.1.off:periodsOverlap',
    ]);
    expect(
      issues(
        powerRulesSchema,
        power({ off: '01:00', on: '03:00', weekdays: [1] }, { off: '02:59', on: '05:00', weekdays: [2] }),
      ),
    ).toEqual([]);
  });

  it('keeps a startup and the next shutdown of a day 5 minutes apart too', () => {
    expect(issues(powerRulesSchema, power({ off: '01:00', on: '03:00' }, { off: '03:05', on: '05:00' }))).toEqual([]);
    expect(issues(powerRulesSchema, power({ off: '01:00', on: '03:00' }, { off: '03:04', on: '05:00' }))).toEqual([
      'weekly.1.off:powerGap',
    ]);
    expect(issues(powerRulesSchema, power({ off: '03:00', on: '05:00' }, { off: '01:00', on: '02:56' }))).toEqual([
      'weekly.0.off:powerGap',
    ]);
  });

  it('needs at least one period', () => {
    expect(issues(powerRulesSchema, { weekly: [], once: [] })).toEqual(['weekly:periodsRequired']);
  });

  it('one-off periods: no past shutdown (with a clock), order, gap and overlap', () => {
    const now = Date.parse('2026-11-23T12:00:00Z');
    const once = (off: string, on: string) => ({ weekly: [], once: [{ off, on }] });
    const future = once('2026-11-24T22:00:00+08:00', '2026-11-25T07:00:00+08:00');
    expect(issues(powerRulesSchema, future)).toEqual([]);
    expect(
      issues(
        strategyRulesSchemaAt('power', () => now),
        future,
      ),
    ).toEqual([]);
    const past = once('2026-11-23T11:59:00Z', '2026-11-23T13:00:00Z');
    // The request schema alone has no clock; the server and the form add it.
    expect(issues(powerRulesSchema, past)).toEqual([]);
    expect(
      issues(
        strategyRulesSchemaAt('power', () => now),
        past,
      ),
    ).toEqual(['once.0.off:notPast']);
    expect(
      issues(
        strategyRulesSchemaAt('power', () => now),
        once('2026-11-23T12:00:00Z', '2026-11-23T12:05:00Z'),
      ),
    ).toEqual([]);
    expect(strategyTimeIssuesAt({ type: 'power', rules: past }, now)).toEqual([
      { path: ['rules', 'once', 0, 'off'], message: 'validation.notPast' },
    ]);
    expect(issues(powerRulesSchema, once('2026-11-24T12:00:00Z', '2026-11-24T12:04:59Z'))).toEqual([
      'once.0.on:powerGap',
    ]);
    expect(issues(powerRulesSchema, once('2026-11-24T12:00:00Z', '2026-11-24T11:00:00Z'))).toEqual([
      'once.0.on:shutdownBeforeStartup',
    ]);
    expect(
      issues(powerRulesSchema, {
        weekly: [],
        once: [
          { off: '2026-11-24T12:00:00Z', on: '2026-11-24T14:00:00Z' },
          { off: '2026-11-24T13:59:00Z', on: '2026-11-24T15:00:00Z' },
        ],
      }),
    ).toEqual(['once.1.off:periodsOverlap']);
    expect(issues(powerRulesSchema, once('2026-11-24 12:00', '2026-11-24T14:00:00Z'))).toEqual([
      'once.0.off:dateTimeFormat',
    ]);
  });
});

describe('periods of a day (volume, brightness, download windows)', () => {
  it('start and end of a day not equal; end not before start', () => {
    expect(issues(volumeRulesSchema, level({ start: '08:00', end: '08:00' }))).toEqual(['periods.0.end:sameStartEnd']);
    expect(issues(volumeRulesSchema, level({ start: '08:00', end: '07:59' }))).toEqual([
      'periods.0.end:endBeforeStart',
    ]);
    expect(issues(volumeRulesSchema, level({ start: '00:00', end: '24:00' }))).toEqual([]);
  });

  it('no overlap: one minute overlaps, touching ends do not', () => {
    expect(
      issues(volumeRulesSchema, level({ start: '08:00', end: '09:00' }, { start: '08:59', end: '10:00' })),
    ).toEqual(['periods.1.start:periodsOverlap']);
    expect(
      issues(volumeRulesSchema, level({ start: '08:00', end: '09:00' }, { start: '09:00', end: '10:00' })),
    ).toEqual([]);
    expect(
      issues(downloadRulesSchema, {
        concurrency: 2,
        intervalMin: 5,
        windows: [
          { weekdays: [6], start: '22:00', end: '24:00' },
          { weekdays: [6, 7], start: '23:00', end: '23:30' },
        ],
      }),
    ).toEqual(['windows.1.start:periodsOverlap']);
  });

  it('levels are 0 to 100', () => {
    expect(issues(volumeRulesSchema, { defaultLevel: 101, periods: [] })).toEqual(['defaultLevel:level']);
    expect(issues(volumeRulesSchema, { defaultLevel: 0, periods: [] })).toEqual([]);
  });
});

describe('operation ranges (spec section 5)', () => {
  const ok = STRATEGY_DEFAULTS.operation;
  it.each([
    ['autoStartSec', 5, 9999, 'autoStartSec'],
    ['exitAutoStartSec', 10, 720, 'exitAutoStartSec'],
    ['reportCycleMin', 15, 720, 'reportCycleMin'],
    ['playLogDays', 1, 15, 'storageDays'],
    ['expiredMaterialDays', 1, 15, 'storageDays'],
    ['offlineImpressionDays', 1, 15, 'storageDays'],
    ['pauseRotationSec', 5, 1800, 'pauseRotationSec'],
    ['offlineNotifyHours', 1, 360, 'offlineNotifyHours'],
  ])('%s takes %i to %i', (field, min, max, key) => {
    expect(issues(operationRulesSchema, { ...ok, [field]: min })).toEqual([]);
    expect(issues(operationRulesSchema, { ...ok, [field]: max })).toEqual([]);
    expect(issues(operationRulesSchema, { ...ok, [field]: min - 1 })).toEqual([`${field}:${key}`]);
    expect(issues(operationRulesSchema, { ...ok, [field]: max + 1 })).toEqual([`${field}:${key}`]);
  });
});

describe('strategies and the applyStrategy command', () => {
  it('every default passes its type', () => {
    for (const [type, rules] of Object.entries(STRATEGY_DEFAULTS)) {
      expect(strategyBodySchema.safeParse({ type, rules }).success, type).toBe(true);
    }
  });

  it('the command carries typed rules of its type', () => {
    const params = {
      strategyId: 's1',
      name: 'Night',
      version: 2,
      type: 'power',
      rules: power({ off: '00:00', on: '06:00' }),
    };
    expect(applyStrategyParamsSchema.safeParse(params).success).toBe(true);
    expect(commandBodySchema.safeParse({ kind: 'applyStrategy', params }).success).toBe(true);
    expect(commandBodySchema.safeParse({ kind: 'applyStrategy', params: { ...params, type: 'volume' } }).success).toBe(
      false,
    );
    expect(commandBodySchema.safeParse({ kind: 'applyStrategy', params: { ...params, rules: {} } }).success).toBe(
      false,
    );
  });

  it('says "time conflict" and "time periods overlap" in three languages', () => {
    expect(validationText({ key: 'powerGap' }, 'en-US')).toMatch(/^Time conflict/);
    expect(validationText({ key: 'shutdownBeforeStartup' }, 'zh-CN')).toMatch(/^时间冲突/);
    expect(validationText({ key: 'periodsOverlap' }, 'en-US')).toBe('Time periods overlap');
    expect(validationMessages.periodsOverlap.ja).toBe('時間帯が重複しています');
  });
});
