import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  boolean,
  check,
  date,
  index,
  integer,
  pgTable,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { createdAt, id, updatedAt } from './columns.js';

export type EnterpriseKind = 'provider' | 'enterprise' | 'agent';
export type EnterpriseStatus = 'enabled' | 'paused';

/**
 * The tenants. `provider` is the platform operator itself (its users are the spec's "YXF"
 * users), `agent` resells to enterprises it manages (`parent_id`).
 */
export const enterprises = pgTable(
  'enterprises',
  {
    id: id(),
    kind: text('kind').$type<EnterpriseKind>().notNull(),
    parentId: text('parent_id').references((): AnyPgColumn => enterprises.id),
    name: text('name').notNull(),
    socialCreditCode: text('social_credit_code'),
    /** Contact person and phone of the enterprise (issue 3, /user/company). */
    contact: text('contact').notNull().default(''),
    phone: text('phone').notNull().default(''),
    /** Individual or enterprise customer. */
    accountType: text('account_type').$type<'individual' | 'enterprise'>().notNull().default('enterprise'),
    status: text('status').$type<EnterpriseStatus>().notNull().default('enabled'),
    welcomeSpeech: text('welcome_speech').notNull().default(''),
    logo: text('logo').notNull().default(''),
    /** Ads need a second audit after the first pass (issue 13). */
    requireSecondAudit: boolean('require_second_audit').notNull().default(false),
    /**
     * The enterprise's IANA time zone (issue 31): its screens' wall clock unless a device
     * overrides it. Created with the configured DEFAULT_TIME_ZONE.
     */
    timeZone: text('time_zone').notNull().default('Asia/Shanghai'),
    /**
     * The zone the play rollups of its screens are keyed in (issue 31): its time_zone once the
     * `rollups-rezone` job has rebuilt them after a change; days before `rollupZoneSince` (when
     * set) were kept in an earlier zone.
     */
    rollupZone: text('rollup_zone').notNull().default('UTC'),
    rollupZoneSince: date('rollup_zone_since', { mode: 'string' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('enterprises_kind_check', sql`${t.kind} in ('provider', 'enterprise', 'agent')`),
    check('enterprises_status_check', sql`${t.status} in ('enabled', 'paused')`),
    uniqueIndex('enterprises_social_credit_code_key').on(t.socialCreditCode),
    index('enterprises_parent_idx').on(t.parentId),
  ],
);

/**
 * Department tree per enterprise. `path` is the materialized path of ids from the root,
 * `/<rootId>/.../<id>/`, so "department and below" is one indexed prefix match.
 */
export const departments = pgTable(
  'departments',
  {
    id: id(),
    entId: text('ent_id')
      .notNull()
      .references(() => enterprises.id),
    parentId: text('parent_id').references((): AnyPgColumn => departments.id),
    name: text('name').notNull(),
    path: text('path').notNull(),
    depth: integer('depth').notNull(),
    sort: integer('sort').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('departments_ent_path_idx').on(t.entId, t.path.op('text_pattern_ops')),
    index('departments_ent_parent_idx').on(t.entId, t.parentId),
  ],
);
