import { endpoints } from '@marquee/protocol';
import { defineHandler } from '../../protocol/handlers.js';
import { monitorApply, noticeList } from './service.js';

export const noticeHandlers = [
  defineHandler(endpoints.noticeList, { handle: (input, ctx) => noticeList(input, ctx) }),
  defineHandler(endpoints.monitorApply, { handle: (input, ctx) => monitorApply(input, ctx) }),
];
