import { endpoints } from '@marquee/protocol';
import { defineHandler } from '../../protocol/handlers.js';
import { permissionTree } from './permissionTree.js';
import { roleAdd, roleDelete, roleDetail, roleList, roleOptions, roleUpdate } from './service.js';

export const roleHandlers = [
  defineHandler(endpoints.roleList, { handle: (input, ctx) => roleList(input, ctx) }),
  defineHandler(endpoints.roleDetail, { handle: (input, ctx) => roleDetail(input, ctx) }),
  defineHandler(endpoints.roleAdd, { handle: (input, ctx) => roleAdd(input, ctx) }),
  defineHandler(endpoints.roleUpdate, { handle: (input, ctx) => roleUpdate(input, ctx) }),
  defineHandler(endpoints.roleDelete, { handle: (input, ctx) => roleDelete(input, ctx) }),
  defineHandler(endpoints.roleOptions, { handle: (_input, ctx) => roleOptions(ctx) }),
  defineHandler(endpoints.rolePermissionTree, { handle: async () => permissionTree() }),
];
