import { endpoints } from '@marquee/protocol';
import { defineHandler } from '../../protocol/handlers.js';
import type { LoginCandidate } from './repository.js';
import { checkLogin, info, login, logout } from './service.js';

export const authHandlers = [
  defineHandler<typeof endpoints.login, LoginCandidate>(endpoints.login, {
    prepare: (input, ctx) => checkLogin(input, ctx),
    handle: (input, ctx, account) => login(input, ctx, account),
  }),
  defineHandler(endpoints.logout, { handle: async (_input, ctx) => logout(ctx) }),
  defineHandler(endpoints.authInfo, { handle: async (_input, ctx) => info(ctx) }),
];
