import type { AdPlayStrategy, AdReviewState, AdType } from '@marquee/protocol';
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  pgSequence,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { accounts } from './accounts.js';
import { createdAt, id, updatedAt } from './columns.js';
import { departments, enterprises } from './tenancy.js';

/**
 * Ads and promotion plans (issue 13). Both are data-scoped by `dept_id` and `owner_id`; ads are
 * shareable as ref-type '5'. An ad's status is never stored: it is derived from the facts kept
 * here (review state, paused, deleted, period, downloaded) by `adStatus` of the protocol.
 */

/**
 * Promotion plans: a plan groups ads with a budget and dates. Each enterprise has one default
 * plan (`is_default`, made on first need), which is never edited or deleted.
 */
export const promotionPlans = pgTable(
  'promotion_plans',
  {
    id: id(),
    entId: text('ent_id')
      .notNull()
      .references(() => enterprises.id),
    deptId: text('dept_id').references(() => departments.id),
    ownerId: text('owner_id').references(() => accounts.id),
    name: text('name').notNull(),
    /** Fen (1/100 yuan); null: no budget. */
    budgetCents: bigint('budget_cents', { mode: 'number' }),
    startDate: date('start_date', { mode: 'string' }),
    endDate: date('end_date', { mode: 'string' }),
    isDefault: boolean('is_default').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('promotion_plans_ent_default_key').on(t.entId).where(sql`${t.isDefault}`),
    index('promotion_plans_ent_created_idx').on(t.entId, t.createdAt.desc(), t.id),
    check('promotion_plans_budget_check', sql`${t.budgetCents} is null or ${t.budgetCents} >= 0`),
  ],
);

/** The ads' 9-digit numbers, unique on the platform. */
export const adNumberSeq = pgSequence('ad_number_seq', {
  startWith: 100000001,
  minValue: 100000000,
  maxValue: 999999999,
  increment: 1,
});

export interface AdTargetIds {
  deviceIds: string[];
  groupIds: string[];
  tagIds: string[];
  deptIds: string[];
  spliceIds: string[];
}

export const ads = pgTable(
  'ads',
  {
    id: id(),
    entId: text('ent_id')
      .notNull()
      .references(() => enterprises.id),
    /** 9 digits from ad_number_seq. */
    number: integer('number').notNull().default(sql`nextval('ad_number_seq')`),
    deptId: text('dept_id').references(() => departments.id),
    ownerId: text('owner_id')
      .notNull()
      .references(() => accounts.id),
    name: text('name').notNull(),
    type: text('type').$type<AdType>().notNull(),
    source: text('source').$type<'console' | 'order' | 'rtb'>().notNull().default('console'),
    planId: text('plan_id')
      .notNull()
      .references(() => promotionPlans.id),
    startAt: timestamp('start_at', { withTimezone: true }).notNull(),
    endAt: timestamp('end_at', { withTimezone: true }).notNull(),
    strategy: text('strategy').$type<AdPlayStrategy>().notNull(),
    playsMin: integer('plays_min').notNull(),
    playsMax: integer('plays_max').notNull(),
    /** Time periods of the day `[{ start, end }]` (HH:mm); empty: all day. */
    periods: jsonb('periods').$type<{ start: string; end: string }[]>().notNull().default([]),
    slotId: text('slot_id'),
    link: text('link').notNull().default(''),
    monitorUrl: text('monitor_url'),
    /** 1 to 20 materials, or `layout_id`. */
    materialIds: text('material_ids').array().notNull().default(sql`'{}'::text[]`),
    layoutId: text('layout_id'),
    targets: jsonb('targets').$type<AdTargetIds>().notNull(),
    reviewState: text('review_state').$type<AdReviewState>().notNull().default('pending'),
    reviewRound: integer('review_round').notNull().default(1),
    paused: boolean('paused').notNull().default(false),
    /** When a target first reported the content downloaded (the player slice sets it); null: not yet. */
    downloadedAt: timestamp('downloaded_at', { withTimezone: true }),
    /** Soft delete: the status 'deleted' (spec section 4). */
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('ads_number_key').on(t.number),
    index('ads_ent_created_idx').on(t.entId, t.createdAt.desc(), t.id),
    index('ads_ent_plan_idx').on(t.entId, t.planId),
    index('ads_material_ids_idx').using('gin', t.materialIds),
    index('ads_ent_layout_idx').on(t.entId, t.layoutId),
    check('ads_type_check', sql`${t.type} in ('common', 'emergency', 'interstitial', 'fallback', 'opening')`),
    check('ads_review_state_check', sql`${t.reviewState} in ('pending', 'pendingSecond', 'passed', 'failed')`),
    check('ads_strategy_check', sql`${t.strategy} in ('perDay', 'perLoop')`),
    check(
      'ads_plays_check',
      sql`${t.playsMin} between 1 and 99999 and ${t.playsMax} between 1 and 99999 and ${t.playsMin} <= ${t.playsMax}`,
    ),
    check('ads_period_check', sql`${t.endAt} > ${t.startAt}`),
  ],
);

/**
 * Review decisions, one per ad, round and stage: a decision is never changed (a second one on
 * the same review is refused by the service, and by this key under a race).
 */
export const adReviews = pgTable(
  'ad_reviews',
  {
    id: id(),
    entId: text('ent_id')
      .notNull()
      .references(() => enterprises.id),
    adId: text('ad_id')
      .notNull()
      .references(() => ads.id, { onDelete: 'cascade' }),
    round: integer('round').notNull(),
    stage: text('stage').$type<'first' | 'second'>().notNull(),
    decision: text('decision').$type<'pass' | 'fail'>().notNull(),
    reason: text('reason'),
    auditorId: text('auditor_id').references(() => accounts.id, { onDelete: 'set null' }),
    decidedAt: timestamp('decided_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('ad_reviews_ad_round_stage_key').on(t.adId, t.round, t.stage),
    check('ad_reviews_stage_check', sql`${t.stage} in ('first', 'second')`),
    check('ad_reviews_decision_check', sql`${t.decision} in ('pass', 'fail')`),
  ],
);
