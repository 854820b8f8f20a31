import { endpoints } from '@marquee/protocol';
import { defineHandler } from '../../protocol/handlers.js';
import { gatherAudience, gatherList } from './service.js';

export const gatherHandlers = [
  defineHandler(endpoints.gatherList, { handle: (input, ctx) => gatherList(input, ctx) }),
  defineHandler(endpoints.gatherAudience, { handle: (input, ctx) => gatherAudience(input, ctx) }),
];
