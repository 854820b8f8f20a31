import { z } from 'zod';
import {
  AD_LINK_MAX,
  AD_MAX_PERIODS,
  AD_MAX_TARGETS,
  AD_NAME_MAX,
  AD_PLAY_COUNT_MAX,
  AD_PLAY_COUNT_MIN,
  AD_PLAY_STRATEGIES,
  AD_REVIEW_STATES,
  AD_STATUSES,
  AD_TYPES,
  PLAN_BUDGET_MAX,
  PLAN_NAME_MAX,
} from '../adRules.js';
import { ErrorCode } from '../errors.js';
import { Perm } from '../permissions.js';
import { addTimeIssues, instantSchema, timeOfDaySchema, weeklyPeriodIssues } from '../timeRules.js';
import { listPageSize } from '../validation.js';
import { endpoint, ok } from './common.js';

/**
 * Ads and promotion plans (issue 13 slice 1, /advert, /advert/audit, /advert/edit, /advert/plan;
 * spec sections 3 to 7 and 9). An ad is made from 1 to 20 materials or one layout, has a type,
 * a period, a play strategy, time periods of the day and targets (devices, groups, tags,
 * departments, split screens); it is reviewed (a second audit where the enterprise requires
 * one), paused and enabled, and soft-deleted. Its status is derived by `adStatus` (adRules.ts)
 * from its facts, the same function on the server and in the console.
 *
 * Ads are data-scoped by department and owner (an advertiser, whose role has the self scope,
 * sees its own ads) and shareable as ref-type '5'. Plans are scoped the same way; each
 * enterprise's default plan is visible to everyone of it and cannot be edited or deleted.
 *
 * Scheduling (playlists, playlist sort, broadcast, repush, issued records) is in pushes.ts,
 * the device reports in deviceReports.ts. Left for the next slices: the third-party checks of
 * monitoring URLs beyond their format, and the ad reports.
 */

const id = z.string().min(1).max(64);
const pageSize = listPageSize();
const page = z.number().int().min(1).default(1);
/** PostgreSQL has no year 0: dates and instants of ads and plans stay within 2000..9999. */
const inRange = (ms: number) => ms >= Date.UTC(2000, 0, 1) && ms < Date.UTC(10000, 0, 1);
const dateSchema = z.iso.date().refine((d) => inRange(Date.parse(`${d}T00:00:00Z`)), 'validation.dateTimeFormat');
const periodInstant = instantSchema.refine((v) => inRange(Date.parse(v)), 'validation.dateTimeFormat');

export const adTypeSchema = z.enum(AD_TYPES);
export const adStatusSchema = z.enum(AD_STATUSES);
export const adReviewStateSchema = z.enum(AD_REVIEW_STATES);
export const adPlayStrategySchema = z.enum(AD_PLAY_STRATEGIES);
export const adNameSchema = z.string().trim().min(1, 'validation.required').max(AD_NAME_MAX);
export const playCountSchema = z
  .number()
  .int('validation.playCount')
  .min(AD_PLAY_COUNT_MIN, 'validation.playCount')
  .max(AD_PLAY_COUNT_MAX, 'validation.playCount');

/** A time period of the day the ad plays in (HH:mm, not crossing midnight). */
export const adPeriodSchema = z.object({ start: timeOfDaySchema, end: timeOfDaySchema }).strict();
export type AdPeriod = z.infer<typeof adPeriodSchema>;

const targetIds = z.array(id).max(AD_MAX_TARGETS).default([]);
/** The kinds of an ad's targets, in the order the form and the detail show them. */
export const AD_TARGET_KINDS = ['deviceIds', 'groupIds', 'tagIds', 'deptIds', 'spliceIds'] as const;
export type AdTargetKind = (typeof AD_TARGET_KINDS)[number];
/** Where the ad goes: each kind's ids, of the caller's enterprise and data scope. */
export const adTargetsSchema = z
  .object({
    deviceIds: targetIds,
    groupIds: targetIds,
    tagIds: targetIds,
    deptIds: targetIds,
    spliceIds: targetIds,
  })
  .strict();
export type AdTargets = z.infer<typeof adTargetsSchema>;

