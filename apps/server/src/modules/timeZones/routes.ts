import { endpoints } from '@marquee/protocol';
import { defineHandler } from '../../protocol/handlers.js';
import { listTimeZones } from './service.js';

export const timeZoneHandlers = [
  defineHandler(endpoints.timeZoneList, { handle: (_input, ctx) => listTimeZones(ctx) }),
];
