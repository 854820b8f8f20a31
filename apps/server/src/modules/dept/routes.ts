import { endpoints } from '@marquee/protocol';
import { defineHandler } from '../../protocol/handlers.js';
import { deptAdd, deptDelete, deptMove, deptSubList, deptTree, deptUpdate } from './manage.js';
import { deptChange, deptUserList } from './service.js';

export const deptHandlers = [
  defineHandler(endpoints.deptUserList, { handle: (_input, ctx) => deptUserList(ctx) }),
  defineHandler(endpoints.deptChange, { handle: (input, ctx) => deptChange(input, ctx) }),
  defineHandler(endpoints.deptTree, { handle: (_input, ctx) => deptTree(ctx) }),
  defineHandler(endpoints.deptSubList, { handle: (input, ctx) => deptSubList(input, ctx) }),
  defineHandler(endpoints.deptAdd, { handle: (input, ctx) => deptAdd(input, ctx) }),
  defineHandler(endpoints.deptUpdate, { handle: (input, ctx) => deptUpdate(input, ctx) }),
  defineHandler(endpoints.deptMove, { handle: (input, ctx) => deptMove(input, ctx) }),
  defineHandler(endpoints.deptDelete, { handle: (input, ctx) => deptDelete(input, ctx) }),
];
