import { discountToPct, ErrorCode, type PriceContract, type salesEndpoints } from '@marquee/protocol';
import { and, count, desc, eq, ilike, inArray, isNull, ne, or, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Executor } from '../../db/client.js';
import {
  accounts,
  adSlots,
  advertisers,
  type SalesPriceContractRow,
  salesContracts,
  salesOrders,
  salesPriceContracts,
} from '../../db/schema/index.js';
import { AppError } from '../../protocol/appError.js';
import type { CallContext } from '../../protocol/handlers.js';
import { advertiserScopeWhere } from '../advertisers/scope.js';
import { callerZone, enterpriseTodaySql } from '../timeZones/service.js';
import { nextNumber9 } from './numbers.js';
import { advertiserOwnedWhere } from './orderScope.js';
import { presentPriceContract } from './presenter.js';
import { auditSales } from './slots.js';
import { InventoryText } from './texts.js';

/**
 * Price contracts (issue 28): an advertiser's negotiated discount and slot prices for a
 * validity. Enabled contracts of one advertiser never overlap, so at most one is in force on
 * a day.
 */

/** The advertiser's enabled, not deleted price contract in force on `day` (YYYY-MM-DD), or null. */
export async function activePriceContract(
  db: Executor,
  entId: string,
  advertiserId: string,
  day: string,
): Promise<SalesPriceContractRow | null> {
  const [row] = await db
    .select()
    .from(salesPriceContracts)
    .where(
      and(
        eq(salesPriceContracts.entId, entId),
        eq(salesPriceContracts.advertiserId, advertiserId),
        eq(salesPriceContracts.enabled, true),
        isNull(salesPriceContracts.deletedAt),
        sql`${salesPriceContracts.validFrom} <= ${day}::date`,
        sql`${salesPriceContracts.validTo} >= ${day}::date`,
      ),
    )
    .orderBy(desc(salesPriceContracts.validFrom))
    .limit(1);
  return row ?? null;
}

type Req<K extends keyof typeof salesEndpoints> = z.infer<(typeof salesEndpoints)[K]['request']>;

const nameOf = (a: { realName: string; loginName: string }) => a.realName || a.loginName;

/** The price contracts as shown: the advertiser's name, the slots' names, the contract document if any. */
async function priceContractViews(ctx: CallContext, rows: SalesPriceContractRow[]): Promise<PriceContract[]> {
  if (rows.length === 0) return [];
  const advertiserIds = [...new Set(rows.map((r) => r.advertiserId))];
  const slotIds = [...new Set(rows.flatMap((r) => r.slotPrices.map((p) => p.slotId)))];
  const advs = await ctx.db
    .select({ id: accounts.id, realName: accounts.realName, loginName: accounts.loginName })
    .from(accounts)
    .where(inArray(accounts.id, advertiserIds));
  const slots =
    slotIds.length === 0
      ? []
      : await ctx.db.select({ id: adSlots.id, name: adSlots.name }).from(adSlots).where(inArray(adSlots.id, slotIds));
  const contracts = await ctx.db
    .select({ id: salesContracts.id, subjectId: salesContracts.subjectId, state: salesContracts.state })
    .from(salesContracts)
    .where(
      and(
        eq(salesContracts.kind, 'priceContract'),
        inArray(
          salesContracts.subjectId,
          rows.map((r) => r.id),
        ),
      ),
    );
  const advNames = new Map(advs.map((a) => [a.id, nameOf(a)]));
  const slotNames = new Map(slots.map((s) => [s.id, s.name]));
  const docs = new Map(contracts.map((c) => [c.subjectId, { id: c.id, state: c.state }]));
  const zone = await callerZone(ctx);
  return rows.map((r) =>
    presentPriceContract(
      r,
      { advertiserName: advNames.get(r.advertiserId) ?? '', slotNames, contract: docs.get(r.id) ?? null },
      ctx.now,
      zone,
    ),
  );
}

const visibleWhere = (ctx: CallContext) =>
  and(
    advertiserOwnedWhere(ctx.user, salesPriceContracts.advertiserId, salesPriceContracts.entId),
    isNull(salesPriceContracts.deletedAt),
  );

async function requirePriceContract(ctx: CallContext, id: string, opts?: { lock?: boolean }) {
  const q = ctx.db
    .select()
    .from(salesPriceContracts)
    .where(and(eq(salesPriceContracts.id, id), visibleWhere(ctx)));
  const [row] = opts?.lock ? await q.for('update') : await q;
  if (!row) throw new AppError(ErrorCode.NOT_FOUND, InventoryText.priceContractNotFound);
  return row;
}

