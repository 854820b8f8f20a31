import { ErrorCode, type Slot, type salesEndpoints } from '@marquee/protocol';
import { and, count, desc, eq, ilike, inArray, isNull, notInArray, or, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Executor } from '../../db/client.js';
import {
  type AdSlotRow,
  adSlots,
  ads,
  deviceGroups,
  devices,
  salesGoods,
  salesGoodsLines,
  salesOrderLines,
  salesOrders,
  spliceWalls,
  tags,
  templates,
} from '../../db/schema/index.js';
import { AppError } from '../../protocol/appError.js';
import type { CallContext } from '../../protocol/handlers.js';
import { checkDictionaryValue } from '../dictionaries/service.js';
import { slotScreens } from './inventory.js';
import { nextNumber9 } from './numbers.js';
import { presentSlot, slotUnitPrice } from './presenter.js';
import { InventoryText } from './texts.js';

/**
 * Slots (issue 28, /operate/slot): a share of the loop on a set of screens (targets like an
 * ad's), sold by time (CPT) or impressions (CPM). A slot in use (goods on sale using it, or
 * orders not cancelled or settled) keeps its method, rotations and targets and cannot be
 * deleted (SLOT_IN_USE); its prices may change.
 */

type Req<K extends keyof typeof salesEndpoints> = z.infer<(typeof salesEndpoints)[K]['request']>;

const escapeLike = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);
export const contains = (value: string) => `%${escapeLike(value.trim())}%`;
const unique = (ids: readonly string[]) => [...new Set(ids)];

export const auditSales = (
  ctx: CallContext,
  action: string,
  targetType: string,
  row: { id: string; name: string },
  detail?: object,
) =>
  ctx.audit({
    module: 'sales',
    action,
    targetType,
    targetId: row.id,
    targetName: row.name,
    detail: detail as Record<string, unknown> | undefined,
  });

/** The enterprise's slot, not deleted, optionally locked; NOT_FOUND otherwise. */
export async function requireSlot(ctx: CallContext, id: string, opts?: { lock?: boolean }): Promise<AdSlotRow> {
  const q = ctx.db
    .select()
    .from(adSlots)
    .where(and(eq(adSlots.id, id), eq(adSlots.entId, ctx.user.entId), isNull(adSlots.deletedAt)));
  // NO KEY UPDATE like lockSlots: buyers hold KEY SHARE on the row (their lines' foreign key).
  const [row] = opts?.lock ? await q.for('no key update') : await q;
  if (!row) throw new AppError(ErrorCode.NOT_FOUND, InventoryText.slotNotFound);
  return row;
}

/** Which of the slots are in use: goods on sale with a line on it, or orders not cancelled/settled. */
export async function slotsInUse(db: Executor, slotIds: readonly string[]): Promise<Set<string>> {
  if (slotIds.length === 0) return new Set();
  const goods = await db
    .selectDistinct({ slotId: salesGoodsLines.slotId })
    .from(salesGoodsLines)
    .innerJoin(salesGoods, eq(salesGoods.id, salesGoodsLines.goodsId))
    .where(
      and(inArray(salesGoodsLines.slotId, [...slotIds]), eq(salesGoods.state, 'onSale'), isNull(salesGoods.deletedAt)),
    );
  const orders = await db
    .selectDistinct({ slotId: salesOrderLines.slotId })
    .from(salesOrderLines)
    .innerJoin(salesOrders, eq(salesOrders.id, salesOrderLines.orderId))
    .where(and(inArray(salesOrderLines.slotId, [...slotIds]), notInArray(salesOrders.state, ['cancelled', 'settled'])));
  return new Set([...goods, ...orders].map((r) => r.slotId));
}

/** The slot as shown: its screens now (and long-offline ones), in use, its layout's name. */
export async function slotView(ctx: CallContext, row: AdSlotRow): Promise<Slot> {
  // Sequential: in a mutation ctx.db is one transaction's connection.
  const screens = await slotScreens(ctx.db, row, ctx.now);
  const inUse = await slotsInUse(ctx.db, [row.id]);
  const layout = row.layoutId
    ? await ctx.db.select({ name: templates.name }).from(templates).where(eq(templates.id, row.layoutId))
    : [];
  const fallback = row.rtbFallbackAdId
    ? await ctx.db.select({ name: ads.name }).from(ads).where(eq(ads.id, row.rtbFallbackAdId))
    : [];
  return presentSlot(row, {
    screens: screens.length,
    longOfflineScreens: screens.filter((s) => s.longOffline).length,
    inUse: inUse.has(row.id),
    layoutName: layout[0]?.name ?? null,
    fallbackAdName: fallback[0]?.name ?? null,
  });
}

