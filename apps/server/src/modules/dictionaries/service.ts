import {
  DICTIONARY_ENTRIES_MAX,
  type DictionaryEntry,
  type DictionaryItem,
  type DictionaryKind,
  type DictionaryLabels,
  type DictionaryLanguage,
  ErrorCode,
  FIXED_DICTIONARY_KINDS,
  hasPermission,
  isLocale,
  Perm,
} from '@marquee/protocol';
import { and, asc, count, eq, max } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { adSlots, advertisers, devices, dictionaryEntries } from '../../db/schema/index.js';
import { AppError, type LocalizedText } from '../../protocol/appError.js';
import type { CallContext } from '../../protocol/handlers.js';
import { messages } from '../../protocol/messages.js';

/**
 * Dictionaries (issue 31; packages/protocol/src/endpoints/dictionaries.ts): the lists pickers
 * offer, platform-wide, kept by the platform operator (Perm.dictionaryManage, provider-only: the
 * enterprise kind is checked too). Stored data holds codes: a code never changes, an entry data
 * uses is disabled rather than deleted, and a fixed kind's codes (OpenOOH venue types) are only
 * relabelled, reordered, enabled or disabled.
 */

type EntryRow = typeof dictionaryEntries.$inferSelect;

/** Whether the caller keeps the dictionaries. */
export function isDictionaryManager(ctx: CallContext): boolean {
  return ctx.user.entKind === 'provider' && hasPermission(ctx.user.permissions, Perm.dictionaryManage);
}

function requireManager(ctx: CallContext): void {
  if (!isDictionaryManager(ctx)) throw new AppError(ErrorCode.NOT_FOUND);
}

function readerLanguage(ctx: CallContext): DictionaryLanguage {
  return isLocale(ctx.language) ? ctx.language : 'zh-CN';
}

const isFixed = (kind: DictionaryKind) => FIXED_DICTIONARY_KINDS.includes(kind);

async function entriesOf(db: Executor, kind: DictionaryKind): Promise<EntryRow[]> {
  return db
    .select()
    .from(dictionaryEntries)
    .where(eq(dictionaryEntries.kind, kind))
    .orderBy(asc(dictionaryEntries.sort), asc(dictionaryEntries.createdAt), asc(dictionaryEntries.code));
}

/**
 * Stored records holding each code of a kind (every enterprise's: the dictionary is the
 * platform's). Screen sizes are presets of a free number: no record names an entry.
 */
async function usageOf(db: Executor, kind: DictionaryKind): Promise<Map<string, number>> {
  const rows =
    kind === 'deviceType'
      ? await db.select({ code: devices.type, n: count() }).from(devices).groupBy(devices.type)
      : kind === 'scene'
        ? await db.select({ code: devices.scene, n: count() }).from(devices).groupBy(devices.scene)
        : kind === 'venueType'
          ? await db.select({ code: adSlots.venueType, n: count() }).from(adSlots).groupBy(adSlots.venueType)
          : kind === 'industry'
            ? await db
                .select({ code: advertisers.industry, n: count() })
                .from(advertisers)
                .groupBy(advertisers.industry)
            : [];
  return new Map(rows.filter((r) => r.code !== null).map((r) => [r.code as string, Number(r.n)]));
}

export async function list(input: { kind: DictionaryKind }, ctx: CallContext): Promise<DictionaryItem[]> {
  const language = readerLanguage(ctx);
  const rows = await entriesOf(ctx.db, input.kind);
  return rows.map((r) => ({ code: r.code, label: r.labels[language] || r.labels['zh-CN'], enabled: r.enabled }));
}

export async function manageList(
  input: { kind: DictionaryKind },
  ctx: CallContext,
): Promise<{ fixed: boolean; data: DictionaryEntry[] }> {
  requireManager(ctx);
  const [rows, usage] = await Promise.all([entriesOf(ctx.db, input.kind), usageOf(ctx.db, input.kind)]);
  return {
    fixed: isFixed(input.kind),
    data: rows.map((r) => ({
      id: r.id,
      kind: input.kind,
      code: r.code,
      labels: { 'zh-CN': r.labels['zh-CN'], 'en-US': r.labels['en-US'], ja: r.labels.ja },
      sort: r.sort,
      enabled: r.enabled,
      usage: usage.get(r.code) ?? 0,
    })),
  };
}

