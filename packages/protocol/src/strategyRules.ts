import { z } from 'zod';
import {
  addTimeIssues,
  instantSchema,
  oncePowerIssues,
  sendingIntervalSchema,
  timeOfDaySchema,
  weekdaysSchema,
  weeklyPeriodIssues,
  weeklyPowerIssues,
} from './timeRules.js';

/**
 * Device strategies (spec sections 3 and 5, issue 9): the typed rules of each of the five
 * types, as the console saves them and as the `applyStrategy` command carries them to the
 * player (docs/device-protocol.md). Time rules come from timeRules.ts; ranges from spec
 * section 5, each with its own message.
 */

export const STRATEGY_TYPES = ['power', 'volume', 'brightness', 'operation', 'download'] as const;
export type StrategyType = (typeof STRATEGY_TYPES)[number];

/** Periods one strategy may hold (per list). */
export const MAX_STRATEGY_PERIODS = 48;

/** Spec section 5 ranges of the operation strategy. */
export const OPERATION_LIMITS = {
  autoStartSec: { min: 5, max: 9999 },
  exitAutoStartSec: { min: 10, max: 720 },
  reportCycleMin: { min: 15, max: 720 },
  playLogDays: { min: 1, max: 15 },
  expiredMaterialDays: { min: 1, max: 15 },
  offlineImpressionDays: { min: 1, max: 15 },
  pauseRotationSec: { min: 5, max: 1800 },
  offlineNotifyHours: { min: 1, max: 360 },
} as const;
export type OperationField = keyof typeof OPERATION_LIMITS;

/** Concurrent downloads a download strategy may allow. */
export const DOWNLOAD_CONCURRENCY = { min: 1, max: 10 } as const;

export const levelSchema = z.number().int('validation.level').min(0, 'validation.level').max(100, 'validation.level');

// ---------------------------------------------------------------- power

/** A weekly power period: on these weekdays the screen shuts down at `off` and starts up at `on`. */
export const weeklyPowerPeriodSchema = z
  .object({ weekdays: weekdaysSchema, off: timeOfDaySchema, on: timeOfDaySchema })
  .strict();
/** A one-off power period (a holiday): shutdown and startup instants. */
export const oncePowerPeriodSchema = z.object({ off: instantSchema, on: instantSchema }).strict();

const powerShape = z
  .object({
    weekly: z.array(weeklyPowerPeriodSchema).max(MAX_STRATEGY_PERIODS).default([]),
    once: z.array(oncePowerPeriodSchema).max(MAX_STRATEGY_PERIODS).default([]),
  })
  .strict();

/** Power on/off schedules. */
export const powerRulesSchema = powerShape.superRefine((v, ctx) => {
  if (v.weekly.length + v.once.length === 0) {
    ctx.addIssue({ code: 'custom', path: ['weekly'], message: 'validation.periodsRequired' });
  }
  addTimeIssues(ctx, weeklyPowerIssues(v.weekly, ['weekly']));
  addTimeIssues(ctx, oncePowerIssues(v.once, ['once']));
});
export type PowerRules = z.output<typeof powerRulesSchema>;

// ---------------------------------------------------------------- volume, brightness

/** A level (0 to 100) on these weekdays from `start` to `end`. */
export const levelPeriodSchema = z
  .object({ weekdays: weekdaysSchema, start: timeOfDaySchema, end: timeOfDaySchema, level: levelSchema })
  .strict();

/** A level strategy's periods: each start before its end, no overlap on a shared weekday. */
export const levelPeriodsSchema = z
  .array(levelPeriodSchema)
  .max(MAX_STRATEGY_PERIODS)
  .superRefine((v, ctx) => addTimeIssues(ctx, weeklyPeriodIssues(v)));

const levelRules = () =>
  z
    .object({
      /** The level outside every period. */
      defaultLevel: levelSchema,
      periods: levelPeriodsSchema.default([]),
    })
    .strict();

/** Volume per period. */
export const volumeRulesSchema = levelRules();
/** Brightness per period. */
export const brightnessRulesSchema = levelRules();
export type LevelRules = z.output<typeof volumeRulesSchema>;

// ---------------------------------------------------------------- operation

const bounded = (field: OperationField) =>
  z
    .number()
    .int(`validation.${storageKey(field)}`)
    .min(OPERATION_LIMITS[field].min, `validation.${storageKey(field)}`)
    .max(OPERATION_LIMITS[field].max, `validation.${storageKey(field)}`);
function storageKey(field: OperationField): string {
  return field === 'playLogDays' || field === 'expiredMaterialDays' || field === 'offlineImpressionDays'
    ? 'storageDays'
    : field;
}

/** How the player software runs (spec section 5 ranges). */
export const operationRulesSchema = z
  .object({
    /** Start the player this many seconds after the system boots. */
    autoStartSec: bounded('autoStartSec'),
    /** Start the player again this many seconds after someone exited it by hand. */
    exitAutoStartSec: bounded('exitAutoStartSec'),
    /** Report impressions every this many minutes. */
    reportCycleMin: bounded('reportCycleMin'),
    /** Days the player keeps its play log, expired materials, and impressions made offline. */
    playLogDays: bounded('playLogDays'),
    expiredMaterialDays: bounded('expiredMaterialDays'),
    offlineImpressionDays: bounded('offlineImpressionDays'),
    /** A rotation paused by touch resumes after this many seconds. */
    pauseRotationSec: bounded('pauseRotationSec'),
    /** Notify when the device has been offline this many hours. */
    offlineNotifyHours: bounded('offlineNotifyHours'),
  })
  .strict();
