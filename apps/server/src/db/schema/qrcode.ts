import { index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * QR code scans (issue 31, modules/qrcode; docs/ARCHITECTURE.md "QR code events"): one row per
 * scan of a layout's QR component through its short link (/q/<token>). The id is made when the
 * scan is answered, so a batch written twice (a retry after a lost answer, a spill file read
 * again) counts once. No personal data: no IP, only the scanner's user agent and language.
 * `ad_id` is '' for a device's own layout (not shown by an ad).
 */
export const qrcodeScans = pgTable(
  'qrcode_scans',
  {
    id: text('id').primaryKey(),
    entId: text('ent_id').notNull(),
    deviceId: text('device_id').notNull(),
    adId: text('ad_id').notNull().default(''),
    layoutId: text('layout_id').notNull(),
    componentId: text('component_id').notNull(),
    scannedAt: timestamp('scanned_at', { withTimezone: true }).notNull(),
    userAgent: text('user_agent').notNull().default(''),
    language: text('language').notNull().default(''),
  },
  (t) => [
    index('qrcode_scans_ent_time_idx').on(t.entId, t.scannedAt),
    index('qrcode_scans_device_time_idx').on(t.deviceId, t.scannedAt),
  ],
);
