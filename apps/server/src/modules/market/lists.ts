import {
  DEFAULT_STORAGE_QUOTA_BYTES,
  ErrorCode,
  LONG_OFFLINE_HOURS,
  type MarketItem,
  type marketEndpoints,
} from '@marquee/protocol';
import { and, asc, count, desc, eq, gte, ilike, inArray, isNotNull, lt, or, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { scopeWhere } from '../../auth/scope.js';
import {
  accounts,
  devices,
  enterprises,
  iotCards,
  marketItems,
  marketOrders,
  marketProducts,
  marketRenewals,
  payOrders,
  storageQuotas,
} from '../../db/schema/index.js';
import { AppError } from '../../protocol/appError.js';
import type { CallContext } from '../../protocol/handlers.js';
import { deviceScope } from '../devices/repository.js';
import { presentItem, presentOrder, presentRenewal } from './presenter.js';
import { buyerName } from './repository.js';
import { offlineHoursOf, subjectKeyword } from './service.js';
import { MarketText, packName } from './texts.js';

/**
 * The market's lists (issue 27), all of the caller's enterprise (tenant audience) but the
 * devices' picker, which shows the devices the caller sees (the devices' list scope).
 */

type Req<K extends keyof typeof marketEndpoints> = z.infer<(typeof marketEndpoints)[K]['request']>;
const escapeLike = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);
const DAY_MS = 86_400_000;

export async function orderList(input: Req<'marketOrderList'>, ctx: CallContext) {
  const conds: (SQL | undefined)[] = [
    eq(marketOrders.entId, ctx.user.entId),
    input.state ? eq(marketOrders.state, input.state) : undefined,
    input.kind ? eq(marketOrders.kind, input.kind) : undefined,
    input.source ? eq(marketOrders.source, input.source) : undefined,
    input.from ? gte(marketOrders.createdAt, new Date(input.from)) : undefined,
    input.to ? lt(marketOrders.createdAt, new Date(input.to)) : undefined,
    input.keyword
      ? or(
          ilike(marketOrders.no, `%${escapeLike(input.keyword)}%`),
          ilike(marketOrders.productName, `%${escapeLike(input.keyword)}%`),
        )
      : undefined,
  ];
  const where = and(...conds);
  const [{ total }] = await ctx.db.select({ total: count() }).from(marketOrders).where(where);
  const rows = await ctx.db
    .select({
      order: marketOrders,
      pay: { state: payOrders.state, method: payOrders.method },
      entName: enterprises.name,
      buyerName,
    })
    .from(marketOrders)
    .innerJoin(payOrders, eq(payOrders.id, marketOrders.payOrderId))
    .innerJoin(enterprises, eq(enterprises.id, marketOrders.entId))
    .leftJoin(accounts, eq(accounts.id, marketOrders.createdBy))
    .where(where)
    .orderBy(desc(marketOrders.createdAt), desc(marketOrders.id))
    .limit(input.size)
    .offset((input.page - 1) * input.size);
  return { total: Number(total), data: rows.map((r) => presentOrder(r.order, r.pay, r.entName, r.buyerName)) };
}

/** The subject's name as the market shows it: a device's name, a card's ICCID, a pack's size. */
const subjectNameColumn = sql<string | null>`coalesce(${devices.name}, ${iotCards.iccid})`;

function itemQuery(ctx: CallContext) {
  return ctx.db
    .select({
      item: marketItems,
      subjectName: subjectNameColumn,
      product: { name: marketProducts.name, state: marketProducts.state, prices: marketProducts.prices },
    })
    .from(marketItems)
    .innerJoin(marketProducts, eq(marketProducts.id, marketItems.productId))
    .leftJoin(devices, and(eq(marketItems.kind, 'devicePoints'), eq(devices.id, marketItems.subjectId)))
    .leftJoin(iotCards, and(eq(marketItems.kind, 'dataCard'), eq(iotCards.id, marketItems.subjectId)));
}

const nameOf = (item: { kind: string; storageBytes: number | null; subjectId: string | null }, name: string | null) =>
  item.kind === 'storagePack' ? packName(item.storageBytes ?? 0) : (name ?? item.subjectId ?? '');

