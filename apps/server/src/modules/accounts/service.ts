import { hashPassword } from '../../auth/passwords.js';
import type { SessionService } from '../../auth/sessions.js';
import type { Executor } from '../../db/client.js';
import type { AccountStatus, AccountType } from '../../db/schema/index.js';
import { addAccountDepartments, addAccountRoles, insertAccount, updateAccountStatus } from './repository.js';

export interface NewAccount {
  entId: string;
  loginName: string;
  password: string;
  /** A precomputed argon2id hash of `password` (tests reuse one to save time). */
  passwordHash?: string;
  realName?: string;
  phone?: string | null;
  email?: string | null;
  status?: AccountStatus;
  accountType?: AccountType;
  isEntAdmin?: boolean;
  thirdMonitor?: boolean;
  updatePwd?: boolean;
  /** Departments the account belongs to; the first becomes the current one. */
  deptIds?: string[];
  roleIds?: string[];
}

/** Creates an account with its departments and roles. */
export async function createAccount(db: Executor, input: NewAccount): Promise<{ id: string; userNo: number }> {
  const deptIds = input.deptIds ?? [];
  const account = await insertAccount(db, {
    entId: input.entId,
    loginName: input.loginName,
    realName: input.realName ?? input.loginName,
    passwordHash: input.passwordHash ?? (await hashPassword(input.password)),
    phone: input.phone ?? null,
    email: input.email ?? null,
    status: input.status ?? 'enabled',
    accountType: input.accountType ?? 'enterprise',
    isEntAdmin: input.isEntAdmin ?? false,
    thirdMonitor: input.thirdMonitor ?? false,
    updatePwd: input.updatePwd ?? false,
    currentDeptId: deptIds[0] ?? null,
  });
  await addAccountDepartments(db, input.entId, account.id, deptIds);
  await addAccountRoles(db, input.entId, account.id, input.roleIds ?? []);
  return account;
}

/**
 * Pauses or re-enables an account. Pausing ends its open sessions with reason 'paused', so
 * their next call answers SESSION_ENDED, and drops them from the token cache after commit.
 */
export async function setAccountStatus(
  db: Executor,
  sessions: SessionService,
  ref: { entId: string; accountId: string },
  status: AccountStatus,
  now: Date,
  afterCommit: (fn: () => void) => void,
): Promise<boolean> {
  if (!(await updateAccountStatus(db, ref.entId, ref.accountId, status, now))) return false;
  if (status === 'paused') await sessions.endAllForAccount(db, ref, 'paused', now, afterCommit);
  else afterCommit(() => sessions.cache.invalidateAccount(ref.accountId));
  return true;
}

/** An administrator ends every session of an account ('kicked'). */
export function kickAccountSessions(
  db: Executor,
  sessions: SessionService,
  ref: { entId: string; accountId: string },
  now: Date,
  afterCommit: (fn: () => void) => void,
): Promise<number> {
  return sessions.endAllForAccount(db, ref, 'kicked', now, afterCommit);
}
