import type { MarketItem, MarketOrder, OrderLine, Product, Renewal } from '@marquee/protocol';
import type {
  MarketItemRow,
  MarketOrderLineRow,
  MarketOrderRow,
  MarketProductRow,
  MarketRenewalRow,
  PayOrderRow,
} from '../../db/schema/index.js';

/** The market's rows as the protocol's shapes (issue 27). */

const isoOrNull = (d: Date | null | undefined) => (d ? d.toISOString() : null);

export function presentProduct(row: MarketProductRow): Product {
  return {
    id: row.id,
    kind: row.kind,
    name: row.name,
    description: row.description,
    state: row.state,
    prices: [...row.prices].sort((a, b) => a.months - b.months),
    storageBytes: row.storageBytes ?? null,
    dataMbPerMonth: row.dataMbPerMonth ?? null,
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The price of a term of a product on sale, or null (off shelf, or no such term). */
export function priceOf(product: Pick<MarketProductRow, 'state' | 'prices'>, months: number): number | null {
  if (product.state !== 'onSale') return null;
  return product.prices.find((p) => p.months === months)?.price ?? null;
}

export function presentOrder(
  row: MarketOrderRow,
  pay: Pick<PayOrderRow, 'state' | 'method'>,
  entName: string,
  buyerName: string | null,
): MarketOrder {
  return {
    id: row.id,
    no: row.no,
    entId: row.entId,
    entName,
    kind: row.kind,
    productId: row.productId,
    productName: row.productName,
    months: row.months,
    unitPrice: row.unitPrice,
    quantity: row.quantity,
    amount: row.amount,
    state: row.state,
    source: row.source,
    payOrderId: row.payOrderId,
    payState: pay.state,
    payMethod: pay.method ?? null,
    createdBy: buyerName ?? '',
    createdAt: row.createdAt.toISOString(),
    paidAt: isoOrNull(row.paidAt),
    cancelledAt: isoOrNull(row.cancelledAt),
  };
}

export function presentLine(row: MarketOrderLineRow): OrderLine {
  return {
    subjectType: row.subjectType,
    subjectId: row.subjectType === 'pack' ? row.itemId : row.subjectId,
    subjectName: row.subjectName,
    amount: row.amount,
    expiresBefore: isoOrNull(row.expiresBefore),
    expiresAfter: isoOrNull(row.expiresAfter),
  };
}

export function presentItem(
  row: MarketItemRow,
  extra: {
    subjectName: string;
    product: Pick<MarketProductRow, 'name' | 'state' | 'prices'> | null;
    last: Pick<MarketRenewalRow, 'at' | 'outcome' | 'reason'> | null;
  },
): MarketItem {
  return {
    id: row.id,
    kind: row.kind,
    subjectId: row.subjectId,
    subjectName: extra.subjectName,
    productId: row.productId,
    productName: extra.product?.name ?? '',
    months: row.months,
    renewalPrice: extra.product ? priceOf(extra.product, row.months) : null,
    state: row.state,
    startsAt: row.startsAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    autoRenew: row.autoRenew,
    storageBytes: row.storageBytes ?? null,
    lastRenewal: extra.last
      ? { at: extra.last.at.toISOString(), outcome: extra.last.outcome, reason: extra.last.reason ?? null }
      : null,
  };
}

export function presentRenewal(
  row: MarketRenewalRow,
  extra: { kind: MarketItemRow['kind']; subjectName: string; orderNo: string | null },
): Renewal {
  return {
    id: row.id,
    itemId: row.itemId,
    kind: extra.kind,
    subjectName: extra.subjectName,
    at: row.at.toISOString(),
    day: row.day,
    outcome: row.outcome,
    reason: row.reason ?? null,
    amount: row.amount,
    orderId: row.orderId ?? null,
    orderNo: extra.orderNo,
    effectiveAt: isoOrNull(row.effectiveAt),
    expiresBefore: row.expiresBefore.toISOString(),
    expiresAfter: isoOrNull(row.expiresAfter),
  };
}