/** Every id must be found among `rows` (the enterprise's), else AD_TARGET_INVALID. */
async function expectAll(ids: readonly string[], rows: Promise<{ id: string }[]>) {
  if (ids.length === 0) return;
  const found = new Set((await rows).map((r) => r.id));
  if (ids.some((id) => !found.has(id))) {
    throw new AppError(ErrorCode.AD_TARGET_INVALID, InventoryText.slotTargetsInvalid);
  }
}

/** The slot's targets, each of the enterprise (AD_TARGET_INVALID otherwise), without repeats. */
export async function checkTargets(ctx: CallContext, input: Req<'salesSlotSave'>['targets']) {
  const entId = ctx.user.entId;
  const targets = {
    deviceIds: unique(input.deviceIds),
    groupIds: unique(input.groupIds),
    tagIds: unique(input.tagIds),
    spliceIds: unique(input.spliceIds),
  };
  const db = ctx.db;
  await expectAll(
    targets.deviceIds,
    targets.deviceIds.length === 0
      ? Promise.resolve([])
      : (
          db.execute(sql`select id from devices where ent_id = ${entId}
          and id in (select jsonb_array_elements_text(${JSON.stringify(targets.deviceIds)}::jsonb))`) as Promise<unknown>
        ).then((r) => (r as { rows: { id: string }[] }).rows),
  );
  await expectAll(
    targets.groupIds,
    db
      .select({ id: deviceGroups.id })
      .from(deviceGroups)
      .where(and(eq(deviceGroups.entId, entId), inArray(deviceGroups.id, targets.groupIds))),
  );
  await expectAll(
    targets.tagIds,
    db
      .select({ id: tags.id })
      .from(tags)
      .where(and(eq(tags.entId, entId), inArray(tags.id, targets.tagIds))),
  );
  await expectAll(
    targets.spliceIds,
    db
      .select({ id: spliceWalls.id })
      .from(spliceWalls)
      .where(and(eq(spliceWalls.entId, entId), inArray(spliceWalls.id, targets.spliceIds))),
  );
  return targets;
}

/** A layout of the enterprise whose document marks component `regionId` as the RTB slot; AD_TARGET_INVALID otherwise. */
async function checkRegion(ctx: CallContext, layoutId: string, regionId: string) {
  const [layout] = await ctx.db
    .select({ id: templates.id, document: templates.document })
    .from(templates)
    .where(and(eq(templates.id, layoutId), eq(templates.entId, ctx.user.entId)));
  const doc = layout?.document as { pages?: { components?: { id?: string; rtbSlot?: boolean }[] }[] } | null;
  const marked = (doc?.pages ?? []).some((p) =>
    (p.components ?? []).some((c) => c.id === regionId && c.rtbSlot === true),
  );
  if (!marked) throw new AppError(ErrorCode.AD_TARGET_INVALID, InventoryText.slotRegionInvalid);
}

const sameIds = (a: readonly string[] = [], b: readonly string[] = []) => {
  const x = [...new Set(a)].sort();
  const y = [...new Set(b)].sort();
  return x.length === y.length && x.every((v, i) => v === y[i]);
};

export async function slotList(input: Req<'salesSlotList'>, ctx: CallContext) {
  const conds: (SQL | undefined)[] = [eq(adSlots.entId, ctx.user.entId), isNull(adSlots.deletedAt)];
  if (input.keyword) {
    conds.push(or(ilike(adSlots.name, contains(input.keyword)), ilike(adSlots.number, contains(input.keyword))));
  }
  if (input.salesMethod) conds.push(eq(adSlots.salesMethod, input.salesMethod));
  if (input.rtbEnabled !== undefined) conds.push(eq(adSlots.rtbEnabled, input.rtbEnabled));
  const where = and(...conds);
  const [rows, [{ total }]] = await Promise.all([
    ctx.db
      .select()
      .from(adSlots)
      .where(where)
      .orderBy(desc(adSlots.createdAt), desc(adSlots.id))
      .limit(input.size)
      .offset((input.page - 1) * input.size),
    ctx.db.select({ total: count() }).from(adSlots).where(where),
  ]);
  const data: Slot[] = [];
  for (const row of rows) data.push(await slotView(ctx, row));
  return { total: Number(total), data };
}

export async function slotInfo(input: Req<'salesSlotInfo'>, ctx: CallContext) {
  return slotView(ctx, await requireSlot(ctx, input.id));
}

