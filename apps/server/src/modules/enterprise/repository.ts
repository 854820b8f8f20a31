import type { Executor } from '../../db/client.js';
import { enterprises } from '../../db/schema/index.js';

export async function insertEnterprise(db: Executor, values: typeof enterprises.$inferInsert): Promise<{ id: string }> {
  const [row] = await db.insert(enterprises).values(values).returning({ id: enterprises.id });
  return row;
}
