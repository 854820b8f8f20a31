import type { DownloadState } from '@marquee/protocol';
import { sql } from 'drizzle-orm';
import { bigint, check, index, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { devices } from './devices.js';
import { materials } from './materials.js';

/**
 * Per-device download state (spec section 4 'Download'; docs/device-protocol.md 2.7.1): the
 * latest state of each material on each device, as its heartbeats report it
 * (modules/devices/downloads.ts writes only what changed). Removed with the device or the
 * material; scoped by `ent_id` (the device's, which is the material's).
 */
export const deviceDownloads = pgTable(
  'device_downloads',
  {
    deviceId: text('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    materialId: text('material_id')
      .notNull()
      .references(() => materials.id, { onDelete: 'cascade' }),
    entId: text('ent_id').notNull(),
    state: text('state').$type<DownloadState>().notNull(),
    bytesDone: bigint('bytes_done', { mode: 'number' }).notNull(),
    bytesTotal: bigint('bytes_total', { mode: 'number' }).notNull(),
    /** Why the last attempt failed (state `failed`). */
    error: text('error'),
    /** When the state last changed: the device's time, never later than the server's receipt. */
    changedAt: timestamp('changed_at', { withTimezone: true }).notNull(),
    /** The manifest version the report was about. */
    manifestVersion: text('manifest_version'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.deviceId, t.materialId] }),
    index('device_downloads_material_idx').on(t.materialId),
    check('device_downloads_state_check', sql`${t.state} in ('not_downloaded', 'downloading', 'failed', 'successful')`),
  ],
);

/**
 * Per device and manifest version: when the device first reported fetching it and when it
 * had all of it (switched to it). A push's download time on a device is the first manifest
 * it completed at or after the push.
 */
export const deviceManifestDownloads = pgTable(
  'device_manifest_downloads',
  {
    deviceId: text('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    manifestVersion: text('manifest_version').notNull(),
    entId: text('ent_id').notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.deviceId, t.manifestVersion] }),
    index('device_manifest_downloads_completed_idx').on(t.deviceId, t.completedAt),
  ],
);
