import { CARD_IMPORT_COLUMNS, CARD_IMPORT_MAX_ROWS } from '@marquee/protocol';
import { type ParsedImportSheet, parseImportSheet, type SheetValues } from '../deviceIo/importSheet.js';
import { CARD_IMPORT_HEADERS, type CardImportColumn, EXAMPLE_ICCID } from './texts.js';

/** One data row of an uploaded card sheet: its Excel row number and its cells as text. */
export type CardSheetRow = SheetValues<CardImportColumn>;
export type ParsedCardSheet = ParsedImportSheet<CardImportColumn>;

/**
 * Reads a card sheet with the device import's reader (modules/deviceIo): ICCID and operator
 * required; the template's example ICCID is skipped.
 */
export function parseCardSheet(base64: string): Promise<ParsedCardSheet> {
  return parseImportSheet(base64, {
    columns: CARD_IMPORT_COLUMNS,
    headers: CARD_IMPORT_HEADERS,
    required: ['iccid', 'operator'],
    isExample: (values) => values.iccid.toUpperCase() === EXAMPLE_ICCID,
    maxRows: CARD_IMPORT_MAX_ROWS,
  });
}