export async function itemList(input: Req<'marketItemList'>, ctx: CallContext) {
  const conds: (SQL | undefined)[] = [
    eq(marketItems.entId, ctx.user.entId),
    input.kind ? eq(marketItems.kind, input.kind) : undefined,
    input.state ? eq(marketItems.state, input.state) : undefined,
    input.autoRenew !== undefined ? eq(marketItems.autoRenew, input.autoRenew) : undefined,
    input.expiringWithinDays !== undefined
      ? and(
          gte(marketItems.expiresAt, ctx.now),
          lt(marketItems.expiresAt, new Date(ctx.now.getTime() + input.expiringWithinDays * DAY_MS)),
        )
      : undefined,
    input.keyword ? subjectKeyword(input.keyword) : undefined,
  ];
  const where = and(...conds);
  const [{ total }] = await ctx.db
    .select({ total: count() })
    .from(marketItems)
    .leftJoin(devices, and(eq(marketItems.kind, 'devicePoints'), eq(devices.id, marketItems.subjectId)))
    .leftJoin(iotCards, and(eq(marketItems.kind, 'dataCard'), eq(iotCards.id, marketItems.subjectId)))
    .where(where);
  const rows = await itemQuery(ctx)
    .where(where)
    .orderBy(asc(marketItems.expiresAt), asc(marketItems.id))
    .limit(input.size)
    .offset((input.page - 1) * input.size);
  const ids = rows.map((r) => r.item.id);
  const last = new Map<
    string,
    { at: Date; outcome: 'succeeded' | 'failed'; reason: typeof marketRenewals.$inferSelect.reason }
  >();
  if (ids.length > 0) {
    const attempts = await ctx.db
      .selectDistinctOn([marketRenewals.itemId], {
        itemId: marketRenewals.itemId,
        at: marketRenewals.at,
        outcome: marketRenewals.outcome,
        reason: marketRenewals.reason,
      })
      .from(marketRenewals)
      .where(inArray(marketRenewals.itemId, ids))
      .orderBy(marketRenewals.itemId, desc(marketRenewals.at));
    for (const a of attempts) last.set(a.itemId, a);
  }
  const data: MarketItem[] = rows.map((r) =>
    presentItem(r.item, {
      subjectName: nameOf(r.item, r.subjectName),
      product: r.product,
      last: last.get(r.item.id) ?? null,
    }),
  );
  return { total: Number(total), data };
}

export async function itemAutoRenew(input: Req<'marketItemAutoRenew'>, ctx: CallContext) {
  const ids = [...new Set(input.ids)];
  const found = await ctx.db
    .select({ id: marketItems.id })
    .from(marketItems)
    .where(and(eq(marketItems.entId, ctx.user.entId), inArray(marketItems.id, ids)));
  if (found.length !== ids.length) throw new AppError(ErrorCode.NOT_FOUND, MarketText.itemNotFound);
  const updated = await ctx.db
    .update(marketItems)
    .set({ autoRenew: input.autoRenew, updatedAt: ctx.now })
    .where(and(eq(marketItems.entId, ctx.user.entId), inArray(marketItems.id, ids)))
    .returning({ id: marketItems.id });
  await ctx.audit({
    module: 'market',
    action: input.autoRenew ? 'autoRenewOn' : 'autoRenewOff',
    targetType: 'marketItem',
    targetName: `${ids.length}`,
    detail: { ids },
  });
  return { updated: updated.length };
}

export async function renewalList(input: Req<'marketRenewalList'>, ctx: CallContext) {
  const where = and(
    eq(marketRenewals.entId, ctx.user.entId),
    input.itemId ? eq(marketRenewals.itemId, input.itemId) : undefined,
    input.outcome ? eq(marketRenewals.outcome, input.outcome) : undefined,
    input.from ? gte(marketRenewals.at, new Date(input.from)) : undefined,
    input.to ? lt(marketRenewals.at, new Date(input.to)) : undefined,
  );
  const [{ total }] = await ctx.db.select({ total: count() }).from(marketRenewals).where(where);
  const rows = await ctx.db
    .select({
      renewal: marketRenewals,
      kind: marketItems.kind,
      storageBytes: marketItems.storageBytes,
      subjectId: marketItems.subjectId,
      subjectName: subjectNameColumn,
      orderNo: marketOrders.no,
    })
    .from(marketRenewals)
    .innerJoin(marketItems, eq(marketItems.id, marketRenewals.itemId))
    .leftJoin(devices, and(eq(marketItems.kind, 'devicePoints'), eq(devices.id, marketItems.subjectId)))
    .leftJoin(iotCards, and(eq(marketItems.kind, 'dataCard'), eq(iotCards.id, marketItems.subjectId)))
    .leftJoin(marketOrders, eq(marketOrders.id, marketRenewals.orderId))
    .where(where)
    .orderBy(desc(marketRenewals.at), desc(marketRenewals.id))
    .limit(input.size)
    .offset((input.page - 1) * input.size);
  return {
    total: Number(total),
    data: rows.map((r) =>
      presentRenewal(r.renewal, {
        kind: r.kind,
        subjectName: nameOf({ kind: r.kind, storageBytes: r.storageBytes, subjectId: r.subjectId }, r.subjectName),
        orderNo: r.orderNo ?? null,
      }),
    ),
  };
}

