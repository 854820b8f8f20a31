import { allowedCodes } from '@marquee/protocol';
import { and, eq } from 'drizzle-orm';
import type { Executor } from '../db/client.js';
import {
  accountRoles,
  accounts,
  type DataScope,
  departments,
  type EnterpriseKind,
  enterprises,
  roles,
  type SessionEndReason,
  sessions,
} from '../db/schema/index.js';
import type { ActingEnterprise } from './acting.js';

/** The caller's data scope: the enterprise administrator sees the whole enterprise. */
export type PrincipalScope = 'all' | DataScope;

/** Everything a call needs to know about its caller, loaded once per token and cached. */
export interface Principal {
  sessionId: string;
  tokenHash: string;
  accountId: string;
  userNo: number;
  /**
   * The enterprise the caller acts in: its own, or the one its session acts for after
   * 'change enterprise'. Every scoped query starts from it.
   */
  entId: string;
  entKind: EnterpriseKind;
  entName: string;
  /** The account's own enterprise (its account row, sessions, profile and bindings live there). */
  homeEntId: string;
  homeEntKind: EnterpriseKind;
  loginName: string;
  realName: string;
  isEntAdmin: boolean;
  thirdMonitor: boolean;
  updatePwd: boolean;
  openWxLogin: boolean;
  /** Current department (null when the account has none); acting for another enterprise, its top department. */
  deptId: string | null;
  deptPath: string | null;
  deptName: string;
  welcomeSpeech: string;
  logo: string;
  permissions: ReadonlySet<string>;
  /** The same codes, sorted, as the console receives them. */
  permissionList: readonly string[];
  dataScope: PrincipalScope;
}

/** The session row with what is needed to decide whether it still authenticates. */
export interface SessionState {
  sessionId: string;
  accountId: string;
  entId: string;
  expiresAt: number;
  lastSeenAt: number;
  endedReason: SessionEndReason | null;
  /** The account or its enterprise is paused. */
  paused: boolean;
  /** The enterprise the session acts for, when not the account's own. */
  actingEntId: string | null;
}

const SCOPE_WIDTH: Record<DataScope, number> = { self: 0, dept_only: 1, dept_and_below: 2 };

/** The widest scope among the roles; no role means only one's own data. */
export function widestScope(scopes: readonly DataScope[]): DataScope {
  return scopes.reduce<DataScope>((wide, s) => (SCOPE_WIDTH[s] > SCOPE_WIDTH[wide] ? s : wide), 'self');
}

type AccountRow = {
  accountId: string;
  userNo: number;
  entId: string;
  entKind: EnterpriseKind;
  entName: string;
  loginName: string;
  realName: string;
  isEntAdmin: boolean;
  thirdMonitor: boolean;
  updatePwd: boolean;
  openWxLogin: boolean;
  deptId: string | null;
  deptPath: string | null;
  deptName: string | null;
  welcomeSpeech: string;
  logo: string;
  accountStatus: string;
  entStatus: string;
};

const accountColumns = {
  accountId: accounts.id,
  userNo: accounts.userNo,
  entId: accounts.entId,
  entKind: enterprises.kind,
  entName: enterprises.name,
  loginName: accounts.loginName,
  realName: accounts.realName,
  isEntAdmin: accounts.isEntAdmin,
  thirdMonitor: accounts.thirdMonitor,
  updatePwd: accounts.updatePwd,
  openWxLogin: accounts.openWxLogin,
  deptId: departments.id,
  deptPath: departments.path,
  deptName: departments.name,
  welcomeSpeech: enterprises.welcomeSpeech,
  logo: enterprises.logo,
  accountStatus: accounts.status,
  entStatus: enterprises.status,
};

