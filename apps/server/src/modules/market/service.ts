import { randomUUID } from 'node:crypto';
import {
  ErrorCode,
  hasPermission,
  LONG_OFFLINE_HOURS,
  type MarketKind,
  type marketEndpoints,
  type OrderLine,
  PAY_ORDER_TTL_MINUTES,
  Perm,
  type Product,
  STORAGE_PACK_BYTES,
} from '@marquee/protocol';
import { and, eq, ilike, inArray, or, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import { devices, iotCards, marketOrderLines, marketOrders, marketProducts } from '../../db/schema/index.js';
import { AppError, type LocalizedText } from '../../protocol/appError.js';
import type { CallContext } from '../../protocol/handlers.js';
import { effectiveStatus } from '../devices/repository.js';
import { loadManaged } from '../devices/service.js';
import { accountBalances, ensureEnterpriseWallet, enterpriseWalletId } from '../ledger/accounts.js';
import { closeOrder } from '../payments/closing.js';
import { markPaid, nextOrderNo, openPayOrder } from '../payments/settle.js';
import { addMonths, later } from './calendar.js';
import './effects.js';
import { presentLine, presentOrder, presentProduct, priceOf } from './presenter.js';
import { findOrder, lockMarketOrder, orderLines } from './repository.js';
import { MarketText, packName } from './texts.js';

/**
 * The market (issue 27): the catalogue the platform operator keeps, what a purchase would
 * cost and do (quote), placing an order (paid now by balance, or later at /pay) and
 * cancelling one. The effect of a paid order is effects.ts's; lists are lists.ts's.
 */

type Req<K extends keyof typeof marketEndpoints> = z.infer<(typeof marketEndpoints)[K]['request']>;

export const lang = (ctx: { language: string }) =>
  ctx.language === 'en-US' || ctx.language === 'ja' ? ctx.language : 'zh-CN';

const isKeeper = (ctx: CallContext) => hasPermission(ctx.user.permissions, Perm.marketManage);
const escapeLike = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The catalogue: on sale for everyone; the keepers also see (and may filter) those off shelf. */
export async function productList(input: Req<'marketProductList'>, ctx: CallContext): Promise<{ data: Product[] }> {
  const conds: (SQL | undefined)[] = [];
  if (isKeeper(ctx)) {
    if (input.state) conds.push(eq(marketProducts.state, input.state));
  } else {
    if (input.state === 'offShelf') return { data: [] };
    conds.push(eq(marketProducts.state, 'onSale'));
  }
  if (input.kind) conds.push(eq(marketProducts.kind, input.kind));
  if (input.keyword) conds.push(ilike(marketProducts.name, `%${escapeLike(input.keyword)}%`));
  const rows = await ctx.db
    .select()
    .from(marketProducts)
    .where(and(...conds))
    .orderBy(marketProducts.kind, marketProducts.createdAt, marketProducts.id);
  return { data: rows.map(presentProduct) };
}

async function visibleProduct(ctx: CallContext, id: string) {
  const [row] = await ctx.db.select().from(marketProducts).where(eq(marketProducts.id, id));
  if (!row || (row.state !== 'onSale' && !isKeeper(ctx))) {
    throw new AppError(ErrorCode.NOT_FOUND, MarketText.productNotFound);
  }
  return row;
}

export async function productInfo(input: Req<'marketProductInfo'>, ctx: CallContext): Promise<Product> {
  return presentProduct(await visibleProduct(ctx, input.id));
}

const samePrices = (a: { months: number; price: number }[], b: { months: number; price: number }[]) => {
  const key = (p: { months: number; price: number }[]) =>
    JSON.stringify([...p].sort((x, y) => x.months - y.months).map((x) => [x.months, x.price]));
  return key(a) === key(b);
};

const auditProduct = (ctx: CallContext, action: string, row: { id: string; name: string }, detail?: object) =>
  ctx.audit({
    module: 'market',
    action,
    targetType: 'marketProduct',
    targetId: row.id,
    targetName: row.name,
    detail: detail as Record<string, unknown>,
  });

/** Adds a product (off shelf) or edits one: prices and kind only off shelf (COMMODITY_ON_SALE). */
export async function productSave(input: Req<'marketProductSave'>, ctx: CallContext): Promise<Product> {
  if (input.kind === 'dataCard' && !input.dataMbPerMonth) {
    throw new AppError(ErrorCode.INVALID_PARAMS, MarketText.dataMbRequired);
  }
  const prices = [...input.prices].sort((a, b) => a.months - b.months);
  const fields = {
    kind: input.kind,
    name: input.name,
    description: input.description,
    prices,
    storageBytes: input.kind === 'storagePack' ? STORAGE_PACK_BYTES : null,
    dataMbPerMonth: input.kind === 'dataCard' ? (input.dataMbPerMonth ?? null) : null,
    updatedAt: ctx.now,
  };
  if (!input.id) {
    const [row] = await ctx.db
      .insert(marketProducts)
      .values({ ...fields, state: 'offShelf', createdAt: ctx.now })
      .returning();
    await auditProduct(ctx, 'productAdd', row, { kind: row.kind, prices });
    return presentProduct(row);
  }
  const [old] = await ctx.db.select().from(marketProducts).where(eq(marketProducts.id, input.id)).for('update');
  if (!old) throw new AppError(ErrorCode.NOT_FOUND, MarketText.productNotFound);
  if (
    old.state === 'onSale' &&
    (old.kind !== input.kind ||
      !samePrices(old.prices, prices) ||
      (old.dataMbPerMonth ?? null) !== fields.dataMbPerMonth)
  ) {
    throw new AppError(ErrorCode.COMMODITY_ON_SALE, MarketText.onSale);
  }
  const [row] = await ctx.db.update(marketProducts).set(fields).where(eq(marketProducts.id, old.id)).returning();
  await auditProduct(ctx, 'productUpdate', row, { kind: row.kind, prices });
  return presentProduct(row);
}

/** Puts a product on sale or takes it off shelf. */
export async function productShelf(input: Req<'marketProductShelf'>, ctx: CallContext): Promise<Product> {
  const [row] = await ctx.db
    .update(marketProducts)
    .set({ state: input.state, updatedAt: ctx.now })
    .where(eq(marketProducts.id, input.id))
    .returning();
  if (!row) throw new AppError(ErrorCode.NOT_FOUND, MarketText.productNotFound);
  await auditProduct(ctx, input.state === 'onSale' ? 'productOnSale' : 'productOffShelf', row);
  return presentProduct(row);
}

type Purchase = Req<'marketQuote'>;

interface PreparedLine extends OrderLine {
  subjectType: 'device' | 'card' | 'pack';
}

interface Prepared {
  product: typeof marketProducts.$inferSelect;
  unitPrice: number;
  quantity: number;
  amount: number;
  lines: PreparedLine[];
}

const invalid = (message: LocalizedText) => new AppError(ErrorCode.MARKET_SUBJECT_INVALID, message);

/** Whether a device counts as offline for more than LONG_OFFLINE_HOURS at `now`, and for how many hours. */
export function offlineHoursOf(
  row: {
    status: (typeof devices.$inferSelect)['status'];
    lastSeenAt: Date | null;
    statusAt: Date;
    heartbeatSec: number;
  },
  now: Date,
): number | null {
  if (effectiveStatus(row, now.getTime()) !== 'offline') return null;
  const seen = Math.max(row.lastSeenAt?.getTime() ?? 0, row.statusAt.getTime());
  return Math.floor((now.getTime() - seen) / 3600_000);
}

/** Checks a purchase and works out its lines (each subject's expiry before and after). */
async function prepare(ctx: CallContext, input: Purchase): Promise<Prepared> {
  const [product] = await ctx.db.select().from(marketProducts).where(eq(marketProducts.id, input.productId));
  if (!product) throw new AppError(ErrorCode.NOT_FOUND, MarketText.productNotFound);
  const unitPrice = priceOf(product, input.months);
  if (unitPrice === null) throw new AppError(ErrorCode.PRODUCT_OFF_SHELF, MarketText.offShelf);
  const { deviceIds, cardIds, quantity } = input;
  const kind: MarketKind = product.kind;
  const lines: PreparedLine[] = [];
  const term = (before: Date | null) => addMonths(later(ctx.now, before), input.months);
  if (kind === 'devicePoints') {
    if (cardIds !== undefined || quantity !== undefined) throw invalid(MarketText.wrongSubjects);
    if (!deviceIds || deviceIds.length === 0) throw invalid(MarketText.devicesRequired);
    const ids = [...new Set(deviceIds)];
    await loadManaged(ctx, ids);
    const rows = await ctx.db
      .select({
        id: devices.id,
        name: devices.name,
        status: devices.status,
        lastSeenAt: devices.lastSeenAt,
        statusAt: devices.statusAt,
        heartbeatSec: devices.heartbeatSec,
        expireAt: devices.expireAt,
      })
      .from(devices)
      .where(inArray(devices.id, ids));
    const byId = new Map(rows.map((r) => [r.id, r]));
    for (const id of ids) {
      const d = byId.get(id);
      if (!d) throw invalid(MarketText.wrongSubjects);
      if (d.status === 'invalid') throw invalid(MarketText.deviceInvalid(d.name));
      const hours = offlineHoursOf(d, ctx.now);
      if (hours !== null && hours > LONG_OFFLINE_HOURS) {
        throw new AppError(ErrorCode.DEVICE_LONG_OFFLINE, MarketText.deviceLongOffline(d.name, hours));
      }
      lines.push({
        subjectType: 'device',
        subjectId: d.id,
        subjectName: d.name,
        amount: unitPrice,
        expiresBefore: d.expireAt?.toISOString() ?? null,
        expiresAfter: term(d.expireAt).toISOString(),
      });
    }
  } else if (kind === 'dataCard') {
    if (deviceIds !== undefined || quantity !== undefined) throw invalid(MarketText.wrongSubjects);
    if (!cardIds || cardIds.length === 0) throw invalid(MarketText.cardsRequired);
    const ids = [...new Set(cardIds)];
    const rows = await ctx.db
      .select({ id: iotCards.id, iccid: iotCards.iccid, state: iotCards.state, expiresAt: iotCards.expiresAt })
      .from(iotCards)
      .where(and(eq(iotCards.entId, ctx.user.entId), inArray(iotCards.id, ids)));
    const byId = new Map(rows.map((r) => [r.id, r]));
    for (const id of ids) {
      const c = byId.get(id);
      if (!c || c.state === 'cancelled') throw invalid(MarketText.cardInvalid);
      lines.push({
        subjectType: 'card',
        subjectId: c.id,
        subjectName: c.iccid,
        amount: unitPrice,
        expiresBefore: c.expiresAt?.toISOString() ?? null,
        expiresAfter: term(c.expiresAt).toISOString(),
      });
    }
  } else {
    if (deviceIds !== undefined || cardIds !== undefined) throw invalid(MarketText.wrongSubjects);
    if (!quantity) throw invalid(MarketText.quantityRequired);
    const name = packName(product.storageBytes ?? STORAGE_PACK_BYTES);
    for (let i = 0; i < quantity; i++) {
      lines.push({
        subjectType: 'pack',
        subjectId: null,
        subjectName: name,
        amount: unitPrice,
        expiresBefore: null,
        expiresAfter: term(null).toISOString(),
      });
    }
  }
  return { product, unitPrice, quantity: lines.length, amount: unitPrice * lines.length, lines };
}

export async function quote(input: Purchase, ctx: CallContext) {
  const prepared = await prepare(ctx, input);
  const walletId = enterpriseWalletId(ctx.user.entId);
  const available = (await accountBalances(ctx.db, [walletId])).get(walletId)?.available ?? 0;
  return {
    amount: prepared.amount,
    unitPrice: prepared.unitPrice,
    quantity: prepared.quantity,
    lines: prepared.lines,
    available,
    walletId,
  };
}

/** The market order's number: the payment order's with 'M' for 'P'. */
const marketNo = (payNo: string) => `M${payNo.slice(1)}`;

/**
 * Writes a market order, its lines and its payment order (one id for both rows). Used by a
 * purchase and by the renewal job (renewal.ts writes its own in bulk).
 */
export async function insertOrder(
  ctx: CallContext,
  prepared: Prepared,
  input: { months: number; autoRenew: boolean; payBy: 'balance' | 'other' },
) {
  const id = randomUUID();
  const walletId = await ensureEnterpriseWallet(ctx.db, ctx.user.entId);
  const payNo = await nextOrderNo(ctx.db, ctx.now);
  const title = MarketText.orderTitle(prepared.product.name, input.months)[lang(ctx)];
  await openPayOrder(ctx.db, {
    id,
    no: payNo,
    purpose: 'market',
    title,
    amount: prepared.amount,
    walletId,
    entId: ctx.user.entId,
    createdBy: ctx.user.accountId,
    expiresAt: input.payBy === 'other' ? new Date(ctx.now.getTime() + PAY_ORDER_TTL_MINUTES * 60_000) : null,
    now: ctx.now,
  });
  const [order] = await ctx.db
    .insert(marketOrders)
    .values({
      id,
      no: marketNo(payNo),
      entId: ctx.user.entId,
      productId: prepared.product.id,
      kind: prepared.product.kind,
      productName: prepared.product.name,
      months: input.months,
      unitPrice: prepared.unitPrice,
      quantity: prepared.quantity,
      amount: prepared.amount,
      state: 'unpaid',
      source: 'purchase',
      autoRenew: input.autoRenew,
      payOrderId: id,
      createdBy: ctx.user.accountId,
      createdAt: ctx.now,
      updatedAt: ctx.now,
    })
    .returning();
  await ctx.db.insert(marketOrderLines).values(
    prepared.lines.map((l) => ({
      orderId: id,
      subjectType: l.subjectType,
      subjectId: l.subjectId,
      subjectName: l.subjectName,
      amount: l.amount,
      expiresBefore: l.expiresBefore ? new Date(l.expiresBefore) : null,
      expiresAfter: l.expiresAfter ? new Date(l.expiresAfter) : null,
    })),
  );
  return order;
}

const auditOrder = (ctx: CallContext, action: string, order: { id: string; no: string }, detail?: object) =>
  ctx.audit({
    module: 'market',
    action,
    targetType: 'marketOrder',
    targetId: order.id,
    targetName: order.no,
    detail: detail as Record<string, unknown>,
  });

/** Places an order; by balance it is paid (and its effect applied) in this transaction. */
export async function orderCreate(input: Req<'marketOrderCreate'>, ctx: CallContext) {
  const prepared = await prepare(ctx, input);
  const order = await insertOrder(ctx, prepared, input);
  if (input.payBy === 'balance') {
    // INSUFFICIENT_BALANCE propagates: the call's transaction writes nothing.
    await markPaid(ctx.db, order.id, { method: 'balance', now: ctx.now, actorId: ctx.user.accountId });
  }
  await auditOrder(ctx, 'orderCreate', order, {
    productId: order.productId,
    productName: order.productName,
    months: order.months,
    quantity: order.quantity,
    amount: order.amount,
    payBy: input.payBy,
    subjects: prepared.lines.flatMap((l) => (l.subjectId ? [l.subjectId] : [])),
  });
  return visibleOrder(ctx, order.id);
}

/** The order of the caller's enterprise, presented, or NOT_FOUND. */
export async function visibleOrder(ctx: CallContext, id: string) {
  const found = await findOrder(ctx.db, ctx.user.entId, id);
  if (!found) throw new AppError(ErrorCode.NOT_FOUND, MarketText.orderNotFound);
  return presentOrder(found.order, found.pay, found.entName, found.buyerName);
}

export async function orderInfo(input: Req<'marketOrderInfo'>, ctx: CallContext) {
  const order = await visibleOrder(ctx, input.id);
  const lines = await orderLines(ctx.db, order.id);
  return { order, lines: lines.map(presentLine) };
}

/** Cancels an unpaid order whose payment is not under review: its payment order closes (onClosed cancels it). */
export async function orderCancel(input: Req<'marketOrderCancel'>, ctx: CallContext) {
  const locked = await lockMarketOrder(ctx.db, ctx.user.entId, input.id);
  if (!locked) throw new AppError(ErrorCode.NOT_FOUND, MarketText.orderNotFound);
  if (locked.order.state !== 'unpaid' || locked.payState !== 'unpaid') {
    throw new AppError(ErrorCode.MARKET_ORDER_STATE, MarketText.notCancellable);
  }
  const closed = await closeOrder(ctx.db, locked.order.payOrderId, ctx.now);
  if (!closed) throw new AppError(ErrorCode.MARKET_ORDER_STATE, MarketText.notCancellable);
  await auditOrder(ctx, 'orderCancel', locked.order, { amount: locked.order.amount });
  return visibleOrder(ctx, locked.order.id);
}

export const subjectKeyword = (keyword: string) => {
  const pattern = `%${escapeLike(keyword)}%`;
  return or(ilike(devices.name, pattern), ilike(devices.number, pattern), ilike(iotCards.iccid, pattern)) as SQL;
};
