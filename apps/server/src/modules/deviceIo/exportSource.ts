import { formatTime } from '@marquee/protocol';
import { and, eq, gt, lt, lte, or, type SQL } from 'drizzle-orm';
import type { ScopeSubject } from '../../auth/scope.js';
import type { Executor } from '../../db/client.js';
import { departments, devices } from '../../db/schema/index.js';
import { newestFirst } from '../../db/sort.js';
import { effectiveStatus } from '../devices/repository.js';
import { type DeviceListFilter, deviceListWhere } from '../devices/service.js';
import { registerExportSource } from '../operationLog/exportJob.js';
import { EXPORT_HEADERS, EXPORT_SHEET, localeOf, STATUS_LABELS } from './texts.js';

/** What the device export job reads back: the caller's scope and the list's filters at the start. */
export interface DeviceExportSpec {
  subject: ScopeSubject;
  filter: DeviceListFilter;
  /** Devices added after the start are not exported (a stable snapshot). */
  until: string;
  language: string;
  /** The enterprise's custom fields when the export started (issue 31): their columns after the fixed ones. */
  customFields?: { key: string; label: string }[];
}

export const DEVICE_EXPORT_KIND = 'device';

/**
 * The devices matching `where` with their department's name, newest first (the list's
 * order), in batches of at most `limit` read by keyset: what a device export walks (the
 * device list's, the device report's).
 */
export async function* devicesNewestFirst(
  db: Executor,
  where: SQL,
  limit: number,
): AsyncGenerator<{ device: typeof devices.$inferSelect; deptName: string | null }[]> {
  let after: { createdAt: Date; id: string } | null = null;
  for (;;) {
    const keyset: SQL | undefined = after
      ? (or(
          lt(devices.createdAt, after.createdAt),
          and(eq(devices.createdAt, after.createdAt), gt(devices.id, after.id)),
        ) as SQL)
      : undefined;
    const rows: { device: typeof devices.$inferSelect; deptName: string | null }[] = await db
      .select({ device: devices, deptName: departments.name })
      .from(devices)
      .leftJoin(departments, eq(departments.id, devices.deptId))
      .where(keyset ? and(where, keyset) : where)
      .orderBy(...newestFirst(devices.createdAt, devices.id))
      .limit(limit);
    if (rows.length === 0) return;
    yield rows;
    const last: { createdAt: Date; id: string } = rows[rows.length - 1].device;
    after = { createdAt: last.createdAt, id: last.id };
  }
}

/** The device list as the export writes it (newest first, like the list). */
registerExportSource(DEVICE_EXPORT_KIND, {
  sheetName: (language) => EXPORT_SHEET[localeOf(language)],
  columns(language, filters) {
    const widths = [20, 28, 12, 20, 16, 16, 20, 14, 14, 14, 8, 8, 20, 20, 20];
    const custom = (filters as unknown as DeviceExportSpec).customFields ?? [];
    return [
      ...EXPORT_HEADERS[localeOf(language)].map((header, i) => ({ header, width: widths[i] })),
      ...custom.map((f) => ({ header: f.label, width: 18 })),
    ];
  },
  async *batches(services, filters, limit) {
    const spec = filters as unknown as DeviceExportSpec;
    const locale = localeOf(spec.language);
    const until = new Date(spec.until);
    const where = and(
      await deviceListWhere(services.db, spec.subject, spec.filter, until),
      lte(devices.createdAt, until),
    ) as SQL;
    for await (const rows of devicesNewestFirst(services.db, where, limit)) {
      const now = services.clock();
      yield rows.map(({ device: d, deptName }) => [
        d.number ?? '',
        d.name,
        STATUS_LABELS[locale][effectiveStatus(d, now)],
        deptName ?? '',
        d.playerVersion ?? '',
        d.ip ?? '',
        d.mac ?? '',
        d.storageUsed ?? '',
        d.storageFree ?? '',
        d.screenWidth && d.screenHeight ? `${d.screenWidth}x${d.screenHeight}` : '',
        d.volume ?? '',
        d.brightness ?? '',
        d.lastSeenAt ? formatTime(d.lastSeenAt) : '',
        d.activatedAt ? formatTime(d.activatedAt) : '',
        formatTime(d.createdAt),
        ...(spec.customFields ?? []).map((f) => d.customFields?.[f.key] ?? ''),
      ]);
    }
  },
});
