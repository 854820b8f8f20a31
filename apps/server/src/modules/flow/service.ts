import {
  CARD_IMPORT_MAX_ROWS,
  CARD_OPERATORS,
  CARD_TRANSITIONS,
  type CardAction,
  type CardOperator,
  ErrorCode,
  type ExportStatus,
  type endpoints,
  FLOW_REPORT_MAX_DAYS,
  FLOW_REPORT_TOTAL_CAP,
  type IotCard,
  iccidSchema,
} from '@marquee/protocol';
import { and, eq, inArray } from 'drizzle-orm';
import type { z } from 'zod';
import { isUniqueViolation } from '../../db/errors.js';
import { iotCards } from '../../db/schema/index.js';
import { AppError, type LocalizedText } from '../../protocol/appError.js';
import { type CallContext, type FileAnswer, joinTargetNames } from '../../protocol/handlers.js';
import { loadManaged } from '../devices/service.js';
import { beginExport, exportDownload, exportFileName, exportStatus } from '../operationLog/service.js';
import { USAGE_EXPORT_KIND, type UsageExportSpec } from './exportSource.js';
import type { CardSheetRow, ParsedCardSheet } from './importSheet.js';
import { toCard, toUsageRow } from './presenter.js';
import {
  cardOfDevice,
  countUsage,
  daysBetween,
  findCards,
  listCards,
  takenIccids,
  type UsageFilter,
  usagePage,
  usageSeries,
  usageWhere,
} from './repository.js';
import {
  CARD_IMPORT_HEADERS,
  CARD_TEMPLATE_TEXT,
  CardImportText,
  EXAMPLE_ICCID,
  FlowText,
  localeOf,
  OPERATOR_WORDS,
} from './texts.js';

/**
 * IoT cards and their data (issue 27, /operate/flow and /report/flowConsumption): the cards of
 * the caller's enterprise (a card of another enterprise is NOT_FOUND), their state machine
 * (CARD_TRANSITIONS is the only rule), binding to devices, the Excel import, and the
 * consumption report of the usage the players upload (./usage.ts).
 */

type In<E extends keyof typeof endpoints> = z.infer<(typeof endpoints)[E]['request']>;

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const DAY_MS = 86_400_000;

/** The enterprise's card as shown, or NOT_FOUND. */
async function cardOf(ctx: CallContext, id: string): Promise<IotCard> {
  const [row] = await findCards(ctx.db, ctx.user.entId, [id], ctx.now);
  if (!row) throw new AppError(ErrorCode.NOT_FOUND, FlowText.cardNotFound);
  return toCard(row);
}

export async function cardList(input: In<'flowCardList'>, ctx: CallContext) {
  const { page, size, ...filter } = input;
  if (filter.leftMin !== undefined && filter.leftMax !== undefined && filter.leftMin > filter.leftMax) {
    throw new AppError(ErrorCode.INVALID_PARAMS, FlowText.trafficReversed);
  }
  const { total, rows } = await listCards(ctx.db, ctx.user.entId, filter, { page, size }, ctx.now);
  return { total, data: rows.map(toCard) };
}

export const cardInfo = (input: In<'flowCardInfo'>, ctx: CallContext) => cardOf(ctx, input.id);

/** Registers a card in stock (the ICCID upper-cased; CONFLICT when any enterprise registered it). */
export async function cardAdd(input: In<'flowCardAdd'>, ctx: CallContext): Promise<IotCard> {
  const iccid = input.iccid.toUpperCase();
  if ((await takenIccids(ctx.db, [iccid])).size > 0) throw new AppError(ErrorCode.CONFLICT, FlowText.iccidTaken);
  let id: string;
  try {
    [{ id }] = await ctx.db
      .insert(iotCards)
      .values({
        entId: ctx.user.entId,
        iccid,
        operator: input.operator,
        remark: input.remark,
        createdAt: ctx.now,
        updatedAt: ctx.now,
      })
      .returning({ id: iotCards.id });
  } catch (error) {
    // Another call registered it between the check and the insert.
    if (isUniqueViolation(error)) throw new AppError(ErrorCode.CONFLICT, FlowText.iccidTaken);
    throw error;
  }
  await ctx.audit({
    module: 'flow',
    action: 'add',
    targetType: 'iotCard',
    targetId: id,
    targetName: iccid,
    detail: { operator: input.operator },
  });
  return cardOf(ctx, id);
}