export async function slotSave(input: Req<'salesSlotSave'>, ctx: CallContext) {
  const targets = await checkTargets(ctx, input.targets);
  const layoutId = input.layoutId || null;
  const regionId = layoutId ? input.regionId || null : null;
  if (layoutId && regionId) await checkRegion(ctx, layoutId, regionId);
  const fields = {
    name: input.name,
    screenSize: input.screenSize,
    width: input.width,
    height: input.height,
    durationSec: input.durationSec,
    salesMethod: input.salesMethod,
    cptPrice: input.cptPrice ?? null,
    cpmPrice: input.cpmPrice ?? null,
    maxRotations: input.maxRotations,
    targets,
    layoutId,
    regionId,
    updatedAt: ctx.now,
  };
  if (!input.id) {
    const [row] = await ctx.db
      .insert(adSlots)
      .values({
        ...fields,
        entId: ctx.user.entId,
        number: await nextNumber9(ctx.db, 'ad_slots'),
        createdBy: ctx.user.accountId,
        createdAt: ctx.now,
      })
      .returning();
    await auditSales(ctx, 'add', 'adSlot', row, { number: row.number, salesMethod: row.salesMethod });
    return slotView(ctx, row);
  }
  const old = await requireSlot(ctx, input.id, { lock: true });
  const changesInventory =
    old.salesMethod !== fields.salesMethod ||
    old.maxRotations !== fields.maxRotations ||
    !sameIds(old.targets.deviceIds, targets.deviceIds) ||
    !sameIds(old.targets.groupIds, targets.groupIds) ||
    !sameIds(old.targets.tagIds, targets.tagIds) ||
    !sameIds(old.targets.spliceIds, targets.spliceIds);
  if (changesInventory && (await slotsInUse(ctx.db, [old.id])).has(old.id)) {
    throw new AppError(ErrorCode.SLOT_IN_USE, InventoryText.slotInUse);
  }
  const [row] = await ctx.db.update(adSlots).set(fields).where(eq(adSlots.id, old.id)).returning();
  await auditSales(ctx, 'update', 'adSlot', row, { number: row.number, salesMethod: row.salesMethod });
  return slotView(ctx, row);
}

export async function slotDelete(input: Req<'salesSlotDelete'>, ctx: CallContext) {
  const old = await requireSlot(ctx, input.id, { lock: true });
  if ((await slotsInUse(ctx.db, [old.id])).has(old.id)) {
    throw new AppError(ErrorCode.SLOT_IN_USE, InventoryText.slotInUse);
  }
  // Goods off shelf that list it keep the line; they cannot go on sale again (its slot is gone: NOT_FOUND).
  await ctx.db.update(adSlots).set({ deletedAt: ctx.now, updatedAt: ctx.now }).where(eq(adSlots.id, old.id));
  await auditSales(ctx, 'delete', 'adSlot', old, { number: old.number });
  return null;
}

/** A slot's fallback: an approved (passed, not deleted) fallback ad of the enterprise, else AD_NOT_SCHEDULED. */
async function fallbackAd(ctx: CallContext, adId: string | null, region: boolean): Promise<string | null> {
  if (adId === null) return null;
  const [row] = await ctx.db
    .select({ id: ads.id, layoutId: ads.layoutId })
    .from(ads)
    .where(
      and(
        eq(ads.id, adId),
        eq(ads.entId, ctx.user.entId),
        eq(ads.type, 'fallback'),
        eq(ads.reviewState, 'passed'),
        isNull(ads.deletedAt),
      ),
    );
  if (!row) throw new AppError(ErrorCode.AD_NOT_SCHEDULED, InventoryText.fallbackNotUsable);
  if (region && row.layoutId) throw new AppError(ErrorCode.AD_NOT_SCHEDULED, InventoryText.regionFallbackLayout);
  return row.id;
}