async function findEntry(ctx: CallContext, id: string): Promise<EntryRow> {
  const [row] = await ctx.db.select().from(dictionaryEntries).where(eq(dictionaryEntries.id, id)).for('update');
  if (!row) throw new AppError(ErrorCode.NOT_FOUND);
  return row;
}

export async function save(
  input: { id?: string; kind: DictionaryKind; code?: string; labels: DictionaryLabels },
  ctx: CallContext,
): Promise<{ id: string }> {
  requireManager(ctx);
  // A screen size's code is the number itself, written one way ('55', not '55.0'): the schema checked it.
  const code = input.code && input.kind === 'screenSize' ? String(Number(input.code)) : input.code;
  if (input.id) {
    const row = await findEntry(ctx, input.id);
    if (row.kind !== input.kind) throw new AppError(ErrorCode.NOT_FOUND);
    // The code names stored data: it is never changed (the form shows it read-only).
    if (code !== undefined && code !== row.code) throw new AppError(ErrorCode.DICTIONARY_FIXED);
    await ctx.db
      .update(dictionaryEntries)
      .set({ labels: input.labels, updatedAt: ctx.now })
      .where(eq(dictionaryEntries.id, row.id));
    await ctx.audit({
      module: 'dictionary',
      action: 'dictionaryUpdate',
      targetType: 'dictionary_entry',
      targetId: row.id,
      targetName: `${row.kind}.${row.code}`,
      detail: { labels: input.labels, previous: row.labels },
    });
    return { id: row.id };
  }
  if (isFixed(input.kind)) throw new AppError(ErrorCode.DICTIONARY_FIXED);
  if (!code) throw new AppError(ErrorCode.INVALID_PARAMS);
  const [taken] = await ctx.db
    .select({ id: dictionaryEntries.id })
    .from(dictionaryEntries)
    .where(and(eq(dictionaryEntries.kind, input.kind), eq(dictionaryEntries.code, code)));
  if (taken) throw new AppError(ErrorCode.DICTIONARY_CODE_TAKEN);
  const [stats] = await ctx.db
    .select({ n: count(), last: max(dictionaryEntries.sort) })
    .from(dictionaryEntries)
    .where(eq(dictionaryEntries.kind, input.kind));
  if (Number(stats?.n ?? 0) >= DICTIONARY_ENTRIES_MAX) throw new AppError(ErrorCode.INVALID_PARAMS);
  const [row] = await ctx.db
    .insert(dictionaryEntries)
    .values({
      kind: input.kind,
      code,
      labels: input.labels,
      sort: stats?.last === null || stats?.last === undefined ? 0 : Number(stats.last) + 1,
      createdAt: ctx.now,
      updatedAt: ctx.now,
    })
    // Two operators adding the same code at once: the unique index decides, the loser is told.
    .onConflictDoNothing()
    .returning({ id: dictionaryEntries.id });
  if (!row) throw new AppError(ErrorCode.DICTIONARY_CODE_TAKEN);
  await ctx.audit({
    module: 'dictionary',
    action: 'dictionaryCreate',
    targetType: 'dictionary_entry',
    targetId: row.id,
    targetName: `${input.kind}.${code}`,
    detail: { labels: input.labels },
  });
  return { id: row.id };
}

export async function reorder(input: { kind: DictionaryKind; ids: string[] }, ctx: CallContext): Promise<null> {
  requireManager(ctx);
  const rows = await entriesOf(ctx.db, input.kind);
  const unique = new Set(input.ids);
  // The new order names every entry of the kind once, and nothing else.
  if (unique.size !== input.ids.length || unique.size !== rows.length || rows.some((r) => !unique.has(r.id)))
    throw new AppError(ErrorCode.NOT_FOUND);
  for (const [sort, id] of input.ids.entries()) {
    await ctx.db.update(dictionaryEntries).set({ sort, updatedAt: ctx.now }).where(eq(dictionaryEntries.id, id));
  }
  await ctx.audit({
    module: 'dictionary',
    action: 'dictionaryReorder',
    targetType: 'dictionary_entry',
    targetName: input.kind,
    detail: { kind: input.kind, codes: input.ids.map((id) => rows.find((r) => r.id === id)?.code) },
  });
  return null;
}

