import { endpoints } from '@marquee/protocol';
import { defineHandler } from '../../protocol/handlers.js';
import { homeStats } from './service.js';

export const homeHandlers = [defineHandler(endpoints.homeStats, { handle: (input, ctx) => homeStats(input, ctx) })];
