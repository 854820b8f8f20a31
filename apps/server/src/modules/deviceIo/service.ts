import {
  checkCustomValue,
  DEVICE_IMPORT_MAX_ROWS,
  DEVICE_NAME_MAX,
  type DeviceImportError,
  type DeviceStatusValue,
  deviceNumberSchema,
  type ExportStatus,
} from '@marquee/protocol';
import { and, count, inArray, lte, type SQL } from 'drizzle-orm';
import { departments, deviceStatusHistory, devices } from '../../db/schema/index.js';
import type { LocalizedText } from '../../protocol/appError.js';
import { type CallContext, type FileAnswer, joinTargetNames } from '../../protocol/handlers.js';
import { visibleDepartments } from '../dept/manage.js';
import { type CustomFieldDef, CustomFieldText, customFieldDefs } from '../devices/customFields.js';
import { deviceListWhere } from '../devices/service.js';
import { beginExport, exportDownload, exportFileName, exportStatus } from '../operationLog/service.js';
import { DEVICE_EXPORT_KIND, type DeviceExportSpec } from './exportSource.js';
import type { ParsedSheet, SheetRow } from './importSheet.js';
import { EXAMPLE_NAME, EXAMPLE_NUMBER, IMPORT_HEADERS, ImportText, localeOf, TEMPLATE_TEXT } from './texts.js';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Starts a background export of the device list with its filters (the operation log's mechanism). */
export async function startDeviceExport(
  filter: { status?: DeviceStatusValue; keyword?: string },
  ctx: CallContext,
): Promise<ExportStatus> {
  const u = ctx.user;
  const spec: DeviceExportSpec = {
    subject: { entId: u.entId, accountId: u.accountId, deptId: u.deptId, deptPath: u.deptPath, dataScope: u.dataScope },
    filter,
    until: ctx.now.toISOString(),
    language: ctx.language,
    customFields: (await customFieldDefs(ctx.db, u.entId)).map((f) => ({ key: f.key, label: f.label })),
  };
  return beginExport(ctx, {
    kind: DEVICE_EXPORT_KIND,
    filters: spec as unknown as Record<string, unknown> & { language: string },
    fileName: exportFileName('devices', ctx.now),
    count: async () => {
      const [row] = await ctx.db
        .select({ n: count() })
        .from(devices)
        .where(and(await deviceListWhere(ctx.db, spec.subject, filter, ctx.now), lte(devices.createdAt, ctx.now)));
      return row.n;
    },
    module: 'device',
    detail: { filter },
  });
}

export const deviceExportStatus = (input: { exportId: string }, ctx: CallContext) =>
  exportStatus(input, ctx, DEVICE_EXPORT_KIND);
export const deviceExportDownload = (input: { exportId: string }, ctx: CallContext) =>
  exportDownload(input, ctx, DEVICE_EXPORT_KIND);

/** The import template in the caller's language: the columns, an example row, and a notes sheet. */
export async function importTemplate(ctx: CallContext): Promise<FileAnswer> {
  const locale = localeOf(ctx.language);
  const { default: ExcelJS } = await import('exceljs');
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet(TEMPLATE_TEXT.sheet[locale]);
  const headers = IMPORT_HEADERS[locale];
  // The enterprise's custom fields (issue 31) follow, headed by their labels.
  const custom = await customFieldDefs(ctx.db, ctx.user.entId);
  sheet.columns = [
    { header: headers.number, key: 'number', width: 24 },
    { header: headers.name, key: 'name', width: 40 },
    { header: headers.department, key: 'department', width: 24 },
    ...custom.map((f) => ({ header: f.label, key: `cf_${f.key}`, width: 18 })),
  ];
  sheet.getRow(1).font = { bold: true };
  const example = sheet.addRow({ number: EXAMPLE_NUMBER, name: EXAMPLE_NAME[locale], department: ctx.user.deptName });
  example.font = { italic: true, color: { argb: 'FF808080' } };
  // Numbers like 000123 must stay text.
  sheet.getColumn(1).numFmt = '@';
  const notes = workbook.addWorksheet(TEMPLATE_TEXT.notes[locale]);
  notes.getColumn(1).width = 100;
  for (const line of TEMPLATE_TEXT.lines[locale]) notes.addRow([line]);
  const buffer = Buffer.from(await workbook.xlsx.writeBuffer());
  return { fileName: TEMPLATE_TEXT.fileName[locale], contentType: XLSX, data: buffer };
}

/**
 * Checks every row of a parsed sheet (number format, name length, department within the
 * caller's scope, duplicates in the sheet and against existing numbers). Answers the rows'
 * errors, and for valid rows the department each goes to.
 */
async function checkRows(
  rows: SheetRow[],
  ctx: CallContext,
): Promise<{
  errors: DeviceImportError[];
  deptOf: Map<number, string | null>;
  customOf: Map<number, Record<string, string | number>>;
}> {
  const locale = localeOf(ctx.language);
  const say = (t: LocalizedText) => t[locale];
  const errors: DeviceImportError[] = [];
  const deptOf = new Map<number, string | null>();
  const customOf = new Map<number, Record<string, string | number>>();
  const custom = await customFieldDefs(ctx.db, ctx.user.entId);
  const seen = new Map<string, number>();
  const numbers = [...new Set(rows.map((r) => r.number).filter(Boolean))];
  const taken = new Set<string>();
  for (let i = 0; i < numbers.length; i += 500) {
    const part = numbers.slice(i, i + 500);
    const found = await ctx.db.select({ number: devices.number }).from(devices).where(inArray(devices.number, part));
    for (const f of found) if (f.number) taken.add(f.number);
  }
  const deptNames = [...new Set(rows.map((r) => r.department).filter(Boolean))];
  const deptsByName = new Map<string, string[]>();
  if (deptNames.length > 0) {
    const found = await ctx.db
      .select({ id: departments.id, name: departments.name })
      .from(departments)
      .where(and(visibleDepartments(ctx.user), inArray(departments.name, deptNames)) as SQL);
    for (const d of found) deptsByName.set(d.name, [...(deptsByName.get(d.name) ?? []), d.id]);
  }
  for (const r of rows) {
    if (!r.number) errors.push({ row: r.row, column: 'number', message: say(ImportText.required) });
    else if (!deviceNumberSchema.safeParse(r.number).success) {
      errors.push({ row: r.row, column: 'number', message: say(ImportText.numberFormat) });
    } else if (seen.has(r.number)) {
      errors.push({
        row: r.row,
        column: 'number',
        message: say(ImportText.duplicateInSheet(seen.get(r.number) as number)),
      });
    } else {
      seen.set(r.number, r.row);
      if (taken.has(r.number)) errors.push({ row: r.row, column: 'number', message: say(ImportText.numberTaken) });
    }
    if (!r.name) errors.push({ row: r.row, column: 'name', message: say(ImportText.required) });
    else if ([...r.name].length > DEVICE_NAME_MAX) {
      errors.push({ row: r.row, column: 'name', message: say(ImportText.nameTooLong(DEVICE_NAME_MAX)) });
    }
    if (r.department) {
      const ids = deptsByName.get(r.department) ?? [];
      if (ids.length === 0) {
        errors.push({ row: r.row, column: 'department', message: say(ImportText.deptUnknown(r.department)) });
      } else if (ids.length > 1) {
        errors.push({ row: r.row, column: 'department', message: say(ImportText.deptAmbiguous(r.department)) });
      } else deptOf.set(r.row, ids[0]);
    } else deptOf.set(r.row, ctx.user.deptId ?? null);
    customOf.set(
      r.row,
      customValuesOf(r, custom, (column, t) => errors.push({ row: r.row, column, message: say(t) })),
    );
  }
  return { errors, deptOf, customOf };
}

/**
 * A row's custom field values (issue 31): each field's column is found by its label or key
 * (any case); a value that does not fit or a required one missing is a row error naming the field.
 */
function customValuesOf(
  r: SheetRow,
  defs: readonly CustomFieldDef[],
  fail: (column: string, message: LocalizedText) => void,
): Record<string, string | number> {
  const cells = new Map(Object.entries(r.extra ?? {}).map(([header, v]) => [header.toLowerCase(), v]));
  const out: Record<string, string | number> = {};
  for (const def of defs) {
    let raw = cells.get(def.label.toLowerCase()) ?? cells.get(def.key.toLowerCase()) ?? '';
    // A date cell is read as an instant; its day is the value.
    if (def.type === 'date' && /^\d{4}-\d{2}-\d{2}T/.test(raw)) raw = raw.slice(0, 10);
    if (!raw) {
      if (def.required) fail(def.key, CustomFieldText.required(def));
      continue;
    }
    const checked = checkCustomValue(def, raw);
    if ('error' in checked) fail(def.key, CustomFieldText.invalid(def));
    else out[def.key] = checked.value;
  }
  return out;
}

/** The error of a sheet that could not be read as a whole (row 1, or no column). */
function sheetError(sheet: Exclude<ParsedSheet, { ok: true }>, ctx: CallContext): DeviceImportError {
  const locale = localeOf(ctx.language);
  switch (sheet.reason) {
    case 'unreadable':
      return { row: 1, column: null, message: ImportText.unreadable[locale] };
    case 'empty':
      return { row: 2, column: null, message: ImportText.empty[locale] };
    case 'tooMany':
      return {
        row: DEVICE_IMPORT_MAX_ROWS + 2,
        column: null,
        message: ImportText.tooMany(DEVICE_IMPORT_MAX_ROWS)[locale],
      };
    case 'missingColumn':
      return {
        row: 1,
        column: sheet.column,
        message: ImportText.missingColumn(IMPORT_HEADERS[locale][sheet.column])[locale],
      };
  }
}

/**
 * Imports a device sheet: when any row is invalid, answers every row error and writes no
 * device (the attempt is logged as a failure); otherwise pre-registers every device
 * (activating, with its number) in the call's one transaction.
 */
export async function importDevices(
  input: { fileName: string },
  sheet: ParsedSheet,
  ctx: CallContext,
): Promise<{ imported: number; rows: number; errors: DeviceImportError[] }> {
  const rejected = async (rows: number, errors: DeviceImportError[]) => {
    await ctx.audit({
      module: 'device',
      action: 'import',
      targetType: 'device',
      targetName: input.fileName,
      result: 'failure',
      detail: { fileName: input.fileName, rows, errors: errors.length },
    });
    return { imported: 0, rows, errors };
  };
  if (!sheet.ok) return rejected(0, [sheetError(sheet, ctx)]);
  const { errors, deptOf, customOf } = await checkRows(sheet.rows, ctx);
  if (errors.length > 0) return rejected(sheet.rows.length, errors);
  const created = await ctx.db
    .insert(devices)
    .values(
      sheet.rows.map((r) => ({
        entId: ctx.user.entId,
        deptId: deptOf.get(r.row) ?? null,
        ownerId: ctx.user.accountId,
        number: r.number,
        name: r.name,
        customFields: customOf.get(r.row) ?? {},
        status: 'activating' as const,
        statusAt: ctx.now,
        createdAt: ctx.now,
        updatedAt: ctx.now,
      })),
    )
    .returning({ id: devices.id });
  await ctx.db.insert(deviceStatusHistory).values(
    created.map((d) => ({
      entId: ctx.user.entId,
      deviceId: d.id,
      status: 'activating' as const,
      reason: 'imported',
      at: ctx.now,
    })),
  );
  await ctx.audit({
    module: 'device',
    action: 'import',
    targetType: 'device',
    targetName: joinTargetNames(sheet.rows.map((r) => r.name)),
    detail: {
      fileName: input.fileName,
      rows: sheet.rows.length,
      numbers: sheet.rows.slice(0, 50).map((r) => r.number),
    },
  });
  return { imported: created.length, rows: sheet.rows.length, errors: [] };
}
