import { endpoints } from '@marquee/protocol';
import type { LoginCandidate } from '../../auth/loginRepository.js';
import { defineHandler } from '../../protocol/handlers.js';
import {
  changeEnterprise,
  checkCodeLogin,
  checkLogin,
  checkResetPassword,
  codeLogin,
  enterpriseOptions,
  info,
  login,
  logout,
  resetPassword,
} from './service.js';

export const authHandlers = [
  defineHandler<typeof endpoints.login, LoginCandidate>(endpoints.login, {
    prepare: (input, ctx) => checkLogin(input, ctx),
    handle: (input, ctx, account) => login(input, ctx, account),
  }),
  defineHandler(endpoints.logout, { handle: async (_input, ctx) => logout(ctx) }),
  defineHandler(endpoints.authInfo, { handle: async (_input, ctx) => info(ctx) }),
  defineHandler(endpoints.enterpriseOptions, { handle: async (_input, ctx) => enterpriseOptions(ctx) }),
  defineHandler(endpoints.changeEnterprise, { handle: (input, ctx) => changeEnterprise(input, ctx) }),
  defineHandler(endpoints.codeLogin, {
    prepare: (input, ctx) => checkCodeLogin(input, ctx),
    handle: (input, ctx, checked) => codeLogin(input, ctx, checked),
  }),
  defineHandler(endpoints.passwordReset, {
    prepare: (input, ctx) => checkResetPassword(input, ctx),
    handle: (input, ctx, checked) => resetPassword(input, ctx, checked),
  }),
];
