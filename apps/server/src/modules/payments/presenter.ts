import type { OfflinePayment, PayOrder } from '@marquee/protocol';
import type { OfflineView, PayOrderView } from './repository.js';

/** The payments module's answers (issue 26): rows as the protocol declares them. */

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function presentOrder({ order: o, walletName, entName, creatorName }: PayOrderView): PayOrder {
  return {
    id: o.id,
    no: o.no,
    purpose: o.purpose as PayOrder['purpose'],
    title: o.title,
    amount: o.amount,
    state: o.state,
    method: o.method ?? null,
    walletId: o.walletId,
    walletName: walletName ?? '',
    entId: o.entId,
    entName: entName ?? '',
    createdBy: creatorName ?? '',
    createdAt: o.createdAt.toISOString(),
    expiresAt: iso(o.expiresAt),
    paidAt: iso(o.paidAt),
    closedAt: iso(o.closedAt),
    providerTradeNo: o.providerTradeNo ?? null,
  };
}

export function presentOffline(
  { offline: p, orderNo, amount, entName, submitterName, reviewerName }: OfflineView,
  vouchers: OfflinePayment['vouchers'],
): OfflinePayment {
  return {
    id: p.id,
    orderId: p.orderId,
    orderNo,
    amount,
    entId: p.entId,
    entName: entName ?? '',
    payerName: p.payerName,
    bankName: p.bankName,
    bankAccount: p.bankAccount,
    transferNo: p.transferNo,
    transferredAt: p.transferredAt.toISOString(),
    remark: p.remark,
    vouchers,
    state: p.state,
    reason: p.reason,
    submittedBy: submitterName ?? '',
    submittedAt: p.createdAt.toISOString(),
    reviewedBy: p.reviewedBy ? (reviewerName ?? '') : null,
    reviewedAt: iso(p.reviewedAt),
  };
}
