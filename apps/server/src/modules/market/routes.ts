import { endpoints } from '@marquee/protocol';
import { defineHandler } from '../../protocol/handlers.js';
import './effects.js';
import './letters.js';
import { deviceOptions, itemAutoRenew, itemList, orderList, renewalList, storage } from './lists.js';
import {
  orderCancel,
  orderCreate,
  orderInfo,
  productInfo,
  productList,
  productSave,
  productShelf,
  quote,
} from './service.js';

/** The market's endpoints (issue 27). Importing this module registers the 'market' payable and its letters. */
export const marketHandlers = [
  defineHandler(endpoints.marketProductList, { handle: (input, ctx) => productList(input, ctx) }),
  defineHandler(endpoints.marketProductInfo, { handle: (input, ctx) => productInfo(input, ctx) }),
  defineHandler(endpoints.marketProductSave, { handle: (input, ctx) => productSave(input, ctx) }),
  defineHandler(endpoints.marketProductShelf, { handle: (input, ctx) => productShelf(input, ctx) }),
  defineHandler(endpoints.marketDeviceOptions, { handle: (input, ctx) => deviceOptions(input, ctx) }),
  defineHandler(endpoints.marketQuote, { handle: (input, ctx) => quote(input, ctx) }),
  defineHandler(endpoints.marketOrderCreate, { handle: (input, ctx) => orderCreate(input, ctx) }),
  defineHandler(endpoints.marketOrderList, { handle: (input, ctx) => orderList(input, ctx) }),
  defineHandler(endpoints.marketOrderInfo, { handle: (input, ctx) => orderInfo(input, ctx) }),
  defineHandler(endpoints.marketOrderCancel, { handle: (input, ctx) => orderCancel(input, ctx) }),
  defineHandler(endpoints.marketItemList, { handle: (input, ctx) => itemList(input, ctx) }),
  defineHandler(endpoints.marketItemAutoRenew, { handle: (input, ctx) => itemAutoRenew(input, ctx) }),
  defineHandler(endpoints.marketRenewalList, { handle: (input, ctx) => renewalList(input, ctx) }),
  defineHandler(endpoints.marketStorage, { handle: (_input, ctx) => storage(ctx) }),
];
