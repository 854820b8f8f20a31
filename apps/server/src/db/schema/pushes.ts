import type { PushReason } from '@marquee/protocol';
import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt, id, updatedAt } from './columns.js';
import { devices } from './devices.js';

/**
 * Issued records (issue 13, /report/issuedRecords): every time the product tells devices to
 * fetch a new manifest, one push, and one syncContent command per device carrying its id
 * (device_commands.push_id), whose state is the device's result. `ad_id` names the ad the push
 * is about (an ad's change, broadcast or repush), null for a layout, a playlist sort or a split screen's change.
 */
export const contentPushes = pgTable(
  'content_pushes',
  {
    id: id(),
    entId: text('ent_id').notNull(),
    /** One of the protocol's PUSH_REASONS. */
    reason: text('reason').$type<PushReason>().notNull(),
    adId: text('ad_id'),
    /** Who pushed (null for the server's own pushes). */
    accountId: text('account_id'),
    deviceCount: integer('device_count').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    check(
      'content_pushes_reason_check',
      sql`${t.reason} in ('adApproved', 'adChanged', 'adPaused', 'adEnabled', 'adDeleted', 'broadcast', 'repush', 'layout', 'playlistSort', 'splice', 'watermark')`,
    ),
    index('content_pushes_ent_created_idx').on(t.entId, t.createdAt.desc(), t.id),
    index('content_pushes_ent_ad_idx').on(t.entId, t.adId, t.createdAt.desc()),
  ],
);

/**
 * A device's playlist sort (spec 'playlist sort'): the order of its loop's common ads
 * (orderAds of the protocol), applied by the 'ad' content source before the plays are spread.
 */
export const devicePlaylistOrders = pgTable('device_playlist_orders', {
  deviceId: text('device_id')
    .primaryKey()
    .references(() => devices.id, { onDelete: 'cascade' }),
  entId: text('ent_id').notNull(),
  adIds: jsonb('ad_ids').$type<string[]>().notNull(),
  accountId: text('account_id'),
  updatedAt: updatedAt(),
});