const adFields = z
  .object({
    name: adNameSchema,
    type: adTypeSchema,
    /** The promotion plan; the enterprise's default plan when absent. */
    planId: id.optional(),
    /** The period: ISO 8601 instants with an offset; the end after the start. */
    startAt: periodInstant,
    endAt: periodInstant,
    strategy: adPlayStrategySchema.default('perDay'),
    playsMin: playCountSchema,
    playsMax: playCountSchema,
    /** Time periods of the day (none: all day); spec section 5 time rules. */
    periods: z.array(adPeriodSchema).max(AD_MAX_PERIODS).default([]),
    /** The ad slot (an id of the slot module, not built yet). */
    slotId: id.nullable().optional(),
    link: z.string().trim().max(AD_LINK_MAX).default(''),
    /** Third-party monitoring URL: http(s), at most 500 characters (else AD_MONITOR_URL_INVALID). */
    monitorUrl: z.string().trim().max(2000).nullable().optional(),
    /** 1 to 20 materials (more: AD_TOO_MANY_MATERIALS) ... */
    materialIds: z.array(id).max(100).default([]),
    /** ... or one layout. */
    layoutId: id.nullable().optional(),
    targets: adTargetsSchema.default({ deviceIds: [], groupIds: [], tagIds: [], deptIds: [], spliceIds: [] }),
  })
  .strict();

/** The rules across fields: period, play counts, content (materials or a layout), time periods. */
function refineAd(ad: z.output<typeof adFields>, ctx: z.RefinementCtx): void {
  if (Date.parse(ad.endAt) <= Date.parse(ad.startAt)) {
    ctx.addIssue({ code: 'custom', path: ['endAt'], message: 'validation.periodEndBeforeStart' });
  }
  if (ad.playsMin > ad.playsMax) {
    ctx.addIssue({ code: 'custom', path: ['playsMin'], message: 'validation.playCountOrder' });
  }
  if (ad.materialIds.length > 0 === Boolean(ad.layoutId)) {
    ctx.addIssue({ code: 'custom', path: ['materialIds'], message: 'validation.adContent' });
  }
  addTimeIssues(
    ctx,
    weeklyPeriodIssues(
      ad.periods.map((p) => ({ ...p, weekdays: [1, 2, 3, 4, 5, 6, 7] })),
      ['periods'],
    ),
  );
}

/** The fields the edit page sends (create). */
export const adBodySchema = adFields.superRefine(refineAd);
/** An update: the ad's id and every field again. */
export const adUpdateSchema = adFields.extend({ id }).superRefine(refineAd);
export type AdBody = z.input<typeof adBodySchema>;

/** One review decision. */
export const adReviewSchema = z.object({
  round: z.number(),
  stage: z.enum(['first', 'second']),
  decision: z.enum(['pass', 'fail']),
  reason: z.string().nullable(),
  auditorId: z.string().nullable(),
  auditorName: z.string(),
  decidedAt: z.string(),
});
export type AdReview = z.infer<typeof adReviewSchema>;

