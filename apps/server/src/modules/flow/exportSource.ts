import { registerExportSource } from '../operationLog/exportJob.js';
import { daysBetween, MB, type UsageFilter, usageDayBatch, usageWhere } from './repository.js';
import { localeOf, USAGE_EXPORT_HEADERS, USAGE_EXPORT_SHEET } from './texts.js';

/** What the usage export job reads back: the enterprise, the report's filters and the language. */
export interface UsageExportSpec {
  entId: string;
  filter: UsageFilter;
  language: string;
}

export const USAGE_EXPORT_KIND = 'flowUsage';

/**
 * The consumption report as the export writes it, in the report's order (newest day first,
 * then device name): day, ICCID, device name, MB with 2 decimals. Read day by day, each day in
 * keyset batches, so a year of rows never needs an OFFSET.
 */
registerExportSource(USAGE_EXPORT_KIND, {
  sheetName: (language) => USAGE_EXPORT_SHEET[localeOf(language)],
  columns(language) {
    const widths = [14, 26, 32, 14];
    return USAGE_EXPORT_HEADERS[localeOf(language)].map((header, i) => ({ header, width: widths[i] }));
  },
  async *batches(services, filters, limit) {
    const spec = filters as unknown as UsageExportSpec;
    const where = usageWhere(spec.entId, spec.filter);
    for (const day of daysBetween(spec.filter.from, spec.filter.to).reverse()) {
      let after: { bytes: number; deviceId: string; cardId: string } | null = null;
      for (;;) {
        const rows = await usageDayBatch(services.db, where, day, after, limit);
        if (rows.length === 0) break;
        yield rows.map((r) => [r.day, r.iccid ?? '', r.deviceName, (r.bytes / MB).toFixed(2)]);
        if (rows.length < limit) break;
        const last = rows[rows.length - 1];
        after = { bytes: last.bytes, deviceId: last.deviceId, cardId: last.cardId };
      }
    }
  },
});
