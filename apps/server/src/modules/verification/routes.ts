import { ErrorCode, endpoints } from '@marquee/protocol';
import { findAccountByTarget } from '../../auth/loginRepository.js';
import { AppError } from '../../protocol/appError.js';
import { defineHandler } from '../../protocol/handlers.js';
import { accessMessages } from './messages.js';
import { listOutbox } from './repository.js';
import { codeDeps, issueCode } from './service.js';

export const verificationHandlers = [
  defineHandler(endpoints.codeSend, {
    // Not a catalogue mutation: a code is security bookkeeping with no tenant yet (a
    // registration has none), so it writes no operation-log row; it runs its own transaction.
    handle: async (input, ctx) => {
      const account = await findAccountByTarget(ctx.services.db, input.target);
      if (input.purpose === 'register' && account) throw new AppError(ErrorCode.CONFLICT, accessMessages.phoneTaken);
      if (input.purpose !== 'register' && !account) throw new AppError(ErrorCode.NOT_REGISTERED);
      return issueCode(codeDeps(ctx), {
        purpose: input.purpose,
        target: input.target,
        ip: ctx.ip,
        now: ctx.now,
        language: ctx.language,
      });
    },
  }),
  defineHandler(endpoints.outboxList, {
    handle: async (input, ctx) => {
      // The permission is provider-only by seed; the check keeps it so if a role is misconfigured.
      if (ctx.user.entKind !== 'provider') throw new AppError(ErrorCode.NO_PERMISSION);
      const { total, rows } = await listOutbox(ctx.db, input);
      return {
        total,
        data: rows.map((row) => ({
          id: row.id,
          channel: row.channel,
          target: row.target,
          purpose: row.purpose,
          code: row.code,
          text: row.text,
          createdAt: row.createdAt.toISOString(),
        })),
      };
    },
  }),
];
