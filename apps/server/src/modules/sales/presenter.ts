import {
  type Coupon,
  couponState,
  DEFAULT_VENUE_TYPE,
  type Goods,
  goodsState,
  hoursOfMask,
  OPENOOH_VENUE_TYPES,
  type OpenoohVenueType,
  type PriceContract,
  type Slot,
  wallClock,
} from '@marquee/protocol';
import type {
  AdSlotRow,
  SalesCouponRow,
  SalesGoodsLineRow,
  SalesGoodsRow,
  SalesPriceContractRow,
} from '../../db/schema/index.js';

/** The sales inventory's rows as the protocol shows them (issue 28). */

export function presentSlot(
  row: AdSlotRow,
  extra: {
    screens: number;
    longOfflineScreens: number;
    inUse: boolean;
    layoutName: string | null;
    fallbackAdName: string | null;
  },
): Slot {
  return {
    id: row.id,
    number: row.number,
    name: row.name,
    screenSize: row.screenSize,
    width: row.width,
    height: row.height,
    durationSec: row.durationSec,
    salesMethod: row.salesMethod,
    cptPrice: row.cptPrice,
    cpmPrice: row.cpmPrice,
    maxRotations: row.maxRotations,
    rtbEnabled: row.rtbEnabled,
    rtbFloor: row.rtbFloor,
    rtbFallbackAdId: row.rtbFallbackAdId,
    rtbFallbackAdName: extra.fallbackAdName,
    venueType: (OPENOOH_VENUE_TYPES as readonly string[]).includes(row.venueType)
      ? (row.venueType as OpenoohVenueType)
      : DEFAULT_VENUE_TYPE,
    targets: {
      deviceIds: row.targets.deviceIds ?? [],
      groupIds: row.targets.groupIds ?? [],
      tagIds: row.targets.tagIds ?? [],
      spliceIds: row.targets.spliceIds ?? [],
    },
    layoutId: row.layoutId,
    layoutName: extra.layoutName,
    regionId: row.regionId,
    screens: extra.screens,
    longOfflineScreens: extra.longOfflineScreens,
    inUse: extra.inUse,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The slot's unit price for its method (fen), or null. */
export const slotUnitPrice = (row: Pick<AdSlotRow, 'salesMethod' | 'cptPrice' | 'cpmPrice'>) =>
  row.salesMethod === 'cpt' ? row.cptPrice : row.cpmPrice;

export function presentGoods(
  row: SalesGoodsRow,
  lines: { line: SalesGoodsLineRow; slot: AdSlotRow; screens: number }[],
  orders: number,
  now: Date,
  zone: string,
): Goods {
  return {
    id: row.id,
    number: row.number,
    name: row.name,
    description: row.description,
    kind: row.kind,
    state: goodsState(row, now, zone),
    startDate: row.startDate,
    endDate: row.endDate,
    hours: hoursOfMask(row.hoursMask),
    lines: [...lines]
      .sort((a, b) => a.line.position - b.line.position)
      .map(({ line, slot, screens }) => ({
        id: line.id,
        slotId: slot.id,
        slotName: slot.name,
        salesMethod: slot.salesMethod,
        durationSec: slot.durationSec,
        maxRotations: slot.maxRotations,
        deviceIds: line.deviceIds,
        screens,
        unitPrice: line.unitPrice,
      })),
    orders,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function presentPriceContract(
  row: SalesPriceContractRow,
  extra: {
    advertiserName: string;
    slotNames: ReadonlyMap<string, string>;
    contract: { id: string; state: 'signing' | 'signed' } | null;
  },
  now: Date,
  zone: string,
): PriceContract {
  const today = wallClock(now, zone).day;
  return {
    id: row.id,
    number: row.number,
    name: row.name,
    advertiserId: row.advertiserId,
    advertiserName: extra.advertiserName,
    discount: row.discountPct / 100,
    slotPrices: row.slotPrices.map((p) => ({
      slotId: p.slotId,
      slotName: extra.slotNames.get(p.slotId) ?? '',
      unitPrice: p.unitPrice,
    })),
    validFrom: row.validFrom,
    validTo: row.validTo,
    enabled: row.enabled,
    active: row.enabled && row.validFrom <= today && today <= row.validTo,
    contractId: extra.contract?.id ?? null,
    contractState: extra.contract?.state ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

export function presentCoupon(
  row: SalesCouponRow,
  goodsNames: ReadonlyMap<string, string>,
  now: Date,
  zone: string,
): Coupon {
  return {
    id: row.id,
    name: row.name,
    discount: row.discountPct / 100,
    limit: row.useLimit,
    used: row.used,
    validFrom: row.validFrom,
    validTo: row.validTo,
    goodsIds: row.goodsIds,
    goodsNames: row.goodsIds.map((id) => goodsNames.get(id) ?? ''),
    enabled: row.enabled,
    state: couponState({ ...row, limit: row.useLimit }, now, zone),
    createdAt: row.createdAt.toISOString(),
  };
}
