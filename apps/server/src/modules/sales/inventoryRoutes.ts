import { daysInclusive, ErrorCode, endpoints, hoursMask, ORDER_DAYS_MAX } from '@marquee/protocol';
import { AppError } from '../../protocol/appError.js';
import { defineHandler, type Handler } from '../../protocol/handlers.js';
import { ALL_HOURS_MASK, computeAvailability } from './availability.js';
import { couponEnable, couponList, couponOptions, couponSave, couponUses } from './coupons.js';
import { goodsDelete, goodsInfo, goodsList, goodsSave, goodsShelf } from './goods.js';
import { slotScreens } from './inventory.js';
import { priceContractDelete, priceContractList, priceContractSave } from './priceContracts.js';
import { settingsInfo, settingsSave } from './settings.js';
import {
  requireSlot,
  slotDelete,
  slotDevices,
  slotInfo,
  slotList,
  slotOptions,
  slotRegions,
  slotRtb,
  slotSave,
} from './slots.js';
import { InventoryText } from './texts.js';

/** The inventory endpoints of the sales module (issue 28): slots, goods, availability, price contracts, coupons, settings. */
export const inventoryHandlers: Handler[] = [
  defineHandler(endpoints.salesSlotList, { handle: (input, ctx) => slotList(input, ctx) }),
  defineHandler(endpoints.salesSlotInfo, { handle: (input, ctx) => slotInfo(input, ctx) }),
  defineHandler(endpoints.salesSlotSave, { handle: (input, ctx) => slotSave(input, ctx) }),
  defineHandler(endpoints.salesSlotDelete, { handle: (input, ctx) => slotDelete(input, ctx) }),
  defineHandler(endpoints.salesSlotRtb, { handle: (input, ctx) => slotRtb(input, ctx) }),
  defineHandler(endpoints.salesSlotOptions, { handle: (input, ctx) => slotOptions(input, ctx) }),
  defineHandler(endpoints.salesSlotRegions, { handle: (input, ctx) => slotRegions(input, ctx) }),
  defineHandler(endpoints.salesSlotDevices, { handle: (input, ctx) => slotDevices(input, ctx) }),
  defineHandler(endpoints.salesGoodsList, { handle: (input, ctx) => goodsList(input, ctx) }),
  defineHandler(endpoints.salesGoodsInfo, { handle: (input, ctx) => goodsInfo(input, ctx) }),
  defineHandler(endpoints.salesGoodsSave, { handle: (input, ctx) => goodsSave(input, ctx) }),
  defineHandler(endpoints.salesGoodsShelf, { handle: (input, ctx) => goodsShelf(input, ctx) }),
  defineHandler(endpoints.salesGoodsDelete, { handle: (input, ctx) => goodsDelete(input, ctx) }),
  defineHandler(endpoints.salesAvailability, {
    handle: async (input, ctx) => {
      if (daysInclusive(input.startDate, input.endDate) > ORDER_DAYS_MAX) {
        throw new AppError(ErrorCode.INVALID_PARAMS, InventoryText.goodsPeriodTooLong);
      }
      const slot = await requireSlot(ctx, input.slotId);
      let screens = await slotScreens(ctx.db, slot, ctx.now);
      if (input.deviceIds.length > 0) {
        // A read of what the slot reaches now: a screen it no longer reaches (left its group,
        // say, after goods named it) has no availability and is left out; quote and create
        // refuse an order naming it.
        const asked = new Set(input.deviceIds);
        screens = screens.filter((s) => asked.has(s.id));
      }
      return computeAvailability(
        ctx.db,
        slot,
        screens,
        {
          startDate: input.startDate,
          endDate: input.endDate,
          hoursMask: input.hours.length === 0 ? ALL_HOURS_MASK : hoursMask(input.hours),
          granularity: input.granularity,
          page: input.page,
          size: input.size,
          excludeOrderId: input.excludeOrderId,
        },
        ctx.now,
      );
    },
  }),
  defineHandler(endpoints.salesPriceContractList, { handle: (input, ctx) => priceContractList(input, ctx) }),
  defineHandler(endpoints.salesPriceContractSave, { handle: (input, ctx) => priceContractSave(input, ctx) }),
  defineHandler(endpoints.salesPriceContractDelete, { handle: (input, ctx) => priceContractDelete(input, ctx) }),
  defineHandler(endpoints.salesCouponList, { handle: (input, ctx) => couponList(input, ctx) }),
  defineHandler(endpoints.salesCouponSave, { handle: (input, ctx) => couponSave(input, ctx) }),
  defineHandler(endpoints.salesCouponEnable, { handle: (input, ctx) => couponEnable(input, ctx) }),
  defineHandler(endpoints.salesCouponUses, { handle: (input, ctx) => couponUses(input, ctx) }),
  defineHandler(endpoints.salesCouponOptions, { handle: (input, ctx) => couponOptions(input, ctx) }),
  defineHandler(endpoints.salesSettings, { handle: (_input, ctx) => settingsInfo(ctx) }),
  defineHandler(endpoints.salesSettingsSave, { handle: (input, ctx) => settingsSave(input, ctx) }),
];
