import { EXPIRING_DEVICE_DAYS, formatSize, hasPermission, Perm, STORAGE_NEARLY_FULL_PERCENT } from '@marquee/protocol';
import { sql } from 'drizzle-orm';
import type { Principal } from '../../auth/principal.js';
import type { Executor } from '../../db/client.js';
import { registerLetterRule } from '../stationLetter/rules.js';
import { dayOf } from './calendar.js';
import { EXPIRING_LETTER, RENEWAL_FAILED_LETTER, STORAGE_LETTER } from './texts.js';

/**
 * The market's station letters (issue 27): devices expiring soon and storage nearly full are
 * computed from the facts when read; a failed renewal is stored by the job (renewal.ts).
 * Only readers who may use the market see the computed ones.
 */

export const DEVICES_EXPIRING_LETTER_KIND = 'market.devicesExpiring';
export const STORAGE_NEARLY_FULL_LETTER_KIND = 'market.storageNearlyFull';
export const RENEWAL_FAILED_LETTER_KIND = 'market.renewalFailed';

const DAY_MS = 86_400_000;
type Row = Record<string, unknown>;
const rowsOf = (result: unknown) => (result as { rows: Row[] }).rows;

const marketReader = (reader: Principal) =>
  hasPermission(reader.permissions, Perm.applicationMarket) || hasPermission(reader.permissions, Perm.appMarket);

registerLetterRule<{ count: number; soonest: string }>({
  kind: DEVICES_EXPIRING_LETTER_KIND,
  render: ({ count, soonest }, language) => EXPIRING_LETTER[language](count, soonest, EXPIRING_DEVICE_DAYS),
  async compute(db: Executor, reader: Principal, now: Date) {
    if (!marketReader(reader)) return [];
    const [row] = rowsOf(
      await db.execute(sql`
        select count(*) as n, min(expire_at) as soonest from devices
        where ent_id = ${reader.entId} and status <> 'invalid'
          and expire_at > ${now.toISOString()}::timestamptz
          and expire_at < ${new Date(now.getTime() + EXPIRING_DEVICE_DAYS * DAY_MS).toISOString()}::timestamptz`),
    );
    const count = Number(row?.n ?? 0);
    if (count === 0) return [];
    const soonest = row.soonest instanceof Date ? row.soonest : new Date(String(row.soonest));
    return [{ count, soonest: dayOf(soonest) }];
  },
});

registerLetterRule<{ used: number; quota: number }>({
  kind: STORAGE_NEARLY_FULL_LETTER_KIND,
  render: ({ used, quota }, language) =>
    STORAGE_LETTER[language](formatSize(used), formatSize(quota), Math.floor((used * 100) / Math.max(1, quota))),
  async compute(db: Executor, reader: Principal) {
    if (!marketReader(reader)) return [];
    const [row] = rowsOf(
      await db.execute(sql`select quota_bytes, used_bytes from storage_quotas where ent_id = ${reader.entId}`),
    );
    if (!row) return [];
    const quota = Number(row.quota_bytes);
    const used = Number(row.used_bytes);
    return quota > 0 && used * 100 >= quota * STORAGE_NEARLY_FULL_PERCENT ? [{ used, quota }] : [];
  },
});

registerLetterRule<{ day: string; insufficientBalance: number; offShelf: number; subjectGone: number }>({
  kind: RENEWAL_FAILED_LETTER_KIND,
  render: (params, language) => RENEWAL_FAILED_LETTER[language](params),
});
