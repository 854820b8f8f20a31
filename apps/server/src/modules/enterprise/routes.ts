import { endpoints } from '@marquee/protocol';
import { hashPassword } from '../../auth/passwords.js';
import { defineHandler } from '../../protocol/handlers.js';
import { enterpriseAdd, enterpriseDetail, enterpriseList, enterpriseSetStatus, enterpriseUpdate } from './service.js';

export const enterpriseHandlers = [
  defineHandler(endpoints.enterpriseList, { handle: (input, ctx) => enterpriseList(input, ctx) }),
  defineHandler(endpoints.enterpriseDetail, { handle: (input, ctx) => enterpriseDetail(input, ctx) }),
  defineHandler<typeof endpoints.enterpriseAdd, string>(endpoints.enterpriseAdd, {
    prepare: (input) => hashPassword(input.admin.password),
    handle: (input, ctx, hash) => enterpriseAdd(input, ctx, hash),
  }),
  defineHandler(endpoints.enterpriseUpdate, { handle: (input, ctx) => enterpriseUpdate(input, ctx) }),
  defineHandler(endpoints.enterpriseSetStatus, { handle: (input, ctx) => enterpriseSetStatus(input, ctx) }),
];
