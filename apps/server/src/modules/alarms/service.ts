import {
  type AlarmAction,
  type AlarmEvent,
  type AlarmEventFilter,
  type AlarmEventStateValue,
  type AlarmReport,
  type AlarmReportFilter,
  type AlarmStep,
  ErrorCode,
  type ExportStatus,
} from '@marquee/protocol';
import { and, asc, count, desc, eq, gte, ilike, inArray, lt, ne, or, type SQL, sql } from 'drizzle-orm';
import { type ScopeSubject, scopeSubjectOf, scopeWhere } from '../../auth/scope.js';
import type { Executor } from '../../db/client.js';
import { isUniqueViolation } from '../../db/errors.js';
import { alarmContacts, alarmEvents, alarmRegions, alarmSteps, devices } from '../../db/schema/index.js';
import { AppError } from '../../protocol/appError.js';
import type { CallContext } from '../../protocol/handlers.js';
import type { Files } from '../../storage/files.js';
import { deviceScope } from '../devices/repository.js';
import { resolveDeviceTargets } from '../devices/targets.js';
import { beginExport, exportDownload, exportFileName, exportStatus } from '../operationLog/service.js';

const escapeLike = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);
/** Days are UTC+8 calendar days (the console's reports). */
const OFFSET_MS = 8 * 3600_000;
const dayStart = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) - OFFSET_MS);
const dayAfter = (day: string) => new Date(dayStart(day).getTime() + 86_400_000);

// ------------------------------------------------------------------------------------------
// Regions and contacts (/alarm/setting)

export async function regionList(input: { keyword?: string }, ctx: CallContext) {
  const conds: SQL[] = [eq(alarmRegions.entId, ctx.user.entId)];
  if (input.keyword) conds.push(ilike(alarmRegions.name, `%${escapeLike(input.keyword)}%`));
  const regions = await ctx.db
    .select()
    .from(alarmRegions)
    .where(and(...conds))
    .orderBy(asc(alarmRegions.name));
  const ids = regions.map((r) => r.id);
  const contacts =
    ids.length === 0
      ? []
      : await ctx.db
          .select()
          .from(alarmContacts)
          .where(inArray(alarmContacts.regionId, ids))
          .orderBy(asc(alarmContacts.sort));
  const deviceIds = [...new Set(regions.flatMap((r) => r.deviceIds))];
  const names =
    deviceIds.length === 0
      ? []
      : await ctx.db
          .select({ id: devices.id, name: devices.name })
          .from(devices)
          .where(and(eq(devices.entId, ctx.user.entId), inArray(devices.id, deviceIds)));
  const nameOf = new Map(names.map((d) => [d.id, d.name]));
  return {
    total: regions.length,
    data: regions.map((r) => ({
      id: r.id,
      name: r.name,
      regionCodes: r.regionCodes,
      deviceIds: r.deviceIds.filter((d) => nameOf.has(d)),
      devices: r.deviceIds.filter((d) => nameOf.has(d)).map((d) => ({ id: d, name: nameOf.get(d) ?? '' })),
      contacts: contacts
        .filter((c) => c.regionId === r.id)
        .map((c) => ({ name: c.name, phone: c.phone, email: c.email ?? '' })),
      updatedAt: r.updatedAt.toISOString(),
    })),
  };
}

