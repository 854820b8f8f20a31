import { RefType } from '@marquee/protocol';
import { and, eq, or, type SQL } from 'drizzle-orm';
import { type ScopedColumns, type ScopeSubject, scopeWhere } from '../../auth/scope.js';
import { ads, promotionPlans } from '../../db/schema/index.js';

/** Ads: scoped by department and owner (an advertiser sees its own), shared as ref-type '5'. */
export const adScope: ScopedColumns = {
  entId: ads.entId,
  deptId: ads.deptId,
  ownerId: ads.ownerId,
  share: { refType: RefType.ad, id: ads.id },
};

/** Promotion plans: scoped by department and owner, not shared. */
export const planScope: ScopedColumns = {
  entId: promotionPlans.entId,
  deptId: promotionPlans.deptId,
  ownerId: promotionPlans.ownerId,
};

/** The plans a caller sees: its scope's, and the enterprise's default plan (everyone's). */
export function planVisibleWhere(caller: ScopeSubject): SQL {
  return or(
    and(eq(promotionPlans.entId, caller.entId), eq(promotionPlans.isDefault, true)),
    scopeWhere(caller, planScope),
  ) as SQL;
}
