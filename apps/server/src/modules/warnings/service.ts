import { ErrorCode, type ExportStatus, type endpoints, WARNING_KINDS, type WarningFilter } from '@marquee/protocol';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { scopeSubjectOf } from '../../auth/scope.js';
import { accounts, warningRecipients, warnings } from '../../db/schema/index.js';
import { AppError } from '../../protocol/appError.js';
import type { CallContext } from '../../protocol/handlers.js';
import { registerStat } from '../home/stats.js';
import { beginExport, exportDownload, exportFileName, exportStatus } from '../operationLog/service.js';
import { WARNINGS_EXPORT_KIND, type WarningsExportSpec } from './exportSource.js';
import { countWarnings, liveCounts, pageOfWarnings, toWarning, warningScopeWhere, warningWhere } from './repository.js';
import { KIND_NAMES, localeOf, WarningsText } from './texts.js';

type In<K extends keyof typeof endpoints> = z.infer<(typeof endpoints)[K]['request']>;

function checkRange(f: WarningFilter) {
  if (f.from && f.to && new Date(f.from).getTime() > new Date(f.to).getTime()) {
    throw new AppError(ErrorCode.INVALID_PARAMS, WarningsText.rangeReversed);
  }
}

// The home page's figure: the enterprise's open warnings (the warning page counts them per kind).
registerStat({
  key: 'warningsOpen',
  count: async (db, caller) => {
    const [row] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(warnings)
      .where(and(warningScopeWhere(caller), eq(warnings.state, 'open')));
    return Number(row?.n ?? 0);
  },
});

export async function warningList(input: In<'warningsList'>, ctx: CallContext) {
  const { page, size, ...filter } = input;
  checkRange(filter);
  const where = warningWhere(ctx.user, filter);
  const [total, rows, counts] = await Promise.all([
    countWarnings(ctx.db, where),
    pageOfWarnings(ctx.db, where, size, (page - 1) * size),
    liveCounts(ctx.db, ctx.user),
  ]);
  return { total, data: rows.map(toWarning), counts };
}

/** Acknowledges the open ones among `ids` (of the caller's enterprise); NOT_FOUND when none is the enterprise's. */
export async function warningAcknowledge(input: In<'warningsAcknowledge'>, ctx: CallContext) {
  const ids = [...new Set(input.ids)];
  const mine = await ctx.db
    .select({ id: warnings.id, state: warnings.state, objectName: warnings.objectName })
    .from(warnings)
    .where(and(warningScopeWhere(ctx.user), inArray(warnings.id, ids)));
  if (mine.length === 0) throw new AppError(ErrorCode.NOT_FOUND, WarningsText.notFound);
  const open = mine.filter((w) => w.state === 'open').map((w) => w.id);
  if (open.length > 0) {
    await ctx.db
      .update(warnings)
      .set({ state: 'acknowledged', acknowledgedBy: ctx.user.accountId, acknowledgedAt: ctx.now })
      .where(and(eq(warnings.entId, ctx.user.entId), inArray(warnings.id, open), eq(warnings.state, 'open')));
  }
  const named = open.length > 0 ? mine.filter((w) => open.includes(w.id)) : mine;
  await ctx.audit({
    module: 'warnings',
    action: 'acknowledge',
    targetType: 'warning',
    targetId: named.map((w) => w.id).join(','),
    targetName: named
      .map((w) => w.objectName || w.id)
      .join(', ')
      .slice(0, 200),
    detail: { count: open.length },
  });
  return { updated: open.length };
}

export async function startWarningExport(input: WarningFilter, ctx: CallContext): Promise<ExportStatus> {
  checkRange(input);
  const spec: WarningsExportSpec = { subject: scopeSubjectOf(ctx.user), filter: input, language: ctx.language };
  return beginExport(ctx, {
    kind: WARNINGS_EXPORT_KIND,
    filters: spec as unknown as Record<string, unknown> & { language: string },
    fileName: exportFileName('warnings', ctx.now),
    count: () => countWarnings(ctx.db, warningWhere(spec.subject, input)),
    module: 'warnings',
    detail: { filter: input },
  });
}

export const warningExportStatus = (input: { exportId: string }, ctx: CallContext) =>
  exportStatus(input, ctx, WARNINGS_EXPORT_KIND);
export const warningExportDownload = (input: { exportId: string }, ctx: CallContext) =>
  exportDownload(input, ctx, WARNINGS_EXPORT_KIND);

export async function warningSettings(ctx: CallContext) {
  const [rows, people] = await Promise.all([
    ctx.db
      .select({ kind: warningRecipients.kind, accountId: warningRecipients.accountId })
      .from(warningRecipients)
      .where(eq(warningRecipients.entId, ctx.user.entId)),
    ctx.db
      .select({
        id: accounts.id,
        name: sql<string>`coalesce(nullif(${accounts.realName}, ''), ${accounts.loginName})`,
        phone: sql<boolean>`${accounts.phone} is not null and ${accounts.phone} <> ''`,
        email: sql<boolean>`${accounts.email} is not null and ${accounts.email} <> ''`,
      })
      .from(accounts)
      .where(and(eq(accounts.entId, ctx.user.entId), eq(accounts.status, 'enabled')))
      .orderBy(accounts.loginName)
      .limit(500),
  ]);
  return {
    recipients: WARNING_KINDS.map((kind) => ({
      kind,
      accountIds: rows.filter((r) => r.kind === kind).map((r) => r.accountId),
    })),
    accounts: people.map((p) => ({ ...p, phone: Boolean(p.phone), email: Boolean(p.email) })),
  };
}

/** Replaces the accounts notified of one kind; every account must be the enterprise's. */
export async function warningSettingsSave(input: In<'warningsSettingsSave'>, ctx: CallContext) {
  const ids = [...new Set(input.accountIds)];
  if (ids.length > 0) {
    const found = await ctx.db
      .select({ id: accounts.id })
      .from(accounts)
      .where(and(eq(accounts.entId, ctx.user.entId), inArray(accounts.id, ids)));
    if (found.length !== ids.length) throw new AppError(ErrorCode.NOT_FOUND, WarningsText.accountNotFound);
  }
  await ctx.db
    .delete(warningRecipients)
    .where(and(eq(warningRecipients.entId, ctx.user.entId), eq(warningRecipients.kind, input.kind)));
  if (ids.length > 0) {
    await ctx.db
      .insert(warningRecipients)
      .values(ids.map((accountId) => ({ entId: ctx.user.entId, kind: input.kind, accountId, createdAt: ctx.now })));
  }
  await ctx.audit({
    module: 'warnings',
    action: 'settings',
    targetType: 'warningSettings',
    targetId: input.kind,
    targetName: KIND_NAMES[input.kind][localeOf(ctx.language)],
    detail: { accountIds: ids },
  });
  return { kind: input.kind, accountIds: ids };
}
