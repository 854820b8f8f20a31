import { CARD_IMPORT_COLUMNS, CARD_IMPORT_MAX_ROWS } from '@marquee/protocol';
import { CARD_IMPORT_HEADERS, type CardImportColumn, EXAMPLE_ICCID } from './texts.js';

/** One data row of an uploaded card sheet: its Excel row number and its cells as text. */
export interface CardSheetRow {
  row: number;
  iccid: string;
  operator: string;
  remark: string;
}

export type ParsedCardSheet =
  | { ok: true; rows: CardSheetRow[] }
  | { ok: false; reason: 'unreadable' | 'empty' | 'tooMany' }
  | { ok: false; reason: 'missingColumn'; column: CardImportColumn };

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

const HEADER_TO_COLUMN = new Map<string, CardImportColumn>();
for (const headers of Object.values(CARD_IMPORT_HEADERS)) {
  for (const column of CARD_IMPORT_COLUMNS) HEADER_TO_COLUMN.set(headers[column].toLowerCase(), column);
}

/**
 * Reads the first sheet of an uploaded .xlsx like the device import (modules/deviceIo): the
 * header row names the columns in any of the three languages and any order; every following
 * non-empty row is a card, but the template's example row. CPU work: done before the
 * call's transaction.
 */
export async function parseCardSheet(base64: string): Promise<ParsedCardSheet> {
  const { default: ExcelJS } = await import('exceljs');
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(Buffer.from(base64, 'base64') as unknown as ArrayBuffer);
  } catch {
    return { ok: false, reason: 'unreadable' };
  }
  const sheet = workbook.worksheets[0];
  if (!sheet) return { ok: false, reason: 'unreadable' };
  const positions = new Map<CardImportColumn, number>();
  sheet.getRow(1).eachCell((cell, col) => {
    const column = HEADER_TO_COLUMN.get(cellText(cell.value).toLowerCase());
    if (column && !positions.has(column)) positions.set(column, col);
  });
  for (const column of ['iccid', 'operator'] as const) {
    if (!positions.has(column)) return { ok: false, reason: 'missingColumn', column };
  }
  const rows: CardSheetRow[] = [];
  const last = sheet.actualRowCount === 0 ? 0 : sheet.rowCount;
  for (let r = 2; r <= last; r++) {
    const row = sheet.getRow(r);
    const get = (column: CardImportColumn) => {
      const col = positions.get(column);
      return col ? cellText(row.getCell(col).value) : '';
    };
    const values = { iccid: get('iccid'), operator: get('operator'), remark: get('remark') };
    if (!values.iccid && !values.operator && !values.remark) continue;
    if (values.iccid.toUpperCase() === EXAMPLE_ICCID) continue;
    if (rows.length >= CARD_IMPORT_MAX_ROWS) return { ok: false, reason: 'tooMany' };
    rows.push({ row: r, ...values });
  }
  if (rows.length === 0) return { ok: false, reason: 'empty' };
  return { ok: true, rows };
}
