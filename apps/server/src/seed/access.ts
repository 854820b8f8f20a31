import { PROVIDER_ONLY_CODES } from '@marquee/protocol';
import { and, ne, sql } from 'drizzle-orm';
import type { Executor } from '../db/client.js';
import { enterprises, roles } from '../db/schema/index.js';

/**
 * Access demo data: provider-only codes (the development outbox) stay with the platform
 * operator's roles; the demo enterprises' administrator roles were given every code.
 */
export async function seedAccess(db: Executor): Promise<void> {
  for (const code of PROVIDER_ONLY_CODES) {
    await db
      .update(roles)
      .set({ permissionCodes: sql`array_remove(${roles.permissionCodes}, ${code})` })
      .where(
        and(
          sql`${code} = any(${roles.permissionCodes})`,
          sql`${roles.entId} in (select ${enterprises.id} from ${enterprises} where ${ne(enterprises.kind, 'provider')})`,
        ),
      );
  }
}
