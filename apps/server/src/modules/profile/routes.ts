import { endpoints } from '@marquee/protocol';
import { defineHandler } from '../../protocol/handlers.js';
import {
  bindPhone,
  changePassword,
  checkChangePassword,
  checkPhoneCode,
  loadProfile,
  sendPhoneCode,
  updateProfile,
} from './service.js';

export const profileHandlers = [
  defineHandler(endpoints.profileGet, { handle: (_input, ctx) => loadProfile(ctx.db, ctx) }),
  defineHandler(endpoints.profileUpdate, { handle: (input, ctx) => updateProfile(ctx, input) }),
  defineHandler(endpoints.profilePhoneCode, { handle: (input, ctx) => sendPhoneCode(ctx, input.phone) }),
  defineHandler(endpoints.profileBindPhone, {
    prepare: (input, ctx) => checkPhoneCode(ctx, input),
    handle: (input, ctx, codeId) => bindPhone(ctx, input, codeId),
  }),
  defineHandler(endpoints.changePassword, {
    prepare: (input, ctx) => checkChangePassword(ctx, input),
    handle: (_input, ctx, passwordHash) => changePassword(ctx, passwordHash),
  }),
];