export async function priceContractList(input: Req<'salesPriceContractList'>, ctx: CallContext) {
  const day = enterpriseTodaySql(salesPriceContracts.entId, ctx.now);
  const conds: (SQL | undefined)[] = [visibleWhere(ctx)];
  if (input.advertiserId) conds.push(eq(salesPriceContracts.advertiserId, input.advertiserId));
  if (input.keyword) {
    const like = `%${input.keyword.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    conds.push(or(ilike(salesPriceContracts.name, like), ilike(salesPriceContracts.number, like)));
  }
  if (input.active !== undefined) {
    const active = sql`(${salesPriceContracts.enabled} and ${salesPriceContracts.validFrom} <= ${day} and ${salesPriceContracts.validTo} >= ${day})`;
    conds.push(input.active ? active : sql`not ${active}`);
  }
  const where = and(...conds);
  const [rows, [{ total }]] = await Promise.all([
    ctx.db
      .select()
      .from(salesPriceContracts)
      .where(where)
      .orderBy(desc(salesPriceContracts.createdAt), desc(salesPriceContracts.id))
      .limit(input.size)
      .offset((input.page - 1) * input.size),
    ctx.db.select({ total: count() }).from(salesPriceContracts).where(where),
  ]);
  return { total: Number(total), data: await priceContractViews(ctx, rows) };
}

export async function priceContractSave(input: Req<'salesPriceContractSave'>, ctx: CallContext) {
  const entId = ctx.user.entId;
  // The advertiser: an advertiser account of the enterprise the caller sees (its row locked:
  // saves of one advertiser's contracts serialize, so the overlap check holds).
  const [adv] = await ctx.db
    .select({ id: accounts.id, realName: accounts.realName, loginName: accounts.loginName })
    .from(accounts)
    .innerJoin(advertisers, eq(advertisers.accountId, accounts.id))
    .where(and(eq(accounts.id, input.advertiserId), eq(advertisers.entId, entId), advertiserScopeWhere(ctx.user)));
  if (!adv) throw new AppError(ErrorCode.NOT_FOUND, InventoryText.advertiserNotFound);
  await ctx.db
    .select({ id: advertisers.accountId })
    .from(advertisers)
    .where(eq(advertisers.accountId, adv.id))
    .for('update');
  const slotIds = input.slotPrices.map((p) => p.slotId);
  if (slotIds.length > 0) {
    const found = await ctx.db
      .select({ id: adSlots.id })
      .from(adSlots)
      .where(and(inArray(adSlots.id, slotIds), eq(adSlots.entId, entId), isNull(adSlots.deletedAt)));
    if (found.length !== new Set(slotIds).size) throw new AppError(ErrorCode.NOT_FOUND, InventoryText.slotPriceInvalid);
  }
  const discountPct = discountToPct(input.discount);
  if (discountPct === null) throw new AppError(ErrorCode.INVALID_PARAMS);
  let old: SalesPriceContractRow | null = null;
  if (input.id) {
    old = await requirePriceContract(ctx, input.id, { lock: true });
    const [doc] = await ctx.db
      .select({ state: salesContracts.state })
      .from(salesContracts)
      .where(and(eq(salesContracts.kind, 'priceContract'), eq(salesContracts.subjectId, old.id)));
    if (doc?.state === 'signed') throw new AppError(ErrorCode.CONTRACT_STATE, InventoryText.priceContractSigned);
  }
  if (input.enabled) {
    const conds = [
      eq(salesPriceContracts.entId, entId),
      eq(salesPriceContracts.advertiserId, adv.id),
      eq(salesPriceContracts.enabled, true),
      isNull(salesPriceContracts.deletedAt),
      sql`${salesPriceContracts.validFrom} <= ${input.validTo}::date`,
      sql`${salesPriceContracts.validTo} >= ${input.validFrom}::date`,
    ];
    if (old) conds.push(ne(salesPriceContracts.id, old.id));
    const [clash] = await ctx.db
      .select({ id: salesPriceContracts.id })
      .from(salesPriceContracts)
      .where(and(...conds))
      .limit(1);
    if (clash) throw new AppError(ErrorCode.TIME_CONFLICT, InventoryText.priceContractOverlap);
  }
  const fields = {
    name: input.name,
    advertiserId: adv.id,
    discountPct,
    slotPrices: input.slotPrices,
    validFrom: input.validFrom,
    validTo: input.validTo,
    enabled: input.enabled,
    updatedAt: ctx.now,
  };
  let row: SalesPriceContractRow;
  if (!old) {
    [row] = await ctx.db
      .insert(salesPriceContracts)
      .values({
        ...fields,
        entId,
        number: await nextNumber9(ctx.db, 'sales_price_contracts'),
        createdBy: ctx.user.accountId,
        createdAt: ctx.now,
      })
      .returning();
  } else {
    [row] = await ctx.db.update(salesPriceContracts).set(fields).where(eq(salesPriceContracts.id, old.id)).returning();
  }
  await auditSales(ctx, old ? 'update' : 'add', 'priceContract', row, {
    number: row.number,
    advertiser: nameOf(adv),
    discountPct,
    validFrom: row.validFrom,
    validTo: row.validTo,
  });
  const [view] = await priceContractViews(ctx, [row]);
  return view;
}

export async function priceContractDelete(input: Req<'salesPriceContractDelete'>, ctx: CallContext) {
  const old = await requirePriceContract(ctx, input.id, { lock: true });
  const [used] = await ctx.db
    .select({ id: salesOrders.id })
    .from(salesOrders)
    .where(eq(salesOrders.priceContractId, old.id))
    .limit(1);
  if (used) throw new AppError(ErrorCode.CONFLICT, InventoryText.priceContractUsed);
  const [doc] = await ctx.db
    .select({ state: salesContracts.state })
    .from(salesContracts)
    .where(and(eq(salesContracts.kind, 'priceContract'), eq(salesContracts.subjectId, old.id)));
  if (doc?.state === 'signed') throw new AppError(ErrorCode.CONFLICT, InventoryText.priceContractSigned);
  await ctx.db
    .update(salesPriceContracts)
    .set({ deletedAt: ctx.now, updatedAt: ctx.now })
    .where(eq(salesPriceContracts.id, old.id));
  await auditSales(ctx, 'delete', 'priceContract', old, { number: old.number });
  return null;
}
