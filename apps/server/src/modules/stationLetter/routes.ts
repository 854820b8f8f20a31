import { endpoints } from '@marquee/protocol';
import { defineHandler } from '../../protocol/handlers.js';
import { stationLetterList } from './service.js';

export const stationLetterHandlers = [
  defineHandler(endpoints.stationLetterList, { handle: (_input, ctx) => stationLetterList(ctx) }),
];
