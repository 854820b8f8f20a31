import { ErrorCode, type UserInfo } from '@marquee/protocol';
import { loadPrincipal } from '../../auth/principal.js';
import { AppError } from '../../protocol/appError.js';
import type { CallContext } from '../../protocol/handlers.js';
import { toUserInfo } from '../auth/presenter.js';
import { toDeptOption } from './presenter.js';
import { accountDepartment, listAccountDepartments, setCurrentDepartment } from './repository.js';

/** The caller's departments, for the header's department switch. */
export async function deptUserList(ctx: CallContext) {
  const rows = await listAccountDepartments(ctx.db, ctx.user.entId, ctx.user.accountId);
  return rows.map(toDeptOption);
}

/**
 * Switches the caller's current department to one of their departments (NOT_FOUND
 * otherwise; switching to the current one changes nothing). Every session of the account
 * picks the new department up once this commits.
 */
export async function deptChange(input: { deptId: string }, ctx: CallContext): Promise<UserInfo> {
  const user = ctx.user;
  const dept = await accountDepartment(ctx.db, user.entId, user.accountId, input.deptId);
  if (!dept) throw new AppError(ErrorCode.NOT_FOUND);
  const changed = input.deptId !== user.deptId;
  if (changed) await setCurrentDepartment(ctx.db, user.entId, user.accountId, input.deptId, ctx.now);
  await ctx.audit({
    module: 'dept',
    action: 'change',
    targetType: 'department',
    targetId: input.deptId,
    targetName: dept.name,
    detail: { from: user.deptId, to: input.deptId, changed },
  });
  if (!changed) return toUserInfo(user);
  const principal = await loadPrincipal(ctx.db, user.entId, user.accountId, user);
  if (!principal) throw new Error('account vanished during department change');
  ctx.afterCommit(() => ctx.services.sessions.cache.invalidateAccount(user.accountId));
  return toUserInfo(principal);
}
