import { endpoints } from '@marquee/protocol';
import { defineHandler } from '../../protocol/handlers.js';
import * as s from './service.js';

export const feedbackHandlers = [
  defineHandler(endpoints.feedbackShotApply, { handle: (input, ctx) => s.shotApply(input, ctx) }),
  defineHandler(endpoints.feedbackSubmit, { handle: (input, ctx) => s.submit(input, ctx) }),
  defineHandler(endpoints.feedbackMine, { handle: (input, ctx) => s.list(input, ctx, 'mine') }),
  defineHandler(endpoints.feedbackInfo, { handle: (input, ctx) => s.info(input, ctx, 'mine') }),
  defineHandler(endpoints.feedbackClose, { handle: (input, ctx) => s.close(input, ctx, 'mine') }),
  defineHandler(endpoints.feedbackManageList, { handle: (input, ctx) => s.list(input, ctx, 'all') }),
  defineHandler(endpoints.feedbackManageInfo, { handle: (input, ctx) => s.info(input, ctx, 'all') }),
  defineHandler(endpoints.feedbackReply, { handle: (input, ctx) => s.reply(input, ctx) }),
  defineHandler(endpoints.feedbackManageClose, { handle: (input, ctx) => s.close(input, ctx, 'all') }),
];