/** The enterprise's material storage: the quota (base plus active packs) and what is used. */
export async function storage(ctx: CallContext) {
  const [quota] = await ctx.db.select().from(storageQuotas).where(eq(storageQuotas.entId, ctx.user.entId));
  const [packs] = await ctx.db
    .select({ n: count(), bytes: sql<string | null>`sum(${marketItems.storageBytes})` })
    .from(marketItems)
    .where(
      and(eq(marketItems.entId, ctx.user.entId), eq(marketItems.kind, 'storagePack'), eq(marketItems.state, 'active')),
    );
  const quotaBytes = quota ? Number(quota.quotaBytes) : DEFAULT_STORAGE_QUOTA_BYTES;
  const packBytes = Number(packs?.bytes ?? 0);
  return {
    quotaBytes,
    baseBytes: Math.max(0, quotaBytes - packBytes),
    packBytes,
    usedBytes: quota ? Number(quota.usedBytes) : 0,
    activePacks: Number(packs?.n ?? 0),
  };
}

/** The devices the caller sees, for the points picker: licence, hours offline, whether it can be chosen. */
export async function deviceOptions(input: Req<'marketDeviceOptions'>, ctx: CallContext) {
  const licensed = sql`exists (select 1 from market_items li where li.kind = 'devicePoints' and li.subject_id = "devices"."id")`;
  const expired = and(isNotNull(devices.expireAt), lt(devices.expireAt, ctx.now)) as SQL;
  const conds: (SQL | undefined)[] = [scopeWhere(ctx.user, deviceScope), sql`${devices.status} <> 'invalid'`];
  if (input.keyword) {
    const pattern = `%${escapeLike(input.keyword)}%`;
    conds.push(or(ilike(devices.name, pattern), ilike(devices.number, pattern)));
  }
  if (input.licence === 'expired') conds.push(expired);
  if (input.licence === 'licensed') conds.push(sql`not (${expired}) and ${licensed}`);
  if (input.licence === 'trial') conds.push(sql`not coalesce(${expired}, false) and not ${licensed}`);
  if (input.expiringWithinDays !== undefined) {
    conds.push(
      gte(devices.expireAt, ctx.now),
      lt(devices.expireAt, new Date(ctx.now.getTime() + input.expiringWithinDays * DAY_MS)),
    );
  }
  const where = and(...conds);
  const [{ total }] = await ctx.db.select({ total: count() }).from(devices).where(where);
  const rows = await ctx.db
    .select({
      id: devices.id,
      name: devices.name,
      number: devices.number,
      status: devices.status,
      lastSeenAt: devices.lastSeenAt,
      statusAt: devices.statusAt,
      heartbeatSec: devices.heartbeatSec,
      expireAt: devices.expireAt,
      licensed: sql<unknown>`${licensed}`,
      autoRenew: sql<unknown>`coalesce((select ai.auto_renew from market_items ai where ai.kind = 'devicePoints' and ai.subject_id = "devices"."id"), false)`,
    })
    .from(devices)
    .where(where)
    .orderBy(sql`${devices.expireAt} asc nulls last`, asc(devices.id))
    .limit(input.size)
    .offset((input.page - 1) * input.size);
  const truthy = (v: unknown) => v === true || v === 't';
  return {
    total: Number(total),
    data: rows.map((r) => {
      const hours = offlineHoursOf(r, ctx.now);
      const longOffline = hours !== null && hours > LONG_OFFLINE_HOURS;
      const status = hours !== null ? 'offline' : r.status;
      return {
        id: r.id,
        name: r.name,
        number: r.number ?? null,
        status,
        licence:
          r.expireAt && r.expireAt.getTime() < ctx.now.getTime()
            ? ('expired' as const)
            : truthy(r.licensed)
              ? ('licensed' as const)
              : ('trial' as const),
        expireAt: r.expireAt?.toISOString() ?? null,
        offlineHours: hours,
        selectable: !longOffline,
        reason: longOffline ? ('longOffline' as const) : null,
        autoRenew: truthy(r.autoRenew),
      };
    }),
  };
}
