import { endpoints } from '@marquee/protocol';
import { defineHandler, type Handler } from '../../protocol/handlers.js';
import { deviceWatermarkInfo, deviceWatermarkSave, groupWatermarkInfo, groupWatermarkSave } from './service.js';

export const watermarkHandlers = [
  defineHandler(endpoints.deviceWatermarkInfo, { handle: (input, ctx) => deviceWatermarkInfo(input, ctx) }),
  defineHandler(endpoints.deviceWatermarkSave, { handle: (input, ctx) => deviceWatermarkSave(input, ctx) }),
  defineHandler(endpoints.deviceGroupWatermarkInfo, { handle: (input, ctx) => groupWatermarkInfo(input, ctx) }),
  defineHandler(endpoints.deviceGroupWatermarkSave, { handle: (input, ctx) => groupWatermarkSave(input, ctx) }),
] as Handler[];
