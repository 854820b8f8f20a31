import { fenToYuan, formatTime, type MovementCode, type MovementFilter, type PlatformAccount } from '@marquee/protocol';
import { registerExportSource } from '../operationLog/exportJob.js';
import { causeOf } from './presenter.js';
import { causeNumbers, movementWhere, nextMovementBatch, type WalletRow, walletNames } from './repository.js';
import {
  localeOf,
  MOVEMENT_CODE_WORDS,
  MOVEMENT_EXPORT_HEADERS,
  MOVEMENT_EXPORT_SHEET,
  PLATFORM_ACCOUNT_WORDS,
} from './texts.js';

/** What the movement export job reads back: the wallet, the list's filters and the start time. */
export interface MovementExportSpec {
  walletId: string;
  filter: MovementFilter;
  /** Movements after the start are not exported (a stable snapshot). */
  until: string;
  language: string;
}

export const MOVEMENT_EXPORT_KIND = 'financeMovements';

/**
 * A wallet's movements as the export writes them (newest first, like the list): time, kind,
 * cause, counterparty, in, out, balance, frozen (yuan with two decimals) and the note.
 */
registerExportSource(MOVEMENT_EXPORT_KIND, {
  sheetName: (language) => MOVEMENT_EXPORT_SHEET[localeOf(language)],
  columns(language) {
    const widths = [20, 12, 24, 24, 14, 14, 16, 14, 24];
    return MOVEMENT_EXPORT_HEADERS[localeOf(language)].map((header, i) => ({ header, width: widths[i] }));
  },
  async *batches(services, filters, limit) {
    const spec = filters as unknown as MovementExportSpec;
    const locale = localeOf(spec.language);
    const where = movementWhere(spec.walletId, spec.filter, new Date(spec.until));
    const nameOf = (row: WalletRow | undefined, id: string) =>
      !row
        ? id
        : row.kind === 'platform'
          ? (PLATFORM_ACCOUNT_WORDS[locale][row.platformKey as PlatformAccount] ?? row.platformKey ?? id)
          : (row.ownerName ?? id);
    let after: { createdAt: Date; seq: number } | null = null;
    for (;;) {
      const rows = await nextMovementBatch(services.db, where, after, limit);
      if (rows.length === 0) return;
      const names = await walletNames(
        services.db,
        rows.map((r) => r.counterpartyId),
      );
      const orders = await causeNumbers(services.db, rows);
      yield rows.map((r) => {
        const amount = Number(r.amount);
        return [
          formatTime(r.createdAt),
          MOVEMENT_CODE_WORDS[locale][r.code as MovementCode] ?? r.code,
          causeOf(r, orders).label,
          nameOf(names.get(r.counterpartyId), r.counterpartyId),
          amount > 0 ? fenToYuan(amount) : '',
          amount < 0 ? fenToYuan(-amount) : '',
          fenToYuan(Number(r.balance)),
          fenToYuan(Number(r.frozen)),
          r.note,
        ];
      });
      const last = rows[rows.length - 1];
      after = { createdAt: last.createdAt, seq: Number(last.seq) };
    }
  },
});
