import { endpoints } from '@marquee/protocol';
import { defineHandler } from '../../protocol/handlers.js';
import { applyVoucher, confirmOffline, listOffline, rejectOffline, submitOffline } from './offline.js';
import { closePayment, createBill, listOrders, payByBalance, paymentInfo, recharge } from './service.js';

/** The payments module's endpoints but the providers' (start, query, providers: providerRoutes.ts). */
export const paymentHandlers = [
  defineHandler(endpoints.paymentRecharge, { handle: (input, ctx) => recharge(input, ctx) }),
  defineHandler(endpoints.paymentBillCreate, { handle: (input, ctx) => createBill(input, ctx) }),
  defineHandler(endpoints.paymentInfo, { handle: (input, ctx) => paymentInfo(input, ctx) }),
  defineHandler(endpoints.paymentList, { handle: (input, ctx) => listOrders(input, ctx) }),
  defineHandler(endpoints.paymentPayBalance, { handle: (input, ctx) => payByBalance(input, ctx) }),
  defineHandler(endpoints.paymentClose, { handle: (input, ctx) => closePayment(input, ctx) }),
  defineHandler(endpoints.paymentVoucherApply, { handle: (input, ctx) => applyVoucher(input, ctx) }),
  defineHandler(endpoints.paymentOfflineSubmit, { handle: (input, ctx) => submitOffline(input, ctx) }),
  defineHandler(endpoints.paymentOfflineList, { handle: (input, ctx) => listOffline(input, ctx) }),
  defineHandler(endpoints.paymentOfflineConfirm, { handle: (input, ctx) => confirmOffline(input, ctx) }),
  defineHandler(endpoints.paymentOfflineReject, { handle: (input, ctx) => rejectOffline(input, ctx) }),
];
