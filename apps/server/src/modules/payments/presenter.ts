import { isLocale, type OfflinePayment, type PayOrder } from '@marquee/protocol';
import type { OfflineView, PayOrderView } from './repository.js';
import { PaymentText } from './texts.js';

/** The payments module's answers (issue 26): rows as the protocol declares them. */

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/**
 * An order in the reader's language: a recharge's title is the system's words, rendered for
 * each reader (the stored title, in its creator's language, is what the provider was told);
 * a bill's title is what the platform operator typed.
 */
export function presentOrder({ order: o, walletName, entName, creatorName }: PayOrderView, language: string): PayOrder {
  return {
    id: o.id,
    no: o.no,
    purpose: o.purpose as PayOrder['purpose'],
    title: o.purpose === 'recharge' ? PaymentText.rechargeTitle[isLocale(language) ? language : 'zh-CN'] : o.title,
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
