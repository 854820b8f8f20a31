import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { accounts } from './accounts.js';
import { createdAt, id, updatedAt } from './columns.js';
import { deviceCommands, devices } from './devices.js';
import { departments, enterprises } from './tenancy.js';

/** Spec section 3: the strategy types. */
export type StrategyTypeValue = 'power' | 'volume' | 'brightness' | 'operation' | 'download';

/**
 * Device strategies (issue 9; /device/strategy): one type's typed rules (strategyRules.ts in
 * the protocol), data-scoped by `dept_id` and `owner_id`. `version` rises with every update,
 * so a device that got an older one shows as out of date.
 */
export const strategies = pgTable(
  'strategies',
  {
    id: id(),
    entId: text('ent_id')
      .notNull()
      .references(() => enterprises.id),
    deptId: text('dept_id').references(() => departments.id),
    ownerId: text('owner_id').references(() => accounts.id),
    type: text('type').$type<StrategyTypeValue>().notNull(),
    name: text('name').notNull(),
    remark: text('remark').notNull().default(''),
    rules: jsonb('rules').$type<Record<string, unknown>>().notNull(),
    version: integer('version').notNull().default(1),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('strategies_type_check', sql`${t.type} in ('power', 'volume', 'brightness', 'operation', 'download')`),
    index('strategies_ent_type_updated_idx').on(t.entId, t.type, t.updatedAt.desc(), t.id),
    index('strategies_ent_dept_idx').on(t.entId, t.deptId),
  ],
);

/**
 * Which strategy each device has per type (the device detail shows it): replaced by every
 * application; the command that carried it tells whether the device acknowledged it. A
 * strategy that is some device's current one cannot be deleted (restrict).
 */
export const deviceStrategies = pgTable(
  'device_strategies',
  {
    deviceId: text('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    type: text('type').$type<StrategyTypeValue>().notNull(),
    entId: text('ent_id').notNull(),
    strategyId: text('strategy_id')
      .notNull()
      .references(() => strategies.id, { onDelete: 'restrict' }),
    /** The strategy's version the device was sent. */
    version: integer('version').notNull(),
    commandId: text('command_id').references(() => deviceCommands.id, { onDelete: 'set null' }),
    appliedAt: timestamp('applied_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.deviceId, t.type] }), index('device_strategies_strategy_idx').on(t.strategyId)],
);

/** One application of a strategy (who applied it to which devices, when). */
export const strategyApplications = pgTable(
  'strategy_applications',
  {
    id: id(),
    entId: text('ent_id').notNull(),
    strategyId: text('strategy_id')
      .notNull()
      .references(() => strategies.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    accountId: text('account_id'),
    createdAt: createdAt(),
  },
  (t) => [index('strategy_applications_strategy_idx').on(t.strategyId, t.createdAt.desc())],
);

/** The devices of an application and the command each was sent. */
export const strategyApplicationDevices = pgTable(
  'strategy_application_devices',
  {
    applicationId: text('application_id')
      .notNull()
      .references(() => strategyApplications.id, { onDelete: 'cascade' }),
    deviceId: text('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    commandId: text('command_id')
      .notNull()
      .references(() => deviceCommands.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.applicationId, t.deviceId] })],
);