/** Refuses to leave a kind without an enabled entry (a picker with nothing to offer). */
async function keepOneEnabled(ctx: CallContext, row: EntryRow): Promise<void> {
  if (!row.enabled) return;
  const [others] = await ctx.db
    .select({ n: count() })
    .from(dictionaryEntries)
    .where(and(eq(dictionaryEntries.kind, row.kind), eq(dictionaryEntries.enabled, true)));
  if (Number(others?.n ?? 0) <= 1) throw new AppError(ErrorCode.DICTIONARY_LAST_ENABLED);
}

export async function setEnabled(input: { id: string; enabled: boolean }, ctx: CallContext): Promise<null> {
  requireManager(ctx);
  const row = await findEntry(ctx, input.id);
  if (row.enabled === input.enabled) return null;
  if (!input.enabled) await keepOneEnabled(ctx, row);
  await ctx.db
    .update(dictionaryEntries)
    .set({ enabled: input.enabled, updatedAt: ctx.now })
    .where(eq(dictionaryEntries.id, row.id));
  await ctx.audit({
    module: 'dictionary',
    action: input.enabled ? 'dictionaryEnable' : 'dictionaryDisable',
    targetType: 'dictionary_entry',
    targetId: row.id,
    targetName: `${row.kind}.${row.code}`,
  });
  return null;
}

export async function remove(input: { id: string }, ctx: CallContext): Promise<null> {
  requireManager(ctx);
  const row = await findEntry(ctx, input.id);
  const kind = row.kind as DictionaryKind;
  if (isFixed(kind)) throw new AppError(ErrorCode.DICTIONARY_FIXED);
  if (((await usageOf(ctx.db, kind)).get(row.code) ?? 0) > 0) throw new AppError(ErrorCode.DICTIONARY_IN_USE);
  await keepOneEnabled(ctx, row);
  await ctx.db.delete(dictionaryEntries).where(eq(dictionaryEntries.id, row.id));
  await ctx.audit({
    module: 'dictionary',
    action: 'dictionaryDelete',
    targetType: 'dictionary_entry',
    targetId: row.id,
    targetName: `${row.kind}.${row.code}`,
    detail: { labels: row.labels },
  });
  return null;
}

/** DICTIONARY_VALUE_INVALID naming what was chosen, per kind a stored value holds. */
const disabledText: Partial<Record<DictionaryKind, LocalizedText>> = {
  deviceType: {
    'zh-CN': '所选设备类型已停用，请重新选择',
    'en-US': 'The chosen device type is disabled: choose another',
    ja: '選択したデバイス種別は無効になっています。選び直してください',
  },
  scene: {
    'zh-CN': '所选场景已停用，请重新选择',
    'en-US': 'The chosen scene is disabled: choose another',
    ja: '選択したシーンは無効になっています。選び直してください',
  },
  venueType: {
    'zh-CN': '所选场所类型已停用，请重新选择',
    'en-US': 'The chosen venue type is disabled: choose another',
    ja: '選択した施設の種類は無効になっています。選び直してください',
  },
  industry: {
    'zh-CN': '所选行业已停用，请重新选择',
    'en-US': 'The chosen industry is disabled: choose another',
    ja: '選択した業種は無効になっています。選び直してください',
  },
};

/**
 * Checks a value written to stored data against its dictionary: an enabled entry, or the value
 * the record already holds (a disabled type stays on the devices that have it until they change).
 * A code the dictionary never had is a bad parameter (INVALID_PARAMS naming `field`, as the
 * fixed list's schema answered); one disabled since is DICTIONARY_VALUE_INVALID, naming the kind.
 */
export async function checkDictionaryValue(
  db: Executor,
  kind: DictionaryKind,
  field: string,
  value: string,
  current?: string | null,
): Promise<void> {
  if (value === current) return;
  const row = await findCode(db, kind, field, value);
  if (!row.enabled) throw new AppError(ErrorCode.DICTIONARY_VALUE_INVALID, disabledText[kind]);
}

/** The entry of a code (a filter may name a disabled one); INVALID_PARAMS naming `field` when there is none. */
export async function findCode(
  db: Executor,
  kind: DictionaryKind,
  field: string,
  value: string,
): Promise<{ enabled: boolean }> {
  const [row] = await db
    .select({ enabled: dictionaryEntries.enabled })
    .from(dictionaryEntries)
    .where(and(eq(dictionaryEntries.kind, kind), eq(dictionaryEntries.code, value)));
  if (!row) throw new AppError(ErrorCode.INVALID_PARAMS, messages.invalidParams(field, { key: 'notAllowed' }));
  return row;
}