/** Loads the session of a token hash with its account, or null when there is none. */
export async function loadSessionByTokenHash(
  db: Executor,
  tokenHash: string,
): Promise<{ state: SessionState; account: AccountRow } | null> {
  const rows = await db
    .select({
      ...accountColumns,
      sessionId: sessions.id,
      expiresAt: sessions.expiresAt,
      lastSeenAt: sessions.lastSeenAt,
      endedReason: sessions.endedReason,
      actingEntId: sessions.actingEntId,
    })
    .from(sessions)
    .innerJoin(accounts, and(eq(accounts.id, sessions.accountId), eq(accounts.entId, sessions.entId)))
    .innerJoin(enterprises, eq(enterprises.id, accounts.entId))
    .leftJoin(departments, and(eq(departments.id, accounts.currentDeptId), eq(departments.entId, accounts.entId)))
    .where(eq(sessions.tokenHash, tokenHash))
    .limit(1);
  const row = rows[0];
  if (!row) return null;
  return {
    state: {
      sessionId: row.sessionId,
      accountId: row.accountId,
      entId: row.entId,
      expiresAt: row.expiresAt.getTime(),
      lastSeenAt: row.lastSeenAt.getTime(),
      endedReason: row.endedReason,
      paused: row.accountStatus !== 'enabled' || row.entStatus !== 'enabled',
      actingEntId: row.actingEntId,
    },
    account: row,
  };
}

/** Loads an account as a principal for a given session (used after login and dept change). */
export async function loadPrincipal(
  db: Executor,
  entId: string,
  accountId: string,
  session: { sessionId: string; tokenHash: string },
  acting?: ActingEnterprise | null,
): Promise<Principal | null> {
  const rows = await db
    .select(accountColumns)
    .from(accounts)
    .innerJoin(enterprises, eq(enterprises.id, accounts.entId))
    .leftJoin(departments, and(eq(departments.id, accounts.currentDeptId), eq(departments.entId, accounts.entId)))
    .where(and(eq(accounts.entId, entId), eq(accounts.id, accountId)))
    .limit(1);
  const row = rows[0];
  return row ? buildPrincipal(db, row, session, acting) : null;
}

/**
 * Adds the roles' permission codes and data scope to an account row. Acting for another
 * enterprise, the principal is in that enterprise, from its top department, with the codes
 * the account's roles give that the other enterprise's kind can hold, and the same data scope.
 */
export async function buildPrincipal(
  db: Executor,
  account: AccountRow,
  session: { sessionId: string; tokenHash: string },
  acting?: ActingEnterprise | null,
): Promise<Principal> {
  const roleRows = await db
    .select({ codes: roles.permissionCodes, dataScope: roles.dataScope })
    .from(accountRoles)
    .innerJoin(roles, and(eq(roles.id, accountRoles.roleId), eq(roles.entId, accountRoles.entId)))
    .where(and(eq(accountRoles.entId, account.entId), eq(accountRoles.accountId, account.accountId)));
  const allowed = allowedCodes(acting?.kind ?? account.entKind);
  const permissions = new Set(roleRows.flatMap((r) => r.codes).filter((code) => allowed.includes(code)));
  return {
    sessionId: session.sessionId,
    tokenHash: session.tokenHash,
    accountId: account.accountId,
    userNo: account.userNo,
    entId: acting?.id ?? account.entId,
    entKind: acting?.kind ?? account.entKind,
    entName: acting?.name ?? account.entName,
    homeEntId: account.entId,
    homeEntKind: account.entKind,
    loginName: account.loginName,
    realName: account.realName,
    isEntAdmin: account.isEntAdmin,
    thirdMonitor: account.thirdMonitor,
    updatePwd: account.updatePwd,
    openWxLogin: account.openWxLogin,
    deptId: acting ? acting.deptId : account.deptId,
    deptPath: acting ? acting.deptPath : account.deptPath,
    deptName: (acting ? acting.deptName : account.deptName) ?? '',
    welcomeSpeech: acting?.welcomeSpeech ?? account.welcomeSpeech,
    logo: acting?.logo ?? account.logo,
    permissions,
    permissionList: [...permissions].sort(),
    dataScope: account.isEntAdmin ? 'all' : widestScope(roleRows.map((r) => r.dataScope)),
  };
}
