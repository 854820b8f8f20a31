import { endpoints } from '@marquee/protocol';
import { defineHandler } from '../../protocol/handlers.js';
import { devicePlan, devicePlaylist, sortPlaylist } from './playlist.js';
import { broadcastAd, listPushes, pushDevices, repushAd } from './pushes.js';

export const schedulingHandlers = [
  defineHandler(endpoints.adBroadcast, { handle: (input, ctx) => broadcastAd(input, ctx) }),
  defineHandler(endpoints.adRepush, { handle: (input, ctx) => repushAd(input, ctx) }),
  defineHandler(endpoints.pushList, { handle: (input, ctx) => listPushes(input, ctx) }),
  defineHandler(endpoints.pushDevices, { handle: (input, ctx) => pushDevices(input, ctx) }),
  defineHandler(endpoints.devicePlaylist, { handle: (input, ctx) => devicePlaylist(input, ctx) }),
  defineHandler(endpoints.devicePlaylistSort, { handle: (input, ctx) => sortPlaylist(input, ctx) }),
  defineHandler(endpoints.devicePlan, { handle: (input, ctx) => devicePlan(input, ctx) }),
];
