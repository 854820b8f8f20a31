import {
  AD_MAX_MATERIALS,
  ErrorCode,
  type endpoints,
  hoursOfMask,
  hoursToPeriods,
  nextDay,
  RefType,
  type SalesOrder,
  zonedDayStart,
} from '@marquee/protocol';
import { and, asc, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { loadPrincipal } from '../../auth/principal.js';
import { type ScopeSubject, scopeWhere } from '../../auth/scope.js';
import type { Executor } from '../../db/client.js';
import {
  type AdTargetIds,
  ads,
  materials,
  type SalesOrderRow,
  salesOrderLineDevices,
  salesOrderLines,
  templates,
} from '../../db/schema/index.js';
import { AppError, type LocalizedText } from '../../protocol/appError.js';
import type { CallContext } from '../../protocol/handlers.js';
import { ensureDefaultPlan } from '../ads/plans.js';
import { pushAdChange } from '../ads/schedule.js';
import { materialScope } from '../materials/scope.js';
import { deleteAllocationsOf } from '../sharing/repository.js';
import { templateScope } from '../templates/repository.js';
import { dayIn, enterpriseZone } from '../timeZones/service.js';
import { orderView } from './orderQueries.js';
import { moveOrder, requireOrder } from './orderScope.js';

/**
 * An order's ads (issue 28): attaching the advertiser's materials (or a layout) to a sub-order
 * makes its ad, source 'order', which goes through the ads' review like any other; approved,
 * the existing chain schedules and plays it. The ad is what the order bought and nothing
 * else: its slot, the line's screens as device targets, the order's days (00:00 of the first
 * day to 00:00 after the last, in the selling enterprise's zone) and hours as time periods (read
 * on each screen's own clock, as every ad's), and the line's rotations as
 * plays per loop (strategy perLoop). ads/service.ts keeps those fields as they are through
 * ad.update; the content and the name may change there (a new review round).
 */

type Req<K extends keyof typeof endpoints> = z.infer<(typeof endpoints)[K]['request']>;

export const OrderAdText = {
  notAttachable: {
    'zh-CN': '只有待上传素材、已支付或投放中的订单可以提交素材',
    'en-US': 'Materials can be given only to an order to upload, paid or in progress',
    ja: '素材を提出できるのは、素材待ち・支払済み・配信中の注文だけです',
  },
  periodOver: {
    'zh-CN': '订单的投放期已结束',
    'en-US': "The order's period is over",
    ja: '注文の掲載期間は終了しています',
  },
  subOrderNotFound: {
    'zh-CN': '子订单不存在',
    'en-US': 'The sub-order does not exist',
    ja: 'サブ注文が存在しません',
  },
  adUnderReview: {
    'zh-CN': '该子订单已有广告且未被驳回；如需修改请在广告管理中编辑',
    'en-US': 'This sub-order already has an ad that did not fail review; edit it in the ads list',
    ja: 'このサブ注文には審査で却下されていない広告があります。変更する場合は広告一覧で編集してください',
  },
  materialNotFound: {
    'zh-CN': '素材不存在，或不属于该广告主',
    'en-US': "A material does not exist or is not the advertiser's",
    ja: '素材が存在しないか、この広告主の素材ではありません',
  },
  layoutNotFound: {
    'zh-CN': '布局不存在，或不属于该广告主',
    'en-US': "The layout does not exist or is not the advertiser's",
    ja: 'レイアウトが存在しないか、この広告主のものではありません',
  },
} satisfies Record<string, LocalizedText>;

/** The advertiser as a data-scope subject (what its own library shows it), from its account and roles. */
export async function advertiserSubject(
  db: Executor,
  owner: Pick<SalesOrderRow, 'entId' | 'advertiserId'>,
): Promise<ScopeSubject> {
  const principal = await loadPrincipal(db, owner.entId, owner.advertiserId, { sessionId: '', tokenHash: '' });
  if (!principal) throw new AppError(ErrorCode.NOT_FOUND, OrderAdText.materialNotFound);
  return principal;
}

/**
 * The content asked for, checked against the advertiser's library: 1 to 20 ready materials, or
 * a layout (an order's sub-order ad, an RTB campaign's ad).
 */
export async function checkedContent(
  db: Executor,
  subject: ScopeSubject,
  input: { materialIds: string[]; layoutId?: string | null },
): Promise<{ materialIds: string[]; layoutId: string | null }> {
  const materialIds = [...new Set(input.materialIds)];
  if (materialIds.length > AD_MAX_MATERIALS) throw new AppError(ErrorCode.AD_TOO_MANY_MATERIALS);
  if (materialIds.length > 0) {
    const rows = await db
      .select({ id: materials.id, status: materials.status })
      .from(materials)
      .where(and(scopeWhere(subject, materialScope), inArray(materials.id, materialIds)));
    if (rows.length !== materialIds.length) throw new AppError(ErrorCode.NOT_FOUND, OrderAdText.materialNotFound);
    if (rows.some((r) => r.status !== 'ready')) throw new AppError(ErrorCode.MATERIAL_INVALID);
    return { materialIds, layoutId: null };
  }
  const layoutId = input.layoutId ?? null;
  if (!layoutId) throw new AppError(ErrorCode.NOT_FOUND, OrderAdText.layoutNotFound);
  const [row] = await db
    .select({ id: templates.id })
    .from(templates)
    .where(and(scopeWhere(subject, templateScope), eq(templates.id, layoutId)));
  if (!row) throw new AppError(ErrorCode.NOT_FOUND, OrderAdText.layoutNotFound);
  return { materialIds: [], layoutId };
}

/**
 * The instants an ad of days `first` .. `last` runs between: 00:00 of the first day to 00:00
 * after the last, days of `zone` (the selling enterprise's, whose days orders are dated in).
 */
export function daysFrame(first: string, last: string, zone: string): { startAt: Date; endAt: Date } {
  return { startAt: new Date(zonedDayStart(first, zone)), endAt: new Date(zonedDayStart(nextDay(last), zone)) };
}

/** The fields of an order's ad that the order decides (ad.update keeps them). */
export function orderAdFrame(
  order: Pick<SalesOrderRow, 'startDate' | 'endDate' | 'hoursMask'>,
  line: { slotId: string; rotations: number },
  deviceIds: string[],
  zone: string,
) {
  const targets: AdTargetIds = { deviceIds, groupIds: [], tagIds: [], deptIds: [], spliceIds: [] };
  return {
    ...daysFrame(order.startDate, order.endDate, zone),
    strategy: 'perLoop' as const,
    playsMin: line.rotations,
    playsMax: line.rotations,
    periods: hoursToPeriods(hoursOfMask(order.hoursMask)),
    slotId: line.slotId,
    targets,
  };
}

async function lineDeviceIds(db: Executor, lineId: string): Promise<string[]> {
  const rows = await db
    .select({ id: salesOrderLineDevices.deviceId })
    .from(salesOrderLineDevices)
    .where(eq(salesOrderLineDevices.lineId, lineId))
    .orderBy(asc(salesOrderLineDevices.deviceId));
  return rows.map((r) => r.id);
}

/**
 * Gives a sub-order its content (salesOrderMaterials): makes its ad (pending review), or
 * edits the ad that failed review (a new round); the order moves from toUpload to paid when
 * every sub-order has its ad.
 */
export async function attachMaterials(input: Req<'salesOrderMaterials'>, ctx: CallContext): Promise<SalesOrder> {
  const db = ctx.db;
  const now = ctx.now;
  const order = await requireOrder(ctx, input.id, { lock: true });
  if (order.state !== 'toUpload' && order.state !== 'paid' && order.state !== 'inProgress') {
    throw new AppError(ErrorCode.SALES_ORDER_STATE, OrderAdText.notAttachable);
  }
  const zone = await enterpriseZone(db, order.entId);
  if (order.endDate < dayIn(now, zone)) {
    throw new AppError(ErrorCode.SALES_ORDER_STATE, OrderAdText.periodOver);
  }
  const [line] = await db
    .select()
    .from(salesOrderLines)
    .where(and(eq(salesOrderLines.orderId, order.id), eq(salesOrderLines.id, input.subOrderId)));
  if (!line) throw new AppError(ErrorCode.NOT_FOUND, OrderAdText.subOrderNotFound);
  const subject = await advertiserSubject(db, order);
  const content = await checkedContent(db, subject, input);
  const name = input.name ?? `${order.no}-${line.position}`;
  const [current] = line.adId ? await db.select().from(ads).where(eq(ads.id, line.adId)).for('update') : [];
  let adId: string;
  let action: 'create' | 'resubmit';
  if (current && current.deletedAt === null) {
    if (current.reviewState !== 'failed') throw new AppError(ErrorCode.SALES_ORDER_STATE, OrderAdText.adUnderReview);
    const [row] = await db
      .update(ads)
      .set({
        name,
        ...content,
        reviewState: 'pending',
        reviewRound: current.reviewRound + 1,
        updatedAt: now,
      })
      .where(eq(ads.id, current.id))
      .returning();
    await pushAdChange(ctx, current, row, 'adChanged');
    adId = row.id;
    action = 'resubmit';
  } else {
    const frame = orderAdFrame(order, line, await lineDeviceIds(db, line.id), zone);
    const [row] = await db
      .insert(ads)
      .values({
        entId: order.entId,
        deptId: subject.deptId,
        ownerId: order.advertiserId,
        name,
        type: 'common',
        source: 'order',
        planId: await ensureDefaultPlan(db, order.entId),
        ...frame,
        ...content,
        createdAt: now,
        updatedAt: now,
      })
      .returning({ id: ads.id });
    await db.update(salesOrderLines).set({ adId: row.id }).where(eq(salesOrderLines.id, line.id));
    adId = row.id;
    action = 'create';
  }
  let state: SalesOrderRow['state'] = order.state;
  if (order.state === 'toUpload') {
    const [missing] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(salesOrderLines)
      .where(and(eq(salesOrderLines.orderId, order.id), isNull(salesOrderLines.adId)));
    if (Number(missing?.n ?? 0) === 0) {
      state = (await moveOrder(db, order.id, 'toUpload', 'paid', ctx.user.accountId, now)).state;
    }
  }
  await ctx.audit({
    module: 'sales',
    action: 'orderMaterials',
    targetType: 'salesOrder',
    targetId: order.id,
    targetName: order.no,
    detail: { subOrder: `${order.no}-${line.position}`, adId, ad: action, state },
  });
  return orderView(ctx, order.id);
}

/**
 * Retires the ads of a cancelled order (soft delete, as ad.delete: they leave the screens at
 * once and cannot be enabled again, so nothing plays that is no longer paid for).
 */
export async function retireOrderAds(ctx: CallContext, orderId: string): Promise<void> {
  const db = ctx.db;
  const rows = await db
    .select({ ad: ads })
    .from(salesOrderLines)
    .innerJoin(ads, eq(ads.id, salesOrderLines.adId))
    .where(and(eq(salesOrderLines.orderId, orderId), isNotNull(salesOrderLines.adId), isNull(ads.deletedAt)))
    .for('update', { of: ads });
  for (const { ad } of rows) {
    await db.update(ads).set({ deletedAt: ctx.now, updatedAt: ctx.now }).where(eq(ads.id, ad.id));
    await pushAdChange(ctx, ad, null, 'adDeleted');
  }
  if (rows.length > 0) {
    await deleteAllocationsOf(
      db,
      rows[0].ad.entId,
      RefType.ad,
      rows.map((r) => r.ad.id),
    );
  }
}