export async function regionSave(
  input: {
    id?: string;
    name: string;
    regionCodes: string[];
    deviceIds: string[];
    contacts: { name: string; phone: string; email: string }[];
  },
  ctx: CallContext,
): Promise<{ id: string }> {
  const deviceIds = [...new Set(input.deviceIds)];
  // Devices drawn into a region must be devices the caller sees.
  if (deviceIds.length > 0) await resolveDeviceTargets(ctx, { deviceIds });
  const values = {
    name: input.name,
    regionCodes: [...new Set(input.regionCodes)],
    deviceIds,
    updatedAt: ctx.now,
  };
  let id = input.id;
  try {
    if (id) {
      const [row] = await ctx.db
        .update(alarmRegions)
        .set(values)
        .where(and(eq(alarmRegions.id, id), eq(alarmRegions.entId, ctx.user.entId)))
        .returning({ id: alarmRegions.id });
      if (!row) throw new AppError(ErrorCode.NOT_FOUND);
      await ctx.db.delete(alarmContacts).where(eq(alarmContacts.regionId, id));
    } else {
      const [row] = await ctx.db
        .insert(alarmRegions)
        .values({ ...values, entId: ctx.user.entId, createdAt: ctx.now })
        .returning({ id: alarmRegions.id });
      id = row.id;
    }
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError(ErrorCode.ALARM_REGION_NAME_TAKEN);
    throw error;
  }
  const regionId = id;
  await ctx.db.insert(alarmContacts).values(
    input.contacts.map((c, i) => ({
      regionId,
      entId: ctx.user.entId,
      name: c.name,
      phone: c.phone,
      email: c.email || null,
      sort: i,
    })),
  );
  await ctx.audit({
    module: 'alarm',
    action: input.id ? 'update' : 'create',
    targetType: 'alarmRegion',
    targetId: regionId,
    targetName: input.name,
    detail: { contacts: input.contacts.length, devices: deviceIds.length, regionCodes: values.regionCodes },
  });
  return { id: regionId };
}

export async function regionDelete(input: { id: string }, ctx: CallContext): Promise<null> {
  const [row] = await ctx.db
    .delete(alarmRegions)
    .where(and(eq(alarmRegions.id, input.id), eq(alarmRegions.entId, ctx.user.entId)))
    .returning({ id: alarmRegions.id, name: alarmRegions.name });
  if (!row) throw new AppError(ErrorCode.NOT_FOUND);
  await ctx.audit({
    module: 'alarm',
    action: 'delete',
    targetType: 'alarmRegion',
    targetId: row.id,
    targetName: row.name,
  });
  return null;
}

// ------------------------------------------------------------------------------------------
// Events (/alarm)

type EventRow = {
  event: typeof alarmEvents.$inferSelect;
  deviceName: string;
  deviceNumber: string | null;
  address: string | null;
  latitude: number | null;
  longitude: number | null;
};

const eventColumns = {
  event: alarmEvents,
  deviceName: devices.name,
  deviceNumber: devices.number,
  address: devices.address,
  latitude: devices.latitude,
  longitude: devices.longitude,
};

function present(files: Files, r: EventRow, notified = 0, delivered = 0): AlarmEvent {
  const e = r.event;
  return {
    id: e.id,
    deviceId: e.deviceId,
    deviceName: r.deviceName,
    deviceNumber: r.deviceNumber,
    address: r.address,
    latitude: r.latitude,
    longitude: r.longitude,
    regionNames: e.regionNames,
    state: e.state,
    raisedAt: e.raisedAt.toISOString(),
    receivedAt: e.receivedAt.toISOString(),
    acknowledgedAt: e.acknowledgedAt?.toISOString() ?? null,
    handledAt: e.handledAt?.toISOString() ?? null,
    closedAt: e.closedAt?.toISOString() ?? null,
    note: e.note,
    screenshotUrl: e.screenshotKey ? files.signedUrl(e.screenshotKey) : null,
    notified,
    delivered,
  };
}

/** The events a subject sees: those of the devices it sees (the devices' data scope). */
function eventWhere(subject: ScopeSubject, input: AlarmEventFilter): SQL {
  const conds: SQL[] = [eq(alarmEvents.entId, subject.entId), scopeWhere(subject, deviceScope)];
  if (input.state) conds.push(eq(alarmEvents.state, input.state));
  if (input.open) conds.push(ne(alarmEvents.state, 'closed'));
  if (input.deviceId) conds.push(eq(alarmEvents.deviceId, input.deviceId));
  if (input.regionId) conds.push(sql`${alarmEvents.regionIds} @> ${JSON.stringify([input.regionId])}::jsonb`);
  if (input.from) conds.push(gte(alarmEvents.receivedAt, dayStart(input.from)));
  if (input.to) conds.push(lt(alarmEvents.receivedAt, dayAfter(input.to)));
  if (input.keyword) {
    const pattern = `%${escapeLike(input.keyword)}%`;
    conds.push(
      or(ilike(devices.name, pattern), ilike(devices.number, pattern), ilike(devices.address, pattern)) as SQL,
    );
  }
  return and(...conds) as SQL;
}

