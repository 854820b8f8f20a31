import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { accounts } from './accounts.js';
import { createdAt, id, updatedAt } from './columns.js';
import { deviceCommands, devices } from './devices.js';
import { enterprises } from './tenancy.js';

export type UpgradeKindValue = 'apk' | 'firmware';
export type UpgradePackageStateValue = 'uploading' | 'ready';
export type UpgradeRolloutStateValue = 'canary' | 'waiting' | 'rolling' | 'done' | 'halted' | 'rolledBack';
export type UpgradeDeviceStateValue = 'queued' | 'sent' | 'downloading' | 'installing' | 'done' | 'failed';

/**
 * Firmware and APK packages (issue 31, modules/upgrades): a file of the storage uploaded by
 * signed upload (`e/<entId>/upgrades/<id>.bin`); size and SHA-256 computed by the server on
 * verify (state uploading -> ready).
 */
export const upgradePackages = pgTable(
  'upgrade_packages',
  {
    id: id(),
    entId: text('ent_id')
      .notNull()
      .references(() => enterprises.id),
    kind: text('kind').$type<UpgradeKindValue>().notNull(),
    version: text('version').notNull(),
    /** The device model it is for ('' for any). */
    deviceType: text('device_type').notNull().default(''),
    fileKey: text('file_key').notNull(),
    fileName: text('file_name').notNull(),
    size: bigint('size', { mode: 'number' }).notNull().default(0),
    sha256: text('sha256').notNull().default(''),
    notes: text('notes').notNull().default(''),
    state: text('state').$type<UpgradePackageStateValue>().notNull().default('uploading'),
    createdBy: text('created_by').references(() => accounts.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('upgrade_packages_kind_check', sql`${t.kind} in ('apk', 'firmware')`),
    check('upgrade_packages_state_check', sql`${t.state} in ('uploading', 'ready')`),
    index('upgrade_packages_ent_idx').on(t.entId, t.createdAt.desc(), t.id),
  ],
);

/**
 * A staged rollout of one package to chosen devices: a canary share first, then the rest
 * (after the operator continues, or at once with autoContinue); halted automatically when
 * the failed share of the current stage's finished devices passes the threshold.
 */
export const upgradeRollouts = pgTable(
  'upgrade_rollouts',
  {
    id: id(),
    entId: text('ent_id')
      .notNull()
      .references(() => enterprises.id),
    packageId: text('package_id')
      .notNull()
      .references(() => upgradePackages.id),
    /** A rollback names the rollout it undoes. */
    rollbackOf: text('rollback_of'),
    canaryPercent: integer('canary_percent').notNull(),
    failureThreshold: integer('failure_threshold').notNull(),
    autoContinue: integer('auto_continue').notNull().default(0),
    state: text('state').$type<UpgradeRolloutStateValue>().notNull(),
    /** The stage being sent: 1 canary, 2 the rest. */
    stage: integer('stage').notNull().default(1),
    haltReason: text('halt_reason'),
    createdBy: text('created_by').references(() => accounts.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check(
      'upgrade_rollouts_state_check',
      sql`${t.state} in ('canary', 'waiting', 'rolling', 'done', 'halted', 'rolledBack')`,
    ),
    index('upgrade_rollouts_ent_idx').on(t.entId, t.createdAt.desc(), t.id),
    index('upgrade_rollouts_package_idx').on(t.packageId),
  ],
);

/** Each target device's progress in a rollout, updated from its acks (one transaction per ack). */
export const upgradeRolloutDevices = pgTable(
  'upgrade_rollout_devices',
  {
    id: id(),
    rolloutId: text('rollout_id')
      .notNull()
      .references(() => upgradeRollouts.id, { onDelete: 'cascade' }),
    deviceId: text('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    stage: integer('stage').notNull(),
    state: text('state').$type<UpgradeDeviceStateValue>().notNull().default('queued'),
    commandId: text('command_id').references(() => deviceCommands.id, { onDelete: 'set null' }),
    /** The version the device reported before (apk: player version; firmware: firmware). */
    previousVersion: text('previous_version'),
    reason: text('reason'),
    updatedAt: updatedAt(),
  },
  (t) => [
    check(
      'upgrade_rollout_devices_state_check',
      sql`${t.state} in ('queued', 'sent', 'downloading', 'installing', 'done', 'failed')`,
    ),
    uniqueIndex('upgrade_rollout_devices_key').on(t.rolloutId, t.deviceId),
    index('upgrade_rollout_devices_command_idx').on(t.commandId),
  ],
);
