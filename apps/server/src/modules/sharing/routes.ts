import { endpoints } from '@marquee/protocol';
import { defineHandler } from '../../protocol/handlers.js';
import { allocation, deptTree, refresh, subAccounts } from './service.js';

export const sharingHandlers = [
  defineHandler(endpoints.permissionSubAccounts, { handle: (_input, ctx) => subAccounts(ctx) }),
  defineHandler(endpoints.permissionDeptTree, { handle: (_input, ctx) => deptTree(ctx) }),
  defineHandler(endpoints.permissionAllocation, { handle: (input, ctx) => allocation(input, ctx) }),
  defineHandler(endpoints.permissionRefresh, { handle: (input, ctx) => refresh(input, ctx) }),
];
