import { endpoints } from '@marquee/protocol';
import { defineHandler } from '../../protocol/handlers.js';
import { prepareLocation } from '../geo/service.js';
import { addStore, assignDevices, deleteStore, listVisibleStores, updateStore } from './service.js';

export const storeHandlers = [
  defineHandler(endpoints.storeList, { handle: (input, ctx) => listVisibleStores(input, ctx) }),
  defineHandler(endpoints.storeAdd, {
    // Geocoding (a provider's HTTP call) runs before the transaction opens.
    prepare: (input, ctx) => prepareLocation(input, ctx),
    handle: (input, ctx, geocoded) => addStore(input, ctx, geocoded),
  }),
  defineHandler(endpoints.storeUpdate, {
    prepare: (input, ctx) => prepareLocation(input, ctx),
    handle: (input, ctx, geocoded) => updateStore(input, ctx, geocoded),
  }),
  defineHandler(endpoints.storeDelete, { handle: (input, ctx) => deleteStore(input, ctx) }),
  defineHandler(endpoints.storeAssignDevices, { handle: (input, ctx) => assignDevices(input, ctx) }),
];
