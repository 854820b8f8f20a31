import { DEVICE_IMPORT_COLUMNS, DEVICE_IMPORT_MAX_ROWS, type DeviceImportColumn } from '@marquee/protocol';
import { EXAMPLE_NUMBER, IMPORT_HEADERS } from './texts.js';

/** One data row of an uploaded sheet: its Excel row number and its cells as text. */
export interface SheetRow {
  row: number;
  number: string;
  name: string;
  department: string;
}

export type ParsedSheet =
  | { ok: true; rows: SheetRow[] }
  | { ok: false; reason: 'unreadable' | 'empty' | 'tooMany' }
  | { ok: false; reason: 'missingColumn'; column: DeviceImportColumn };

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

const HEADER_TO_COLUMN = new Map<string, DeviceImportColumn>();
for (const headers of Object.values(IMPORT_HEADERS)) {
  for (const column of DEVICE_IMPORT_COLUMNS) HEADER_TO_COLUMN.set(headers[column].toLowerCase(), column);
}

/**
 * Reads the first sheet of an uploaded .xlsx: the header row (row 1, in any of the three
 * languages, any order) names the columns; every following non-empty row is a device, but
 * the template's example row. Parsing is done before the call's transaction (it is CPU work).
 */
export async function parseDeviceSheet(base64: string): Promise<ParsedSheet> {
  const { default: ExcelJS } = await import('exceljs');
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(Buffer.from(base64, 'base64') as unknown as ArrayBuffer);
  } catch {
    return { ok: false, reason: 'unreadable' };
  }
  const sheet = workbook.worksheets[0];
  if (!sheet) return { ok: false, reason: 'unreadable' };
  const positions = new Map<DeviceImportColumn, number>();
  sheet.getRow(1).eachCell((cell, col) => {
    const column = HEADER_TO_COLUMN.get(cellText(cell.value).toLowerCase());
    if (column && !positions.has(column)) positions.set(column, col);
  });
  for (const column of ['number', 'name'] as const) {
    if (!positions.has(column)) return { ok: false, reason: 'missingColumn', column };
  }
  const rows: SheetRow[] = [];
  const last = sheet.actualRowCount === 0 ? 0 : sheet.rowCount;
  for (let r = 2; r <= last; r++) {
    const row = sheet.getRow(r);
    const get = (column: DeviceImportColumn) => {
      const col = positions.get(column);
      return col ? cellText(row.getCell(col).value) : '';
    };
    const values = { number: get('number'), name: get('name'), department: get('department') };
    if (!values.number && !values.name && !values.department) continue;
    if (values.number === EXAMPLE_NUMBER) continue;
    if (rows.length >= DEVICE_IMPORT_MAX_ROWS) return { ok: false, reason: 'tooMany' };
    rows.push({ row: r, ...values });
  }
  if (rows.length === 0) return { ok: false, reason: 'empty' };
  return { ok: true, rows };
}