export async function cardUpdate(input: In<'flowCardUpdate'>, ctx: CallContext): Promise<IotCard> {
  const updated = await ctx.db
    .update(iotCards)
    .set({ operator: input.operator, remark: input.remark, updatedAt: ctx.now })
    .where(and(eq(iotCards.id, input.id), eq(iotCards.entId, ctx.user.entId)))
    .returning({ iccid: iotCards.iccid });
  if (updated.length === 0) throw new AppError(ErrorCode.NOT_FOUND, FlowText.cardNotFound);
  await ctx.audit({
    module: 'flow',
    action: 'update',
    targetType: 'iotCard',
    targetId: input.id,
    targetName: updated[0].iccid,
    detail: { operator: input.operator, remark: input.remark },
  });
  return cardOf(ctx, input.id);
}

/**
 * Binds a card to a device the caller may manage, or unbinds it (deviceId null). A device
 * holds one card (CONFLICT); a cancelled card binds to nothing (CARD_STATE).
 */
export async function cardBind(input: In<'flowCardBind'>, ctx: CallContext): Promise<IotCard> {
  const card = await cardOf(ctx, input.id);
  if (input.deviceId === null) {
    if (card.deviceId !== null) {
      await ctx.db
        .update(iotCards)
        .set({ deviceId: null, updatedAt: ctx.now })
        .where(and(eq(iotCards.id, card.id), eq(iotCards.entId, ctx.user.entId)));
    }
    await ctx.audit({
      module: 'flow',
      action: 'unbind',
      targetType: 'iotCard',
      targetId: card.id,
      targetName: card.iccid,
      detail: { deviceId: card.deviceId },
    });
    return cardOf(ctx, card.id);
  }
  if (card.state === 'cancelled') throw new AppError(ErrorCode.CARD_STATE, FlowText.cancelledCard);
  const [device] = await loadManaged(ctx, [input.deviceId]);
  if (await cardOfDevice(ctx.db, device.id, card.id)) throw new AppError(ErrorCode.CONFLICT, FlowText.deviceHasCard);
  try {
    await ctx.db
      .update(iotCards)
      .set({ deviceId: device.id, updatedAt: ctx.now })
      .where(and(eq(iotCards.id, card.id), eq(iotCards.entId, ctx.user.entId)));
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError(ErrorCode.CONFLICT, FlowText.deviceHasCard);
    throw error;
  }
  await ctx.audit({
    module: 'flow',
    action: 'bind',
    targetType: 'iotCard',
    targetId: card.id,
    targetName: card.iccid,
    detail: { deviceId: device.id, deviceName: device.name },
  });
  return cardOf(ctx, card.id);
}

/**
 * Applies an action to cards: every card must be the enterprise's (NOT_FOUND) and in a state
 * the action leaves (CARD_STATE naming the others, nothing changed). Cancelling unbinds.
 */
export async function cardTransition(input: In<'flowCardTransition'>, ctx: CallContext) {
  const action: CardAction = input.action;
  const rule = CARD_TRANSITIONS[action];
  const ids = [...new Set(input.ids)];
  const cards = await ctx.db
    .select({ id: iotCards.id, iccid: iotCards.iccid, state: iotCards.state })
    .from(iotCards)
    .where(and(eq(iotCards.entId, ctx.user.entId), inArray(iotCards.id, ids)))
    .for('update');
  if (cards.length !== ids.length) throw new AppError(ErrorCode.NOT_FOUND, FlowText.cardNotFound);
  const refused = cards.filter((c) => !rule.from.includes(c.state));
  if (refused.length > 0) {
    throw new AppError(ErrorCode.CARD_STATE, FlowText.transitionRefused(joinTargetNames(refused.map((c) => c.iccid))));
  }
  await ctx.db
    .update(iotCards)
    .set({ state: rule.to, updatedAt: ctx.now, ...(action === 'cancel' ? { deviceId: null } : {}) })
    .where(and(eq(iotCards.entId, ctx.user.entId), inArray(iotCards.id, ids)));
  await ctx.audit({
    module: 'flow',
    action,
    targetType: 'iotCard',
    targetName: joinTargetNames(cards.map((c) => c.iccid)),
    detail: { ids, from: [...new Set(cards.map((c) => c.state))], to: rule.to },
  });
  return { updated: cards.length };
}

// ---- Import ----

