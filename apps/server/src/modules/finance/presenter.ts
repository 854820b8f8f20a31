import type { Invoice, Movement, MovementCode, Wallet } from '@marquee/protocol';
import type { EntryRow, InvoiceListRow, WalletRow } from './repository.js';

/** A wallet as the finance centre shows it (names: the owner's, or a platform account's key). */
export function toWallet(row: WalletRow): Wallet {
  const available = row.balance - row.frozen;
  return {
    id: row.id,
    kind: row.kind,
    name: row.kind === 'platform' ? (row.platformKey ?? row.id) : (row.ownerName ?? ''),
    platformAccount: row.kind === 'platform' ? row.platformKey : null,
    entId: row.entId,
    entName: row.entName ?? '',
    balance: row.balance,
    frozen: row.frozen,
    available,
    lowBalanceThreshold: row.lowBalanceThreshold,
    low: row.lowBalanceThreshold != null && available < row.lowBalanceThreshold,
  };
}

/** A counterparty's name: a platform account's key, else its owner's name. */
export function counterpartyName(row: WalletRow | undefined, id: string): string {
  if (!row) return id;
  return row.kind === 'platform' ? (row.platformKey ?? row.id) : (row.ownerName ?? row.id);
}

export interface CauseView {
  type: string;
  id: string;
  label: string;
  route: string | null;
}

/** The cause a line names and links to: a payment order's number and its /pay page. */
export function causeOf(entry: Pick<EntryRow, 'causeType' | 'causeId'>, orderNumbers: Map<string, string>): CauseView {
  if (entry.causeType === 'payOrder') {
    return {
      type: 'payOrder',
      id: entry.causeId,
      label: orderNumbers.get(entry.causeId) ?? entry.causeId,
      route: `/pay?id=${encodeURIComponent(entry.causeId)}`,
    };
  }
  if (entry.causeType === 'salesOrder') {
    // An airtime order's hold, its post and its release (issue 28): the order's number and detail page.
    return {
      type: 'salesOrder',
      id: entry.causeId,
      label: orderNumbers.get(entry.causeId) ?? entry.causeId,
      route: `/operate/orderDetail?id=${encodeURIComponent(entry.causeId)}`,
    };
  }
  if (entry.causeType === 'rtbCampaign') {
    // An RTB campaign's holds, posts and releases (issue 29): its name and the campaigns tab.
    return {
      type: 'rtbCampaign',
      id: entry.causeId,
      label: orderNumbers.get(entry.causeId) ?? entry.causeId,
      route: '/operate/order?tab=campaigns',
    };
  }
  if (entry.causeType === 'rtbDsp') {
    // A DSP's proven plays (issue 29): what it owes the operator; its name and the DSPs tab.
    return {
      type: 'rtbDsp',
      id: entry.causeId,
      label: orderNumbers.get(entry.causeId) ?? entry.causeId,
      route: '/operate/slot?tab=dsps',
    };
  }
  return { type: entry.causeType, id: entry.causeId, label: entry.causeId, route: null };
}

export function toMovement(entry: EntryRow, counterparty: string, cause: CauseView): Movement {
  return {
    seq: String(entry.seq),
    transferId: entry.transferId,
    at: entry.createdAt.toISOString(),
    code: entry.code as MovementCode,
    amount: Number(entry.amount),
    frozenChange: Number(entry.pendingChange),
    balance: Number(entry.balance),
    frozen: Number(entry.frozen),
    counterparty,
    cause,
    note: entry.note,
  };
}

export function toInvoice(row: InvoiceListRow): Invoice {
  const i = row.invoice;
  return {
    id: i.id,
    walletId: i.walletId,
    entId: i.entId,
    entName: row.entName ?? '',
    title: i.title,
    taxNo: i.taxNo,
    amount: Number(i.amount),
    email: i.email,
    remark: i.remark,
    state: i.state,
    invoiceNo: i.invoiceNo,
    reason: i.reason,
    requestedBy: row.requestedByName ?? i.requestedBy,
    requestedAt: i.createdAt.toISOString(),
    reviewedBy: i.reviewedBy ? (row.reviewedByName ?? i.reviewedBy) : null,
    reviewedAt: i.reviewedAt ? i.reviewedAt.toISOString() : null,
  };
}