/** An ad as the list answers it. */
export const adSchema = z.object({
  id: z.string(),
  /** 9 digits, unique on the platform. */
  number: z.string(),
  name: z.string(),
  type: adTypeSchema,
  /** Where the ad was made: the console, an airtime order (issue 28), an RTB campaign or a DSP's creative (issue 29). */
  source: z.enum(['console', 'order', 'rtb']),
  status: adStatusSchema,
  reviewState: adReviewStateSchema,
  /** 1 for the first review; each edit of a decided ad opens the next. */
  reviewRound: z.number(),
  /** The latest decision's time, auditor and (fail) reason; null before any. */
  auditTime: z.string().nullable(),
  auditorName: z.string(),
  auditReason: z.string().nullable(),
  planId: z.string(),
  planName: z.string(),
  startAt: z.string(),
  endAt: z.string(),
  /** The period ends in under 7 days (spec section 9) and the ad is not over. */
  expiringSoon: z.boolean(),
  strategy: adPlayStrategySchema,
  playsMin: z.number(),
  playsMax: z.number(),
  periods: z.array(adPeriodSchema),
  slotId: z.string().nullable(),
  link: z.string(),
  monitorUrl: z.string().nullable(),
  materialIds: z.array(z.string()),
  layoutId: z.string().nullable(),
  targets: z.object({
    deviceIds: z.array(z.string()),
    groupIds: z.array(z.string()),
    tagIds: z.array(z.string()),
    deptIds: z.array(z.string()),
    spliceIds: z.array(z.string()),
  }),
  paused: z.boolean(),
  ownerId: z.string(),
  ownerName: z.string(),
  deptId: z.string().nullable(),
  deptName: z.string(),
  /** The caller may edit, pause, enable and delete it. */
  hasPermission: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Ad = z.infer<typeof adSchema>;

/** The detail: the ad, the names of what it uses, and its review history. */
export const adInfoSchema = adSchema.extend({
  materials: z.array(z.object({ id: z.string(), name: z.string(), type: z.string(), status: z.string() })),
  layoutName: z.string().nullable(),
  /** The names of the targets still in the enterprise (a deleted one is left out). */
  targetNames: z.array(z.object({ kind: z.enum(AD_TARGET_KINDS), id: z.string(), name: z.string() })),
  reviews: z.array(adReviewSchema),
  /**
   * The ad slot it plays in (issue 28: an order's ad is bound to the ordered slot), with the
   * order it was made for when its source is 'order'; absent or null: no slot.
   */
  slot: z
    .object({ id: z.string(), name: z.string(), orderId: z.string().nullable(), orderNo: z.string().nullable() })
    .nullable()
    .optional(),
});
export type AdInfo = z.infer<typeof adInfoSchema>;

export const promotionPlanSchema = z.object({
  id: z.string(),
  /** The default plan's name is answered in the caller's language. */
  name: z.string(),
  /** Yuan, at most 2 decimals; null: no budget. */
  budget: z.number().nullable(),
  startDate: z.string().nullable(),
  endDate: z.string().nullable(),
  isDefault: z.boolean(),
  /** Ads in the plan the caller can see (deleted ones not counted). */
  adCount: z.number(),
  ownerName: z.string(),
  deptName: z.string(),
  hasPermission: z.boolean(),
  createdAt: z.string(),
});
export type PromotionPlan = z.infer<typeof promotionPlanSchema>;

const planFields = z
  .object({
    name: z.string().trim().min(1, 'validation.required').max(PLAN_NAME_MAX),
    budget: z
      .number()
      .min(0)
      .max(PLAN_BUDGET_MAX)
      .refine((n) => Math.abs(Math.round(n * 100) - n * 100) < 1e-6, 'validation.twoDecimals')
      .nullable()
      .optional(),
    startDate: dateSchema.nullable().optional(),
    endDate: dateSchema.nullable().optional(),
  })
  .strict();

function refinePlan(plan: z.output<typeof planFields>, ctx: z.RefinementCtx): void {
  if (plan.startDate && plan.endDate && plan.endDate < plan.startDate) {
    ctx.addIssue({ code: 'custom', path: ['endDate'], message: 'validation.endBeforeStart' });
  }
}

export const planBodySchema = planFields.superRefine(refinePlan);
export const planUpdateSchema = planFields.extend({ id }).superRefine(refinePlan);

/** The enterprise's review settings: a second audit after the first pass. */
export const adSettingsSchema = z.object({ requireSecondAudit: z.boolean() });
export type AdSettings = z.infer<typeof adSettingsSchema>;

const review = {
  id,
  /** The review round the auditor decided on: another round (the ad was edited since) answers CONFLICT. */
  round: z.number().int().min(1).optional(),
};
const failReason = z.string().trim().min(1, 'validation.required').max(200);

export const adListRequestSchema = z
  .object({
    page,
    size: pageSize,
    /** Name contains. */
    name: z.string().trim().max(AD_NAME_MAX).optional(),
    /** Number starts with (digits). */
    number: z
      .string()
      .trim()
      .regex(/^\d{1,9}$/)
      .optional(),
    type: adTypeSchema.optional(),
    /** A status of spec section 4; deleted ads are listed only with `deleted`. */
    status: adStatusSchema.optional(),
    planId: id.optional(),
    /** Ads whose period overlaps [from, to] (dates: to includes its whole day, UTC). */
    from: periodInstant.or(dateSchema).optional(),
    to: periodInstant.or(dateSchema).optional(),
  })
  .strict();

const AD_ERRORS = [
  ErrorCode.NOT_FOUND,
  ErrorCode.AD_MONITOR_URL_INVALID,
  ErrorCode.AD_TOO_MANY_MATERIALS,
  ErrorCode.AD_TARGET_INVALID,
  ErrorCode.MATERIAL_INVALID,
] as const;

export const adEndpoints = {
  adList: endpoint({
    name: 'ad.list',
    path: '/api/ad/list.shtm',
    auth: 'session',
    permission: `${Perm.adv},${Perm.advAudit}`,
    scope: { object: 'ad', kind: 'list' },
    request: adListRequestSchema,
    response: z.object({ total: z.number(), data: z.array(adSchema) }),
  }),
  adInfo: endpoint({
    name: 'ad.info',
    path: '/api/ad/info.shtm',
    auth: 'session',
    permission: `${Perm.adv},${Perm.advAudit}`,
    scope: { object: 'ad', kind: 'detail' },
    request: z.object({ id }).strict(),
    response: adInfoSchema,
  }),
  adCreate: endpoint({
    name: 'ad.create',
    path: '/api/ad/create.shtm',
    auth: 'session',
    permission: Perm.advEdit,
    mutation: true,
    notForMonitor: true,
    request: adBodySchema,
    response: z.object({ id: z.string(), number: z.string() }),
    errors: AD_ERRORS,
  }),
  adUpdate: endpoint({
    name: 'ad.update',
    path: '/api/ad/update.shtm',
    auth: 'session',
    permission: Perm.advEdit,
    mutation: true,
    notForMonitor: true,
    // Every edit opens a new review round at pending audit: a decided ad (passed, serving, failed) goes back to review.
    request: adUpdateSchema,
    response: z.object({ reviewRound: z.number(), status: adStatusSchema }),
    errors: [...AD_ERRORS, ErrorCode.NO_PERMISSION],
  }),
  adAuditPass: endpoint({
    name: 'ad.auditPass',
    path: '/api/ad/audit/pass.shtm',
    auth: 'session',
    permission: Perm.advAudit,
    mutation: true,
    notForMonitor: true,
    request: z.object(review).strict(),
    response: z.object({ reviewState: adReviewStateSchema }),
    errors: [ErrorCode.NOT_FOUND, ErrorCode.CONFLICT],
  }),
  adAuditFail: endpoint({
    name: 'ad.auditFail',
    path: '/api/ad/audit/fail.shtm',
    auth: 'session',
    permission: Perm.advAudit,
    mutation: true,
    notForMonitor: true,
    request: z.object({ ...review, reason: failReason }).strict(),
    response: z.object({ reviewState: adReviewStateSchema }),
    errors: [ErrorCode.NOT_FOUND, ErrorCode.CONFLICT],
  }),
  adSecondAuditPass: endpoint({
    name: 'ad.secondAuditPass',
    path: '/api/ad/audit/secondPass.shtm',
    auth: 'session',
    permission: Perm.advAudit,
    mutation: true,
    notForMonitor: true,
    request: z.object(review).strict(),
    response: z.object({ reviewState: adReviewStateSchema }),
    errors: [ErrorCode.NOT_FOUND, ErrorCode.CONFLICT],
  }),
  adSecondAuditFail: endpoint({
    name: 'ad.secondAuditFail',
    path: '/api/ad/audit/secondFail.shtm',
    auth: 'session',
    permission: Perm.advAudit,
    mutation: true,
    notForMonitor: true,
    request: z.object({ ...review, reason: failReason }).strict(),
    response: z.object({ reviewState: adReviewStateSchema }),
    errors: [ErrorCode.NOT_FOUND, ErrorCode.CONFLICT],
  }),
  adEnable: endpoint({
    name: 'ad.enable',
    path: '/api/ad/enable.shtm',
    auth: 'session',
    permission: Perm.advEdit,
    mutation: true,
    notForMonitor: true,
    request: z.object({ id }).strict(),
    response: z.object({ status: adStatusSchema }),
    errors: [ErrorCode.NOT_FOUND, ErrorCode.NO_PERMISSION],
  }),
  adDisable: endpoint({
    name: 'ad.disable',
    path: '/api/ad/disable.shtm',
    auth: 'session',
    permission: Perm.advEdit,
    mutation: true,
    notForMonitor: true,
    request: z.object({ id }).strict(),
    response: z.object({ status: adStatusSchema }),
    errors: [ErrorCode.NOT_FOUND, ErrorCode.NO_PERMISSION],
  }),
  adDelete: endpoint({
    name: 'ad.delete',
    path: '/api/ad/delete.shtm',
    auth: 'session',
    permission: Perm.advEdit,
    mutation: true,
    notForMonitor: true,
    request: z.object({ id }).strict(),
    response: ok,
    errors: [ErrorCode.NOT_FOUND, ErrorCode.NO_PERMISSION],
  }),
  adTargetDevices: endpoint({
    name: 'ad.targetDevices',
    path: '/api/ad/targetDevices.shtm',
    auth: 'session',
    // The ad form's device picker: whoever may make ads picks among the screens they see (their
    // data scope and what is shared with them), without the device pages' own permission.
    permission: Perm.advEdit,
    scope: { object: 'device', kind: 'list' },
    request: z
      .object({
        page,
        size: pageSize,
        /** Part of a name or a device number. */
        keyword: z.string().trim().max(50).optional(),
      })
      .strict(),
    response: z.object({
      total: z.number(),
      data: z.array(z.object({ id: z.string(), name: z.string(), number: z.string().nullable() })),
    }),
  }),
  adSettings: endpoint({
    name: 'ad.settings',
    path: '/api/ad/settings.shtm',
    auth: 'session',
    permission: Perm.advAudit,
    unscoped: "the caller's own enterprise's review settings",
    request: z.object({}).strict(),
    response: adSettingsSchema,
  }),
  adSaveSettings: endpoint({
    name: 'ad.saveSettings',
    path: '/api/ad/settings/save.shtm',
    auth: 'session',
    permission: Perm.advAudit,
    mutation: true,
    notForMonitor: true,
    // Applies to reviews decided from now on: an ad already waiting for its second audit keeps waiting.
    request: adSettingsSchema.strict(),
    response: ok,
  }),
  planList: endpoint({
    name: 'adPlan.list',
    path: '/api/ad/plan/list.shtm',
    auth: 'session',
    permission: Perm.advPlan,
    scope: { object: 'adPlan', kind: 'list' },
    request: z.object({ page, size: pageSize, name: z.string().trim().max(PLAN_NAME_MAX).optional() }).strict(),
    response: z.object({ total: z.number(), data: z.array(promotionPlanSchema) }),
  }),
  planInfo: endpoint({
    name: 'adPlan.info',
    path: '/api/ad/plan/info.shtm',
    auth: 'session',
    permission: Perm.advPlan,
    scope: { object: 'adPlan', kind: 'detail' },
    request: z.object({ id }).strict(),
    response: promotionPlanSchema,
  }),
  planSave: endpoint({
    name: 'adPlan.save',
    path: '/api/ad/plan/save.shtm',
    auth: 'session',
    permission: Perm.advPlan,
    mutation: true,
    notForMonitor: true,
    request: planBodySchema,
    response: z.object({ id: z.string() }),
  }),
  planUpdate: endpoint({
    name: 'adPlan.update',
    path: '/api/ad/plan/update.shtm',
    auth: 'session',
    permission: Perm.advPlan,
    mutation: true,
    notForMonitor: true,
    request: planUpdateSchema,
    response: ok,
    errors: [ErrorCode.NOT_FOUND, ErrorCode.NO_PERMISSION, ErrorCode.AD_PLAN_NOT_EDITABLE],
  }),
  planDelete: endpoint({
    name: 'adPlan.delete',
    path: '/api/ad/plan/delete.shtm',
    auth: 'session',
    permission: Perm.advPlan,
    mutation: true,
    notForMonitor: true,
    request: z.object({ id }).strict(),
    response: ok,
    errors: [ErrorCode.NOT_FOUND, ErrorCode.NO_PERMISSION, ErrorCode.AD_PLAN_NOT_EDITABLE, ErrorCode.AD_PLAN_IN_USE],
  }),
} as const;