async function notifiedCounts(db: Executor, ids: string[]) {
  if (ids.length === 0) return new Map<string, { notified: number; delivered: number }>();
  const rows = await db
    .select({
      eventId: alarmSteps.eventId,
      notified: count(),
      delivered: sql<number>`count(*) filter (where ${alarmSteps.outcome} = 'delivered')`.mapWith(Number),
    })
    .from(alarmSteps)
    .where(and(inArray(alarmSteps.eventId, ids), eq(alarmSteps.kind, 'notified')))
    .groupBy(alarmSteps.eventId);
  return new Map(rows.map((r) => [r.eventId, { notified: r.notified, delivered: r.delivered }]));
}

export async function eventList(
  input: AlarmEventFilter & { page: number; size: number },
  ctx: CallContext,
): Promise<{ total: number; data: AlarmEvent[] }> {
  const where = eventWhere(ctx.user, input);
  const [rows, [{ total }]] = await Promise.all([
    ctx.db
      .select(eventColumns)
      .from(alarmEvents)
      .innerJoin(devices, eq(devices.id, alarmEvents.deviceId))
      .where(where)
      .orderBy(desc(alarmEvents.receivedAt), asc(alarmEvents.id))
      .limit(input.size)
      .offset((input.page - 1) * input.size),
    ctx.db
      .select({ total: count() })
      .from(alarmEvents)
      .innerJoin(devices, eq(devices.id, alarmEvents.deviceId))
      .where(where),
  ]);
  const counts = await notifiedCounts(
    ctx.db,
    rows.map((r) => r.event.id),
  );
  return {
    total,
    data: rows.map((r) => {
      const c = counts.get(r.event.id);
      return present(ctx.services.files, r, c?.notified ?? 0, c?.delivered ?? 0);
    }),
  };
}

async function visibleEvent(ctx: CallContext, id: string): Promise<EventRow> {
  const [row] = await ctx.db
    .select(eventColumns)
    .from(alarmEvents)
    .innerJoin(devices, eq(devices.id, alarmEvents.deviceId))
    .where(and(eq(alarmEvents.id, id), eventWhere(ctx.user, {})));
  if (!row) throw new AppError(ErrorCode.NOT_FOUND);
  return row;
}

export async function eventInfo(input: { id: string }, ctx: CallContext) {
  const row = await visibleEvent(ctx, input.id);
  const steps = await ctx.db
    .select()
    .from(alarmSteps)
    .where(eq(alarmSteps.eventId, row.event.id))
    .orderBy(
      asc(alarmSteps.at),
      asc(
        sql`case ${alarmSteps.kind} when 'raised' then 0 when 'notified' then 1 when 'acknowledged' then 2 when 'handled' then 3 else 4 end`,
      ),
    );
  const notified = steps.filter((s) => s.kind === 'notified');
  return {
    event: present(ctx.services.files, row, notified.length, notified.filter((s) => s.outcome === 'delivered').length),
    steps: steps.map(
      (s): AlarmStep => ({
        kind: s.kind,
        at: s.at.toISOString(),
        actorName: s.actorName,
        note: s.note,
        contactName: s.contactName,
        target: s.target,
        channel: s.channel,
        outcome: s.outcome,
        error: s.error,
      }),
    ),
  };
}

/** The header badge's and /alarm's poll: open events the caller sees and the newest one (an index range). */
export async function eventCount(_input: unknown, ctx: CallContext) {
  const where = and(eventWhere(ctx.user, { open: true }));
  const [[{ open }], [latest]] = await Promise.all([
    ctx.db
      .select({ open: count() })
      .from(alarmEvents)
      .innerJoin(devices, eq(devices.id, alarmEvents.deviceId))
      .where(where),
    ctx.db
      .select({ id: alarmEvents.id, at: alarmEvents.receivedAt })
      .from(alarmEvents)
      .innerJoin(devices, eq(devices.id, alarmEvents.deviceId))
      .where(where)
      .orderBy(desc(alarmEvents.receivedAt))
      .limit(1),
  ]);
  return { open, latestId: latest?.id ?? null, latestAt: latest?.at.toISOString() ?? null };
}

