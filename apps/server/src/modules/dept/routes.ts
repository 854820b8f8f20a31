import { endpoints } from '@marquee/protocol';
import { defineHandler } from '../../protocol/handlers.js';
import { deptChange, deptUserList } from './service.js';

export const deptHandlers = [
  defineHandler(endpoints.deptUserList, { handle: (_input, ctx) => deptUserList(ctx) }),
  defineHandler(endpoints.deptChange, { handle: (input, ctx) => deptChange(input, ctx) }),
];
