import { endpoints } from '@marquee/protocol';
import { defineHandler, type Handler } from '../../protocol/handlers.js';
import { attachMaterials } from './orderAds.js';
import { orderExportDownload, orderExportStatus, startOrderExport } from './orderExport.js';
import { advertiserOptions, listOrders, orderInfo } from './orderQueries.js';
import { cancelOrder, createOrder, payOrder, quote } from './orders.js';

/**
 * The order endpoints of the sales module (issue 28): the advertisers one may order for, a
 * quote, placing, paying and cancelling an order, giving its sub-orders their materials, the
 * list, one order, and the list's export. Importing it registers the 'salesOrders' export.
 */
export const orderHandlers: Handler[] = [
  defineHandler(endpoints.salesAdvertiserOptions, { handle: (input, ctx) => advertiserOptions(input, ctx) }),
  defineHandler(endpoints.salesQuote, { handle: (input, ctx) => quote(input, ctx) }),
  defineHandler(endpoints.salesOrderCreate, { handle: (input, ctx) => createOrder(input, ctx) }),
  defineHandler(endpoints.salesOrderPay, { handle: (input, ctx) => payOrder(input, ctx) }),
  defineHandler(endpoints.salesOrderCancel, { handle: (input, ctx) => cancelOrder(input, ctx) }),
  defineHandler(endpoints.salesOrderMaterials, { handle: (input, ctx) => attachMaterials(input, ctx) }),
  defineHandler(endpoints.salesOrderList, { handle: (input, ctx) => listOrders(input, ctx) }),
  defineHandler(endpoints.salesOrderInfo, { handle: (input, ctx) => orderInfo(input, ctx) }),
  defineHandler(endpoints.salesOrderExportStart, { handle: (input, ctx) => startOrderExport(input, ctx) }),
  defineHandler(endpoints.salesOrderExportStatus, { handle: (input, ctx) => orderExportStatus(input, ctx) }),
  defineHandler(endpoints.salesOrderExportDownload, { handle: (input, ctx) => orderExportDownload(input, ctx) }),
] as Handler[];
