import { endpoints } from '@marquee/protocol';
import { defineHandler } from '../../protocol/handlers.js';
import { bindScan, pollScan, scanLogin, startScan, unbind } from './service.js';

export const oauthHandlers = [
  defineHandler(endpoints.oauthProviders, {
    handle: async (_input, ctx) => ({
      wechat: ctx.services.config.oauth.wechat !== null,
      dingtalk: ctx.services.config.oauth.dingtalk !== null,
    }),
  }),
  // Starting and polling a scan only keep a state row (no tenant yet): no operation-log row.
  defineHandler(endpoints.oauthStart, { handle: (input, ctx) => startScan(ctx, input.provider, null) }),
  defineHandler(endpoints.oauthPoll, { handle: (input, ctx) => pollScan(ctx, input.state) }),
  defineHandler(endpoints.oauthLogin, { handle: (input, ctx) => scanLogin(ctx, input.state) }),
  defineHandler(endpoints.oauthBindStart, {
    handle: (input, ctx) => startScan(ctx, input.provider, { entId: ctx.user.entId, accountId: ctx.user.accountId }),
  }),
  defineHandler(endpoints.oauthBind, { handle: (input, ctx) => bindScan(ctx, input.state) }),
  defineHandler(endpoints.oauthUnbind, { handle: (input, ctx) => unbind(ctx, input.provider) }),
];
