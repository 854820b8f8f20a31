import type { WarningFilter } from '@marquee/protocol';
import type { ScopeSubject } from '../../auth/scope.js';
import { registerExportSource } from '../operationLog/exportJob.js';
import { pageOfWarnings, toWarning, warningWhere } from './repository.js';
import { EXPORT_HEADERS, EXPORT_SHEET, KIND_NAMES, LEVEL_NAMES, localeOf, STATE_NAMES } from './texts.js';

/** What the warnings export job reads back: the caller's scope, the list's filters and the language. */
export interface WarningsExportSpec {
  subject: ScopeSubject;
  filter: WarningFilter;
  language: string;
}

export const WARNINGS_EXPORT_KIND = 'warnings';

const time = (iso: string | null) => (iso ? iso.replace('T', ' ').slice(0, 19) : '');

/** The warning list as the page filters it, newest first, in keyset batches (UTC times). */
registerExportSource(WARNINGS_EXPORT_KIND, {
  sheetName: (language) => EXPORT_SHEET[localeOf(language)],
  columns(language) {
    const widths = [22, 10, 32, 20, 20, 12, 18, 20, 20];
    return EXPORT_HEADERS[localeOf(language)].map((header, i) => ({ header, width: widths[i] }));
  },
  async *batches(services, filters, limit) {
    const spec = filters as unknown as WarningsExportSpec;
    const lang = localeOf(spec.language);
    const where = warningWhere(spec.subject, spec.filter);
    let after: { openedAt: Date; id: string } | null = null;
    for (;;) {
      const rows = await pageOfWarnings(services.db, where, limit, 0, after);
      if (rows.length === 0) break;
      yield rows.map((r) => {
        const w = toWarning(r);
        return [
          KIND_NAMES[w.kind][lang],
          LEVEL_NAMES[w.level][lang],
          w.objectName,
          time(w.since),
          time(w.openedAt),
          STATE_NAMES[w.state][lang],
          w.acknowledgedByName ?? '',
          time(w.acknowledgedAt),
          time(w.resolvedAt),
        ];
      });
      if (rows.length < limit) break;
      const last = rows[rows.length - 1];
      after = { openedAt: new Date(last.openedAt), id: last.id };
    }
  },
});
