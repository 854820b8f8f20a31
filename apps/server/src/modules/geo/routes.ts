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
  defineHandler(endpoints.geoGeocode, {
    prepare: (input, ctx) => geocodeFor(input, ctx),
    handle: async (input, _ctx, geocoded) => geocodeAddress(input, geocoded),
  }),
  defineHandler(endpoints.deviceLocation, { handle: (input, ctx) => deviceLocation(input, ctx) }),
  defineHandler(endpoints.deviceSetLocation, {
    // A provider's HTTP call must not hold the transaction.
    prepare: (input, ctx) => prepareLocation(input, ctx),
    handle: (input, ctx, geocoded) => setDeviceLocation(input, ctx, geocoded),
  }),
  defineHandler(endpoints.deviceRegionStats, { handle: (input, ctx) => regionStats(input, ctx) }),
];
