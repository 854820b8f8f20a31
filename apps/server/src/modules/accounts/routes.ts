import { endpoints } from '@marquee/protocol';
import { hashPassword } from '../../auth/passwords.js';
import { defineHandler } from '../../protocol/handlers.js';
import { invitationAccept, invitationCreate, invitationInspect } from './invitation.js';
import {
  accountAdd,
  accountBatchDepts,
  accountBatchRoles,
  accountDelete,
  accountDetail,
  accountList,
  accountResetPassword,
  accountSetStatus,
  accountUpdate,
} from './manage.js';

// Password hashing and the signing secret are prepared outside the transaction.
export const accountHandlers = [
  defineHandler(endpoints.accountList, { handle: (input, ctx) => accountList(input, ctx) }),
  defineHandler(endpoints.accountDetail, { handle: (input, ctx) => accountDetail(input, ctx) }),
  defineHandler<typeof endpoints.accountAdd, string>(endpoints.accountAdd, {
    prepare: (input) => hashPassword(input.password),
    handle: (input, ctx, hash) => accountAdd(input, ctx, hash),
  }),
  defineHandler(endpoints.accountUpdate, { handle: (input, ctx) => accountUpdate(input, ctx) }),
  defineHandler(endpoints.accountSetStatus, { handle: (input, ctx) => accountSetStatus(input, ctx) }),
  defineHandler<typeof endpoints.accountResetPassword, string>(endpoints.accountResetPassword, {
    prepare: (input) => hashPassword(input.password),
    handle: (input, ctx, hash) => accountResetPassword(input, ctx, hash),
  }),
  defineHandler(endpoints.accountDelete, { handle: (input, ctx) => accountDelete(input, ctx) }),
  defineHandler(endpoints.accountBatchRoles, { handle: (input, ctx) => accountBatchRoles(input, ctx) }),
  defineHandler(endpoints.accountBatchDepts, { handle: (input, ctx) => accountBatchDepts(input, ctx) }),
  defineHandler(endpoints.invitationCreate, { handle: (input, ctx) => invitationCreate(input, ctx) }),
  defineHandler(endpoints.invitationInspect, { handle: (input, ctx) => invitationInspect(input, ctx) }),
  defineHandler<typeof endpoints.invitationAccept, string>(endpoints.invitationAccept, {
    prepare: (input) => hashPassword(input.password),
    handle: (input, ctx, passwordHash) => invitationAccept(input, ctx, passwordHash),
  }),
];
