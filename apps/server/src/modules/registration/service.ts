import { ErrorCode, type endpoints, type LoginResponse } from '@marquee/protocol';
import type { z } from 'zod';
import { findAccountByTarget, findLoginCandidate } from '../../auth/loginRepository.js';
import { hashPassword } from '../../auth/passwords.js';
import type { Executor } from '../../db/client.js';
import { isUniqueViolation } from '../../db/errors.js';
import { AppError } from '../../protocol/appError.js';
import type { CallContext } from '../../protocol/handlers.js';
import { openSession } from '../auth/service.js';
import { creditCodeTaken } from '../enterprise/repository.js';
import { createEnterpriseWithAdmin } from '../enterprise/service.js';
import { accessMessages } from '../verification/messages.js';
import { checkCode, useCode } from '../verification/service.js';

export type RegisterInput = z.infer<typeof endpoints.register.request>;

interface Checked {
  codeId: string;
  passwordHash: string;
}

/** The conflicts a registration can meet, checked before the code is used and again in the transaction. */
async function checkConflicts(db: Executor, input: RegisterInput): Promise<void> {
  if (await findLoginCandidate(db, input.loginName))
    throw new AppError(ErrorCode.CONFLICT, accessMessages.loginNameTaken);
  if (await creditCodeTaken(db, input.socialCreditCode)) {
    throw new AppError(ErrorCode.CONFLICT, accessMessages.creditCodeTaken);
  }
  if (await findAccountByTarget(db, input.phone)) throw new AppError(ErrorCode.CONFLICT, accessMessages.phoneTaken);
}

/** Outside the transaction: conflicts, the code (attempts count), the password hash. */
export async function checkRegistration(input: RegisterInput, ctx: CallContext): Promise<Checked> {
  await checkConflicts(ctx.services.db, input);
  const codeId = await checkCode(
    { db: ctx.services.db, throttle: ctx.services.throttle, secret: ctx.services.secret },
    { purpose: 'register', target: input.phone, code: input.code, ip: ctx.ip, now: ctx.now },
  );
  return { codeId, passwordHash: await hashPassword(input.password) };
}

/**
 * Company self-registration: an enterprise (kind enterprise), its root department, its
 * built-in administrator role with every enterprise code, and the administrator account;
 * then the new administrator is logged in.
 */
export async function register(input: RegisterInput, ctx: CallContext, checked: Checked): Promise<LoginResponse> {
  try {
    return await createRegistration(input, ctx, checked);
  } catch (error) {
    // Two registrations racing for the same login account or credit code: the unique index decides.
    if (isUniqueViolation(error)) throw new AppError(ErrorCode.CONFLICT, accessMessages.loginNameTaken);
    throw error;
  }
}

async function createRegistration(input: RegisterInput, ctx: CallContext, checked: Checked): Promise<LoginResponse> {
  await checkConflicts(ctx.db, input);
  await useCode(ctx.db, ctx.services.throttle, checked.codeId, input.phone, ctx.now);
  const ent = await createEnterpriseWithAdmin(ctx.db, {
    kind: 'enterprise',
    name: input.companyName,
    socialCreditCode: input.socialCreditCode,
    welcomeSpeech: input.companyName,
    timeZone: ctx.services.config.defaultTimeZone,
    admin: {
      loginName: input.loginName,
      passwordHash: checked.passwordHash,
      realName: input.loginName,
      phone: input.phone,
    },
  });
  return openSession(
    ctx,
    { entId: ent.id, accountId: ent.adminId, loginName: input.loginName },
    { method: 'register', weakPassword: false },
    {
      module: 'registration',
      action: 'register',
      targetType: 'enterprise',
      targetId: ent.id,
      targetName: input.companyName,
      detail: { companyName: input.companyName, accountId: ent.adminId },
    },
  );
}
