import { endpoints } from '@marquee/protocol';
import { defineHandler } from '../../protocol/handlers.js';
import { createWall, deleteWall, listWalls, updateWall, wallDetail } from './service.js';

export const spliceHandlers = [
  defineHandler(endpoints.spliceList, { handle: (input, ctx) => listWalls(input, ctx) }),
  defineHandler(endpoints.spliceDetail, { handle: (input, ctx) => wallDetail(input, ctx) }),
  defineHandler(endpoints.spliceCreate, { handle: (input, ctx) => createWall(input, ctx) }),
  defineHandler(endpoints.spliceUpdate, { handle: (input, ctx) => updateWall(input, ctx) }),
  defineHandler(endpoints.spliceDelete, { handle: (input, ctx) => deleteWall(input, ctx) }),
];