export type OperationRules = z.output<typeof operationRulesSchema>;

// ---------------------------------------------------------------- download

/** A window of the week in which downloads may run. */
export const downloadWindowSchema = z
  .object({ weekdays: weekdaysSchema, start: timeOfDaySchema, end: timeOfDaySchema })
  .strict();

/** Download windows: each start before its end, no overlap on a shared weekday. */
export const downloadWindowsSchema = z
  .array(downloadWindowSchema)
  .max(MAX_STRATEGY_PERIODS)
  .superRefine((v, ctx) => addTimeIssues(ctx, weeklyPeriodIssues(v)));

/** When and how content is downloaded. */
export const downloadRulesSchema = z
  .object({
    /** No window: downloads run at any time. */
    windows: downloadWindowsSchema.default([]),
    concurrency: z
      .number()
      .int('validation.downloadConcurrency')
      .min(DOWNLOAD_CONCURRENCY.min, 'validation.downloadConcurrency')
      .max(DOWNLOAD_CONCURRENCY.max, 'validation.downloadConcurrency'),
    /** Spec section 5 "sending interval": how often the player reports download progress, minutes. */
    intervalMin: sendingIntervalSchema,
  })
  .strict();
export type DownloadRules = z.output<typeof downloadRulesSchema>;

// ---------------------------------------------------------------- all types

/** The rules schema of each type. */
export const strategyRulesSchemas = {
  power: powerRulesSchema,
  volume: volumeRulesSchema,
  brightness: brightnessRulesSchema,
  operation: operationRulesSchema,
  download: downloadRulesSchema,
} as const satisfies Record<StrategyType, z.ZodType>;

export interface StrategyRulesByType {
  power: PowerRules;
  volume: LevelRules;
  brightness: LevelRules;
  operation: OperationRules;
  download: DownloadRules;
}

/** A type with its rules, checked together. */
export const strategyBodySchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('power'), rules: powerRulesSchema }),
  z.object({ type: z.literal('volume'), rules: volumeRulesSchema }),
  z.object({ type: z.literal('brightness'), rules: brightnessRulesSchema }),
  z.object({ type: z.literal('operation'), rules: operationRulesSchema }),
  z.object({ type: z.literal('download'), rules: downloadRulesSchema }),
]);
export type StrategyBody = z.output<typeof strategyBodySchema>;

/**
 * The rule no schema can hold alone: one-off times not in the past at `now` (ms). The server
 * checks it with its clock after the request schema; the web form with the browser's.
 */
export function strategyTimeIssuesAt(body: { type: StrategyType; rules: unknown }, now: number) {
  if (body.type !== 'power') return [];
  const once = (body.rules as Partial<PowerRules>).once ?? [];
  return oncePowerIssues(once, ['rules', 'once'], now).filter((i) => i.message === 'validation.notPast');
}

/** The rules schema of a type with the not-in-the-past rule at `now()` (web forms). */
export function strategyRulesSchemaAt(type: StrategyType, now: () => number): z.ZodType {
  if (type !== 'power') return strategyRulesSchemas[type];
  return powerRulesSchema.superRefine((v, ctx) =>
    addTimeIssues(
      ctx,
      oncePowerIssues(v.once, ['once'], now()).filter((i) => i.message === 'validation.notPast'),
    ),
  );
}

/** What a new strategy of each type starts from in the console. */
export const STRATEGY_DEFAULTS: StrategyRulesByType = {
  power: { weekly: [{ weekdays: [1, 2, 3, 4, 5, 6, 7], off: '00:00', on: '07:00' }], once: [] },
  volume: { defaultLevel: 50, periods: [] },
  brightness: { defaultLevel: 80, periods: [] },
  operation: {
    autoStartSec: 30,
    exitAutoStartSec: 60,
    reportCycleMin: 60,
    playLogDays: 7,
    expiredMaterialDays: 7,
    offlineImpressionDays: 7,
    pauseRotationSec: 60,
    offlineNotifyHours: 24,
  },
  download: { windows: [], concurrency: 2, intervalMin: 5 },
};

// ---------------------------------------------------------------- the device command

const applyParams = <T extends StrategyType, S extends z.ZodType>(type: T, rules: S) =>
  z
    .object({
      strategyId: z.string().min(1).max(64),
      /** The strategy's name, for the player's diagnostics. */
      name: z.string().max(64).default(''),
      /** The strategy's version: a player keeps the newest it applied per type. */
      version: z.number().int().min(1).default(1),
      type: z.literal(type),
      rules,
    })
    .strict();

/**
 * The `applyStrategy` command's parameters: the strategy of one type replaces the device's
 * strategy of that type (docs/device-protocol.md).
 */
export const applyStrategyParamsSchema = z.discriminatedUnion('type', [
  applyParams('power', powerRulesSchema),
  applyParams('volume', volumeRulesSchema),
  applyParams('brightness', brightnessRulesSchema),
  applyParams('operation', operationRulesSchema),
  applyParams('download', downloadRulesSchema),
]);
export type ApplyStrategyParams = z.output<typeof applyStrategyParamsSchema>;
