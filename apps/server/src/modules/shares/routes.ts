import { endpoints } from '@marquee/protocol';
import { defineHandler } from '../../protocol/handlers.js';
import { shareQuotes } from './service.js';

export const sharesHandlers = [
  defineHandler(endpoints.sharesQuotes, { handle: (input, ctx) => shareQuotes(ctx.services, input.symbols) }),
];