export async function slotRtb(input: Req<'salesSlotRtb'>, ctx: CallContext) {
  const old = await requireSlot(ctx, input.id, { lock: true });
  // The venue type is an enabled entry of the dictionary `venueType` (issue 31; the schema checks
  // the OpenOOH enum), or the one the slot already has (a type disabled since stays on it).
  if (input.venueType) await checkDictionaryValue(ctx.db, 'venueType', 'venueType', input.venueType, old.venueType);
  const [row] = await ctx.db
    .update(adSlots)
    .set({
      rtbEnabled: input.rtbEnabled,
      rtbFloor: input.rtbFloor === undefined ? old.rtbFloor : input.rtbFloor,
      rtbFallbackAdId:
        input.rtbFallbackAdId === undefined
          ? old.rtbFallbackAdId
          : await fallbackAd(ctx, input.rtbFallbackAdId, old.layoutId !== null),
      venueType: input.venueType ?? old.venueType,
      updatedAt: ctx.now,
    })
    .where(eq(adSlots.id, old.id))
    .returning();
  await auditSales(ctx, input.rtbEnabled ? 'rtbOn' : 'rtbOff', 'adSlot', row, {
    rtbFloor: row.rtbFloor,
    rtbFallbackAdId: row.rtbFallbackAdId,
    venueType: row.venueType,
  });
  return slotView(ctx, row);
}

/**
 * The enterprise's layouts with regions marked as the RTB slot (the layout editor's switch), for
 * the slot form: at most 200 layouts, newest first.
 */
export async function slotRegions(_input: Req<'salesSlotRegions'>, ctx: CallContext) {
  const rows = await ctx.db
    .select({ id: templates.id, name: templates.name, document: templates.document })
    .from(templates)
    .where(
      and(
        eq(templates.entId, ctx.user.entId),
        sql`jsonb_path_exists(${templates.document}, '$.pages[*].components[*] ? (@.rtbSlot == true)')`,
      ),
    )
    .orderBy(desc(templates.updatedAt), desc(templates.id))
    .limit(200);
  return {
    data: rows.map((row) => {
      const doc = row.document as { pages?: { components?: { id?: string; name?: string; rtbSlot?: boolean }[] }[] };
      const regions = (doc.pages ?? []).flatMap((p) =>
        (p.components ?? []).flatMap((c) => (c.rtbSlot === true && c.id ? [{ id: c.id, name: c.name || c.id }] : [])),
      );
      return { layoutId: row.id, layoutName: row.name, regions };
    }),
  };
}

export async function slotOptions(input: Req<'salesSlotOptions'>, ctx: CallContext) {
  const conds: (SQL | undefined)[] = [eq(adSlots.entId, ctx.user.entId), isNull(adSlots.deletedAt)];
  if (input.keyword) {
    conds.push(or(ilike(adSlots.name, contains(input.keyword)), ilike(adSlots.number, contains(input.keyword))));
  }
  const rows = await ctx.db
    .select()
    .from(adSlots)
    .where(and(...conds))
    .orderBy(desc(adSlots.createdAt), desc(adSlots.id))
    .limit(200);
  const data = [];
  for (const row of rows) {
    const screens = await slotScreens(ctx.db, row, ctx.now);
    data.push({
      id: row.id,
      name: row.name,
      salesMethod: row.salesMethod,
      unitPrice: slotUnitPrice(row),
      maxRotations: row.maxRotations,
      screens: screens.length,
    });
  }
  return { data };
}

export async function slotDevices(input: Req<'salesSlotDevices'>, ctx: CallContext) {
  const slot = await requireSlot(ctx, input.slotId);
  let screens = await slotScreens(ctx.db, slot, ctx.now);
  const keyword = input.keyword?.trim().toLowerCase();
  const pageIds = (list: typeof screens) => list.slice((input.page - 1) * input.size, input.page * input.size);
  let extra = new Map<string, { number: string | null; address: string | null; status: string }>();
  if (keyword) {
    // Name or number contains the keyword (numbers are read for every screen only when filtering).
    const rows = await ctx.db
      .select({ id: devices.id, number: devices.number })
      .from(devices)
      .where(and(eq(devices.entId, slot.entId), ilike(devices.number, contains(keyword))));
    const byNumber = new Set(rows.map((r) => r.id));
    screens = screens.filter((s) => s.name.toLowerCase().includes(keyword) || byNumber.has(s.id));
  }
  const page = pageIds(screens);
  if (page.length > 0) {
    const rows = await ctx.db
      .select({ id: devices.id, number: devices.number, address: devices.address, status: devices.status })
      .from(devices)
      .where(
        inArray(
          devices.id,
          page.map((s) => s.id),
        ),
      );
    extra = new Map(rows.map((r) => [r.id, r]));
  }
  return {
    total: screens.length,
    data: page.map((s) => {
      const e = extra.get(s.id);
      return {
        id: s.id,
        name: s.name,
        number: e?.number ?? null,
        address: e?.address ?? '',
        status: s.longOffline ? 'offline' : (e?.status ?? 'offline'),
        longOffline: s.longOffline,
      };
    }),
  };
}
