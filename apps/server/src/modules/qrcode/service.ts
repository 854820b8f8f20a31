import { type ExportStatus, type QrcodeGroup, type QrcodeReportRow, REPORT_MAX_DAYS } from '@marquee/protocol';
import { and, count, eq, gte, inArray, lt, type SQL, sql } from 'drizzle-orm';
import type { ScopeSubject } from '../../auth/scope.js';
import type { Executor } from '../../db/client.js';
import { ads, devices, qrcodeScans, templates } from '../../db/schema/index.js';
import type { CallContext } from '../../protocol/handlers.js';
import { deviceListWhere } from '../devices/repository.js';
import { beginExport, exportDownload, exportFileName, exportStatus } from '../operationLog/service.js';
import { dateRange, datesOf } from '../scheduling/playlist.js';

/**
 * The QR code events report (issue 31, /report/qrcodeEvent): the scans on the devices the caller
 * sees (an enterprise administrator: the enterprise's, including devices deleted since; a
 * department scope: the devices of its scope, as the device report), over UTC days, grouped by
 * day, ad, layout or device, read from qrcode_scans by its (ent_id, scanned_at) index.
 */

export const QRCODE_EXPORT_KIND = 'qrcode';
const DEFAULT_DAYS = 7;
const DAY_MS = 86_400_000;

export interface QrcodeFilter {
  from?: string;
  to?: string;
  groupBy?: QrcodeGroup;
  adId?: string;
  layoutId?: string;
  deviceId?: string;
}

export interface QrcodeRange {
  from: string;
  to: string;
}

export function qrcodeRange(input: { from?: string; to?: string }, now: Date): QrcodeRange {
  return dateRange(input, now.toISOString().slice(0, 10), { days: DEFAULT_DAYS, max: REPORT_MAX_DAYS, back: true });
}

/** The scans of the report: the caller's enterprise and scope, the range and the filters. */
export async function scansWhere(
  db: Executor,
  subject: ScopeSubject,
  filter: QrcodeFilter,
  range: QrcodeRange,
  now: Date,
): Promise<SQL> {
  const conds: SQL[] = [
    eq(qrcodeScans.entId, subject.entId),
    gte(qrcodeScans.scannedAt, new Date(`${range.from}T00:00:00.000Z`)),
    lt(qrcodeScans.scannedAt, new Date(new Date(`${range.to}T00:00:00.000Z`).getTime() + DAY_MS)),
  ];
  if (subject.dataScope !== 'all') {
    conds.push(
      inArray(
        qrcodeScans.deviceId,
        db
          .select({ id: devices.id })
          .from(devices)
          .where(await deviceListWhere(db, subject, {}, now)),
      ),
    );
  }
  if (filter.adId !== undefined) conds.push(eq(qrcodeScans.adId, filter.adId));
  if (filter.layoutId) conds.push(eq(qrcodeScans.layoutId, filter.layoutId));
  if (filter.deviceId) conds.push(eq(qrcodeScans.deviceId, filter.deviceId));
  return and(...conds) as SQL;
}

const dayOf = sql<string>`to_char(${qrcodeScans.scannedAt} at time zone 'UTC', 'YYYY-MM-DD')`;

function keyOf(group: QrcodeGroup) {
  switch (group) {
    case 'ad':
      return qrcodeScans.adId;
    case 'layout':
      return qrcodeScans.layoutId;
    case 'device':
      return qrcodeScans.deviceId;
    default:
      return dayOf;
  }
}

/** The rows of the grouping, most scans first (days: newest first); `page` null: every row. */
export async function groupedRows(
  db: Executor,
  entId: string,
  where: SQL,
  group: QrcodeGroup,
  page: { limit: number; offset: number } | null,
): Promise<QrcodeReportRow[]> {
  const key = keyOf(group);
  const scans = sql<number>`count(*)`.mapWith(Number);
  const query = db
    .select({
      key: sql<string>`${key}`.as('key'),
      scans,
      devices: sql<number>`count(distinct ${qrcodeScans.deviceId})`.mapWith(Number),
      lastAt: sql<string>`max(${qrcodeScans.scannedAt})`,
    })
    .from(qrcodeScans)
    .where(where)
    .groupBy(key)
    .orderBy(...(group === 'day' ? [sql`1 desc`] : [sql`2 desc`, sql`1`]));
  const rows = page ? await query.limit(page.limit).offset(page.offset) : await query;
  const names = await namesOf(
    db,
    entId,
    group,
    rows.map((r) => r.key),
  );
  return rows.map((r) => ({
    key: r.key,
    name: group === 'day' ? r.key : (names.get(r.key) ?? ''),
    scans: r.scans,
    devices: r.devices,
    lastAt: new Date(r.lastAt).getTime(),
  }));
}

