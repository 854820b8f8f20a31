import { registerExportSource } from '../operationLog/exportJob.js';
import { ALARM_EXPORT_KIND, type AlarmExportSpec, exportBatch } from './service.js';
import { ALARM_EXPORT_HEADERS, ALARM_EXPORT_SHEET, ALARM_STATE_WORDS, localeOf } from './texts.js';

const seconds = (from: Date, to: Date | null) => (to ? Math.round((to.getTime() - from.getTime()) / 1000) : '');
const local = (at: Date) => new Date(at.getTime() + 8 * 3600_000).toISOString().slice(0, 19).replace('T', ' ');

/** The report range's events as the export writes them (newest first). */
registerExportSource(ALARM_EXPORT_KIND, {
  sheetName: (language) => ALARM_EXPORT_SHEET[localeOf(language)],
  columns(language) {
    const widths = [20, 28, 16, 36, 24, 12, 16, 16, 40];
    return ALARM_EXPORT_HEADERS[localeOf(language)].map((header, i) => ({ header, width: widths[i] }));
  },
  async *batches(services, filters, limit) {
    const spec = filters as unknown as AlarmExportSpec;
    const words = ALARM_STATE_WORDS[localeOf(spec.language)];
    let after: { at: Date; id: string } | null = null;
    for (;;) {
      const rows = await exportBatch(services.db, spec, after, limit);
      if (rows.length === 0) break;
      yield rows.map((r) => [
        local(r.event.receivedAt),
        r.deviceName,
        r.deviceNumber ?? '',
        r.address ?? '',
        r.event.regionNames.join(', '),
        words[r.event.state],
        seconds(r.event.receivedAt, r.event.acknowledgedAt),
        seconds(r.event.receivedAt, r.event.closedAt),
        r.event.note,
      ]);
      if (rows.length < limit) break;
      const last = rows[rows.length - 1];
      after = { at: last.event.receivedAt, id: last.event.id };
    }
  },
});