/** Which action moves which state: acknowledge a raised one, handle an acknowledged one (or a raised one), close any open one. */
const MOVES: Record<AlarmAction, { from: AlarmEventStateValue[]; to: AlarmEventStateValue }> = {
  acknowledge: { from: ['raised'], to: 'acknowledged' },
  handle: { from: ['raised', 'acknowledged'], to: 'handled' },
  close: { from: ['raised', 'acknowledged', 'handled'], to: 'closed' },
};
const STEP_OF = { acknowledge: 'acknowledged', handle: 'handled', close: 'closed' } as const;
const AUDIT_OF = { acknowledge: 'alarmAcknowledge', handle: 'alarmHandle', close: 'alarmClose' } as const;

export async function eventAct(input: { id: string; action: AlarmAction; note: string }, ctx: CallContext) {
  const row = await visibleEvent(ctx, input.id);
  const move = MOVES[input.action];
  if (input.action === 'close' && !input.note) throw new AppError(ErrorCode.ALARM_NOTE_REQUIRED);
  const stamp =
    input.action === 'acknowledge'
      ? { acknowledgedAt: ctx.now }
      : input.action === 'handle'
        ? { handledAt: ctx.now, acknowledgedAt: row.event.acknowledgedAt ?? ctx.now }
        : {
            closedAt: ctx.now,
            acknowledgedAt: row.event.acknowledgedAt ?? ctx.now,
            note: input.note,
          };
  const [updated] = await ctx.db
    .update(alarmEvents)
    .set({ state: move.to, ...stamp })
    .where(and(eq(alarmEvents.id, row.event.id), inArray(alarmEvents.state, move.from)))
    .returning({ id: alarmEvents.id });
  if (!updated) throw new AppError(ErrorCode.ALARM_EVENT_STATE);
  await ctx.db.insert(alarmSteps).values({
    eventId: row.event.id,
    kind: STEP_OF[input.action],
    at: ctx.now,
    actorId: ctx.user.accountId,
    actorName: ctx.user.realName || ctx.user.loginName,
    note: input.note,
  });
  await ctx.audit({
    module: 'alarm',
    action: AUDIT_OF[input.action],
    targetType: 'alarmEvent',
    targetId: row.event.id,
    targetName: row.deviceName,
    detail: { note: input.note },
  });
  return { state: move.to };
}

// ------------------------------------------------------------------------------------------
// Report (/alarm/report) and its export

/** The longest range with a daily series (a longer one answers its totals, regions and devices only). */
const MAX_SERIES_DAYS = 366;

function reportRange(input: AlarmReportFilter) {
  const from = dayStart(input.from);
  const to = dayAfter(input.to);
  const days = (to.getTime() - from.getTime()) / 86_400_000;
  if (!(days >= 1)) throw new AppError(ErrorCode.INVALID_PARAMS);
  return { from, to, days };
}

function durations(rows: { receivedAt: Date; acknowledgedAt: Date | null; closedAt: Date | null }[]) {
  const ack = rows.filter((r) => r.acknowledgedAt);
  const closed = rows.filter((r) => r.closedAt);
  const mean = (xs: number[]) => (xs.length === 0 ? null : Math.round(xs.reduce((a, b) => a + b, 0) / xs.length));
  return {
    events: rows.length,
    acknowledged: ack.length,
    closed: closed.length,
    meanAckSec: mean(ack.map((r) => ((r.acknowledgedAt as Date).getTime() - r.receivedAt.getTime()) / 1000)),
    meanCloseSec: mean(closed.map((r) => ((r.closedAt as Date).getTime() - r.receivedAt.getTime()) / 1000)),
  };
}