/** The import template in the caller's language: the columns, an example row, and a notes sheet. */
export async function cardImportTemplate(ctx: CallContext): Promise<FileAnswer> {
  const locale = localeOf(ctx.language);
  const { default: ExcelJS } = await import('exceljs');
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet(CARD_TEMPLATE_TEXT.sheet[locale]);
  const headers = CARD_IMPORT_HEADERS[locale];
  sheet.columns = [
    { header: headers.iccid, key: 'iccid', width: 26 },
    { header: headers.operator, key: 'operator', width: 20 },
    { header: headers.remark, key: 'remark', width: 40 },
  ];
  sheet.getRow(1).font = { bold: true };
  const example = sheet.addRow({
    iccid: EXAMPLE_ICCID,
    operator: OPERATOR_WORDS[locale].chinaMobile,
    remark: CARD_TEMPLATE_TEXT.exampleRemark[locale],
  });
  example.font = { italic: true, color: { argb: 'FF808080' } };
  // ICCIDs are 19-20 digits: text, or Excel rounds them.
  sheet.getColumn(1).numFmt = '@';
  const notes = workbook.addWorksheet(CARD_TEMPLATE_TEXT.notes[locale]);
  notes.getColumn(1).width = 100;
  for (const line of CARD_TEMPLATE_TEXT.lines[locale]) notes.addRow([line]);
  const buffer = Buffer.from(await workbook.xlsx.writeBuffer());
  return { fileName: CARD_TEMPLATE_TEXT.fileName[locale], contentType: XLSX, data: buffer };
}

/** An operator cell: its code or its word in any language, any case. */
const OPERATOR_BY_WORD = new Map<string, CardOperator>();
for (const op of CARD_OPERATORS) {
  OPERATOR_BY_WORD.set(op.toLowerCase(), op);
  for (const words of Object.values(OPERATOR_WORDS)) OPERATOR_BY_WORD.set(words[op].toLowerCase(), op);
}

type ImportError = { row: number; column: 'iccid' | 'operator' | 'remark' | null; message: string };

/** Checks every row (ICCID rule, operator, remark, duplicates in the sheet and against registered cards). */
async function checkRows(rows: CardSheetRow[], ctx: CallContext) {
  const locale = localeOf(ctx.language);
  const say = (t: LocalizedText) => t[locale];
  const errors: ImportError[] = [];
  const operators = new Map<number, CardOperator>();
  const seen = new Map<string, number>();
  const taken = await takenIccids(ctx.db, [
    ...new Set(rows.map((r) => r.iccid.toUpperCase()).filter((i) => iccidSchema.safeParse(i).success)),
  ]);
  for (const r of rows) {
    const iccid = r.iccid.toUpperCase();
    if (!iccid) errors.push({ row: r.row, column: 'iccid', message: say(CardImportText.required) });
    else if (!iccidSchema.safeParse(iccid).success) {
      errors.push({ row: r.row, column: 'iccid', message: say(CardImportText.iccidFormat) });
    } else if (seen.has(iccid)) {
      errors.push({
        row: r.row,
        column: 'iccid',
        message: say(CardImportText.duplicateInSheet(seen.get(iccid) as number)),
      });
    } else {
      seen.set(iccid, r.row);
      if (taken.has(iccid)) errors.push({ row: r.row, column: 'iccid', message: say(CardImportText.iccidTaken) });
    }
    const operator = OPERATOR_BY_WORD.get(r.operator.toLowerCase());
    if (!r.operator) errors.push({ row: r.row, column: 'operator', message: say(CardImportText.required) });
    else if (!operator) errors.push({ row: r.row, column: 'operator', message: say(CardImportText.operatorUnknown) });
    else operators.set(r.row, operator);
    if ([...r.remark].length > 100) {
      errors.push({ row: r.row, column: 'remark', message: say(CardImportText.remarkTooLong(100)) });
    }
  }
  return { errors, operators };
}

function sheetError(sheet: Exclude<ParsedCardSheet, { ok: true }>, ctx: CallContext): ImportError {
  const locale = localeOf(ctx.language);
  switch (sheet.reason) {
    case 'unreadable':
      return { row: 1, column: null, message: CardImportText.unreadable[locale] };
    case 'empty':
      return { row: 2, column: null, message: CardImportText.empty[locale] };
    case 'tooMany':
      return {
        row: CARD_IMPORT_MAX_ROWS + 2,
        column: null,
        message: CardImportText.tooMany(CARD_IMPORT_MAX_ROWS)[locale],
      };
    case 'missingColumn':
      return {
        row: 1,
        column: sheet.column,
        message: CardImportText.missingColumn(CARD_IMPORT_HEADERS[locale][sheet.column])[locale],
      };
  }
}

