import { endpoints } from '@marquee/protocol';
import { defineHandler } from '../../protocol/handlers.js';
import {
  deviceLocation,
  geocodeAddress,
  geocodeFor,
  prepareLocation,
  regionChildren,
  regionStats,
  setDeviceLocation,
} from './service.js';

export const geoHandlers = [
  defineHandler(endpoints.regionChildren, { handle: async (input) => regionChildren(input) }),
  // A query runs outside any transaction: the provider's HTTP call holds no connection.
  defineHandler(endpoints.geoGeocode, {
    handle: async (input, ctx) => geocodeAddress(input, await geocodeFor(input, ctx)),
  }),
  defineHandler(endpoints.deviceLocation, { handle: (input, ctx) => deviceLocation(input, ctx) }),
  defineHandler(endpoints.deviceSetLocation, {
    // A provider's HTTP call must not hold the transaction.
    prepare: (input, ctx) => prepareLocation(input, ctx),
    handle: (input, ctx, geocoded) => setDeviceLocation(input, ctx, geocoded),
  }),
  defineHandler(endpoints.deviceRegionStats, { handle: (input, ctx) => regionStats(input, ctx) }),
];
