import { DEVICE_IMPORT_COLUMNS, DEVICE_IMPORT_MAX_ROWS, type DeviceImportColumn } from '@marquee/protocol';
import { EXAMPLE_NUMBER, IMPORT_HEADERS } from './texts.js';

/**
 * Reading an uploaded import sheet: the devices' (this module) and the IoT cards' (modules/flow)
 * share one reader; each says its columns, their headers in the three languages, which are
 * required, how to spot the template's example row and how many rows it takes.
 */

/** `extra`: the cells of the other columns by their header text (with SheetSpec.extras; the devices' custom fields). */
export type SheetValues<C extends string> = { row: number; extra?: Record<string, string> } & Record<C, string>;

export type ParsedImportSheet<C extends string> =
  | { ok: true; rows: SheetValues<C>[] }
  | { ok: false; reason: 'unreadable' | 'empty' | 'tooMany' }
  | { ok: false; reason: 'missingColumn'; column: C };

export interface SheetSpec<C extends string> {
  columns: readonly C[];
  /** Each language's header text of each column (any language, any order is read). */
  headers: Record<string, Record<C, string>>;
  required: readonly C[];
  /** The template's example row, skipped. */
  isExample: (values: Record<C, string>) => boolean;
  maxRows: number;
  /** Also read the cells of columns not in `columns` (into each row's `extra`, by header). */
  extras?: boolean;
}

/** A cell's value as trimmed text (numbers, rich text, hyperlinks and formulas' results included). */
function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value.trim();
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object') {
    const v = value as { richText?: { text: string }[]; text?: unknown; result?: unknown };
    if (Array.isArray(v.richText))
      return v.richText
        .map((part) => part.text)
        .join('')
        .trim();
    if (v.text !== undefined) return cellText(v.text);
    if (v.result !== undefined) return cellText(v.result);
  }
  return '';
}

/**
 * Reads the first sheet of an uploaded .xlsx: the header row (row 1, in any of the three
 * languages, any order) names the columns; every following non-empty row is one row of the
 * import, but the template's example row. Parsing is done before the call's transaction (it
 * is CPU work).
 */
export async function parseImportSheet<C extends string>(
  base64: string,
  spec: SheetSpec<C>,
): Promise<ParsedImportSheet<C>> {
  const headerToColumn = new Map<string, C>();
  for (const headers of Object.values(spec.headers)) {
    for (const column of spec.columns) headerToColumn.set(headers[column].toLowerCase(), column);
  }
  const { default: ExcelJS } = await import('exceljs');
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(Buffer.from(base64, 'base64') as unknown as ArrayBuffer);
  } catch {
    return { ok: false, reason: 'unreadable' };
  }
  const sheet = workbook.worksheets[0];
  if (!sheet) return { ok: false, reason: 'unreadable' };
  const positions = new Map<C, number>();
  const extraPositions = new Map<string, number>();
  sheet.getRow(1).eachCell((cell, col) => {
    const header = cellText(cell.value);
    const column = headerToColumn.get(header.toLowerCase());
    if (column && !positions.has(column)) positions.set(column, col);
    else if (!column && spec.extras && header && !extraPositions.has(header)) extraPositions.set(header, col);
  });
  for (const column of spec.required) {
    if (!positions.has(column)) return { ok: false, reason: 'missingColumn', column };
  }
  const rows: SheetValues<C>[] = [];
  const last = sheet.actualRowCount === 0 ? 0 : sheet.rowCount;
  for (let r = 2; r <= last; r++) {
    const row = sheet.getRow(r);
    const values = {} as Record<C, string>;
    for (const column of spec.columns) {
      const col = positions.get(column);
      values[column] = col ? cellText(row.getCell(col).value) : '';
    }
    const extra: Record<string, string> = {};
    for (const [header, col] of extraPositions) extra[header] = cellText(row.getCell(col).value);
    if (spec.columns.every((column) => !values[column]) && Object.values(extra).every((v) => !v)) continue;
    if (spec.isExample(values)) continue;
    if (rows.length >= spec.maxRows) return { ok: false, reason: 'tooMany' };
    rows.push(spec.extras ? { row: r, ...values, extra } : { row: r, ...values });
  }
  if (rows.length === 0) return { ok: false, reason: 'empty' };
  return { ok: true, rows };
}

/** One data row of an uploaded device sheet: its Excel row number and its cells as text. */
export type SheetRow = SheetValues<DeviceImportColumn>;
export type ParsedSheet = ParsedImportSheet<DeviceImportColumn>;

/** The device sheet: number and name required; the example row is the template's number. */
export function parseDeviceSheet(base64: string): Promise<ParsedSheet> {
  return parseImportSheet(base64, {
    columns: DEVICE_IMPORT_COLUMNS,
    headers: IMPORT_HEADERS,
    required: ['number', 'name'],
    isExample: (values) => values.number === EXAMPLE_NUMBER,
    maxRows: DEVICE_IMPORT_MAX_ROWS,
    extras: true,
  });
}