/**
 * Imports a card sheet: when any row is invalid, answers every row error and writes no card
 * (the attempt is logged as a failure); otherwise registers every card in stock in the call's
 * one transaction.
 */
export async function cardImport(
  input: { fileName: string },
  sheet: ParsedCardSheet,
  ctx: CallContext,
): Promise<{ imported: number; errors: ImportError[] }> {
  const rejected = async (rows: number, errors: ImportError[]) => {
    await ctx.audit({
      module: 'flow',
      action: 'import',
      targetType: 'iotCard',
      targetName: input.fileName,
      result: 'failure',
      detail: { fileName: input.fileName, rows, errors: errors.length },
    });
    return { imported: 0, errors };
  };
  if (!sheet.ok) return rejected(0, [sheetError(sheet, ctx)]);
  const { errors, operators } = await checkRows(sheet.rows, ctx);
  if (errors.length > 0) return rejected(sheet.rows.length, errors);
  let created: { id: string }[];
  try {
    created = await ctx.db
      .insert(iotCards)
      .values(
        sheet.rows.map((r) => ({
          entId: ctx.user.entId,
          iccid: r.iccid.toUpperCase(),
          operator: operators.get(r.row) as CardOperator,
          remark: r.remark,
          createdAt: ctx.now,
          updatedAt: ctx.now,
        })),
      )
      .returning({ id: iotCards.id });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError(ErrorCode.CONFLICT, FlowText.iccidTaken);
    throw error;
  }
  await ctx.audit({
    module: 'flow',
    action: 'import',
    targetType: 'iotCard',
    targetName: joinTargetNames(sheet.rows.map((r) => r.iccid.toUpperCase())),
    detail: { fileName: input.fileName, rows: sheet.rows.length },
  });
  return { imported: created.length, errors: [] };
}

// ---- The consumption report ----

/** The range's days, or INVALID_PARAMS (reversed, or longer than FLOW_REPORT_MAX_DAYS). */
export function reportDays(filter: { from: string; to: string }): string[] {
  const from = Date.parse(`${filter.from}T00:00:00Z`);
  const to = Date.parse(`${filter.to}T00:00:00Z`);
  if (to < from) throw new AppError(ErrorCode.INVALID_PARAMS, FlowText.rangeReversed);
  if ((to - from) / DAY_MS + 1 > FLOW_REPORT_MAX_DAYS) {
    throw new AppError(ErrorCode.INVALID_PARAMS, FlowText.rangeTooLong(FLOW_REPORT_MAX_DAYS));
  }
  return daysBetween(filter.from, filter.to);
}

export async function usageReport(input: In<'flowUsageReport'>, ctx: CallContext) {
  const { page, size, ...filter } = input;
  const days = reportDays(filter);
  const entId = ctx.user.entId;
  const where = usageWhere(entId, filter);
  const [rows, counted, perDay] = await Promise.all([
    usagePage(ctx.db, where, { page, size }),
    countUsage(ctx.db, where, FLOW_REPORT_TOTAL_CAP),
    usageSeries(ctx.db, entId, filter),
  ]);
  const series = days.map((day) => ({ day, bytes: perDay.get(day) ?? 0 }));
  return {
    total: Math.min(counted, FLOW_REPORT_TOTAL_CAP),
    capped: counted > FLOW_REPORT_TOTAL_CAP,
    data: rows.map(toUsageRow),
    series,
    totalBytes: series.reduce((sum, d) => sum + d.bytes, 0),
  };
}

/** Starts a background export of the report's rows with its filters. */
export async function startUsageExport(input: UsageFilter, ctx: CallContext): Promise<ExportStatus> {
  reportDays(input);
  const spec: UsageExportSpec = { entId: ctx.user.entId, filter: input, language: ctx.language };
  return beginExport(ctx, {
    kind: USAGE_EXPORT_KIND,
    filters: spec as unknown as Record<string, unknown> & { language: string },
    fileName: exportFileName('data-usage', ctx.now),
    count: () => countUsage(ctx.db, usageWhere(spec.entId, input), 1_000_000),
    module: 'flow',
    detail: { filter: input },
  });
}

export const usageExportStatus = (input: { exportId: string }, ctx: CallContext) =>
  exportStatus(input, ctx, USAGE_EXPORT_KIND);
export const usageExportDownload = (input: { exportId: string }, ctx: CallContext) =>
  exportDownload(input, ctx, USAGE_EXPORT_KIND);