async function namesOf(db: Executor, entId: string, group: QrcodeGroup, keys: string[]): Promise<Map<string, string>> {
  const ids = keys.filter((k) => k !== '');
  if (group === 'day' || ids.length === 0) return new Map();
  const table = group === 'ad' ? ads : group === 'layout' ? templates : devices;
  const rows = await db
    .select({ id: table.id, name: table.name })
    .from(table)
    .where(and(eq(table.entId, entId), inArray(table.id, ids)));
  return new Map(rows.map((r) => [r.id, r.name ?? '']));
}

/** qrcode.report: totals, a series a day and a page of the grouping. */
export async function qrcodeReport(
  input: QrcodeFilter & { groupBy: QrcodeGroup; page: number; size: number },
  ctx: CallContext,
) {
  const range = qrcodeRange(input, ctx.now);
  const where = await scansWhere(ctx.db, ctx.user, input, range, ctx.now);
  const [[totals], seriesRows, [{ total }], data] = await Promise.all([
    ctx.db
      .select({
        scans: sql<number>`count(*)`.mapWith(Number),
        devices: sql<number>`count(distinct ${qrcodeScans.deviceId})`.mapWith(Number),
      })
      .from(qrcodeScans)
      .where(where),
    ctx.db
      .select({ day: sql<string>`${dayOf}`.as('day'), scans: sql<number>`count(*)`.mapWith(Number) })
      .from(qrcodeScans)
      .where(where)
      .groupBy(dayOf),
    ctx.db.select({ total: count() }).from(
      ctx.db
        .select({ key: sql`${keyOf(input.groupBy)}`.as('key') })
        .from(qrcodeScans)
        .where(where)
        .groupBy(keyOf(input.groupBy))
        .as('groups'),
    ),
    groupedRows(ctx.db, ctx.user.entId, where, input.groupBy, {
      limit: input.size,
      offset: (input.page - 1) * input.size,
    }),
  ]);
  const byDay = new Map(seriesRows.map((r) => [r.day, r.scans]));
  return {
    from: range.from,
    to: range.to,
    totals: { scans: totals?.scans ?? 0, devices: totals?.devices ?? 0 },
    series: datesOf(range.from, range.to).map((day) => ({ day, scans: byDay.get(day) ?? 0 })),
    total,
    data,
  };
}

export interface QrcodeExportSpec {
  subject: ScopeSubject;
  filter: QrcodeFilter & { groupBy: QrcodeGroup };
  range: QrcodeRange;
  until: string;
  language: string;
}

export async function startQrcodeExport(
  filter: QrcodeFilter & { groupBy: QrcodeGroup },
  ctx: CallContext,
): Promise<ExportStatus> {
  const u = ctx.user;
  const spec: QrcodeExportSpec = {
    subject: { entId: u.entId, accountId: u.accountId, deptId: u.deptId, deptPath: u.deptPath, dataScope: u.dataScope },
    filter,
    range: qrcodeRange(filter, ctx.now),
    until: ctx.now.toISOString(),
    language: ctx.language,
  };
  return beginExport(ctx, {
    kind: QRCODE_EXPORT_KIND,
    filters: spec as unknown as Record<string, unknown> & { language: string },
    fileName: exportFileName('qrcode-events', ctx.now),
    count: async () => {
      const where = await scansWhere(ctx.db, spec.subject, filter, spec.range, ctx.now);
      const [row] = await ctx.db.select({ n: count() }).from(
        ctx.db
          .select({ key: sql`${keyOf(filter.groupBy)}`.as('key') })
          .from(qrcodeScans)
          .where(where)
          .groupBy(keyOf(filter.groupBy))
          .as('groups'),
      );
      return row.n;
    },
    module: 'report',
    detail: { filter },
  });
}

export const qrcodeExportStatus = (input: { exportId: string }, ctx: CallContext) =>
  exportStatus(input, ctx, QRCODE_EXPORT_KIND);
export const qrcodeExportDownload = (input: { exportId: string }, ctx: CallContext) =>
  exportDownload(input, ctx, QRCODE_EXPORT_KIND);
