import { and, eq, or, type SQL, sql } from 'drizzle-orm';
import type { Principal } from '../../auth/principal.js';
import { scopeWhere, tenantWhere } from '../../auth/scope.js';
import { accounts, advertiserAssignments } from '../../db/schema/index.js';

/**
 * Which advertiser accounts a caller sees (/user/adv): the shared data scope on the
 * advertiser's current department, widened by the advertisers assigned to the caller on
 * /user/allot. A staff account with scope 'self' therefore sees exactly its assigned
 * advertisers. Built on scope.ts's scopeWhere so changes to the shared rule apply here too.
 */
export function advertiserScopeWhere(
  user: Pick<Principal, 'entId' | 'accountId' | 'deptId' | 'deptPath' | 'dataScope'>,
): SQL {
  const scoped = scopeWhere(user, { entId: accounts.entId, deptId: accounts.currentDeptId });
  if (user.dataScope === 'all') return scoped;
  const assigned = sql`exists (select 1 from ${advertiserAssignments} where ${and(
    eq(advertiserAssignments.entId, user.entId),
    eq(advertiserAssignments.advertiserAccountId, accounts.id),
    eq(advertiserAssignments.staffAccountId, user.accountId),
  )})`;
  return and(tenantWhere(user, accounts.entId), or(scoped, assigned)) as SQL;
}