/** Events over time, per region, per device, with mean times to acknowledge and close (UTC+8 days). */
export async function alarmReport(input: AlarmReportFilter, ctx: CallContext): Promise<AlarmReport> {
  const { from, to, days: span } = reportRange(input);
  const where = and(
    eventWhere(ctx.user, { regionId: input.regionId }),
    gte(alarmEvents.receivedAt, from),
    lt(alarmEvents.receivedAt, to),
  );
  const rows = await ctx.db
    .select({
      deviceId: alarmEvents.deviceId,
      deviceName: devices.name,
      regionNames: alarmEvents.regionNames,
      receivedAt: alarmEvents.receivedAt,
      acknowledgedAt: alarmEvents.acknowledgedAt,
      closedAt: alarmEvents.closedAt,
    })
    .from(alarmEvents)
    .innerJoin(devices, eq(devices.id, alarmEvents.deviceId))
    .where(where)
    .limit(100_000);
  const days: AlarmReport['days'] = [];
  for (let t = from.getTime(); span <= MAX_SERIES_DAYS && t < to.getTime(); t += 86_400_000) {
    const day = new Date(t + OFFSET_MS).toISOString().slice(0, 10);
    const of = rows.filter((r) => r.receivedAt.getTime() >= t && r.receivedAt.getTime() < t + 86_400_000);
    days.push({ day, events: of.length, closed: of.filter((r) => r.closedAt).length });
  }
  const byRegion = new Map<string, typeof rows>();
  const byDevice = new Map<string, typeof rows>();
  for (const r of rows) {
    for (const name of r.regionNames.length > 0 ? r.regionNames : ['']) {
      byRegion.set(name, [...(byRegion.get(name) ?? []), r]);
    }
    byDevice.set(r.deviceId, [...(byDevice.get(r.deviceId) ?? []), r]);
  }
  return {
    totals: durations(rows),
    days,
    regions: [...byRegion.entries()]
      .map(([name, rs]) => ({ name, ...durations(rs) }))
      .sort((a, b) => b.events - a.events || a.name.localeCompare(b.name)),
    devices: [...byDevice.entries()]
      .map(([deviceId, rs]) => ({ deviceId, name: rs[0].deviceName, ...durations(rs) }))
      .sort((a, b) => b.events - a.events || a.name.localeCompare(b.name))
      .slice(0, 100),
  };
}

export const ALARM_EXPORT_KIND = 'alarmEvents';

export interface AlarmExportSpec {
  subject: ScopeSubject;
  filter: AlarmReportFilter;
  language: string;
}

/** The export's rows: the range's events, newest first, in keyset batches. */
export async function exportBatch(
  db: Executor,
  spec: AlarmExportSpec,
  after: { at: Date; id: string } | null,
  limit: number,
) {
  const { from, to } = reportRange(spec.filter);
  const conds: SQL[] = [
    eventWhere(spec.subject, { regionId: spec.filter.regionId }),
    gte(alarmEvents.receivedAt, from),
    lt(alarmEvents.receivedAt, to),
  ];
  if (after) {
    conds.push(
      or(
        lt(alarmEvents.receivedAt, after.at),
        and(eq(alarmEvents.receivedAt, after.at), sql`${alarmEvents.id} > ${after.id}`),
      ) as SQL,
    );
  }
  return db
    .select(eventColumns)
    .from(alarmEvents)
    .innerJoin(devices, eq(devices.id, alarmEvents.deviceId))
    .where(and(...conds))
    .orderBy(desc(alarmEvents.receivedAt), asc(alarmEvents.id))
    .limit(limit);
}

export async function startAlarmExport(input: AlarmReportFilter, ctx: CallContext): Promise<ExportStatus> {
  const { from, to } = reportRange(input);
  const subject = scopeSubjectOf(ctx.user);
  const spec: AlarmExportSpec = { subject, filter: input, language: ctx.language };
  return beginExport(ctx, {
    kind: ALARM_EXPORT_KIND,
    filters: spec as unknown as Record<string, unknown> & { language: string },
    fileName: exportFileName('alarm-events', ctx.now),
    count: async () => {
      const [{ total }] = await ctx.db
        .select({ total: count() })
        .from(alarmEvents)
        .innerJoin(devices, eq(devices.id, alarmEvents.deviceId))
        .where(
          and(
            eventWhere(subject, { regionId: input.regionId }),
            gte(alarmEvents.receivedAt, from),
            lt(alarmEvents.receivedAt, to),
          ),
        );
      return total;
    },
    module: 'alarm',
    detail: { filter: input },
  });
}

export const alarmExportStatus = (input: { exportId: string }, ctx: CallContext) =>
  exportStatus(input, ctx, ALARM_EXPORT_KIND);
export const alarmExportDownload = (input: { exportId: string }, ctx: CallContext) =>
  exportDownload(input, ctx, ALARM_EXPORT_KIND);
