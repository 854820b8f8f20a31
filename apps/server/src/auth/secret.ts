import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Executor } from '../db/client.js';
import { meta } from '../db/schema/index.js';

const SECRET_KEY = 'server_secret';

/**
 * The key of the server's own HMACs (verification-code hashes, OAuth state signatures,
 * invitation links): APP_SECRET when set, otherwise a random key made once and kept in the
 * database, so every instance on one database and every restart agree on it.
 */
export async function loadServerSecret(db: Executor, configured: string): Promise<string> {
  if (configured) return configured;
  await db
    .insert(meta)
    .values({ key: SECRET_KEY, value: randomBytes(32).toString('hex') })
    .onConflictDoNothing();
  const [row] = await db.select({ value: meta.value }).from(meta).where(eq(meta.key, SECRET_KEY));
  return String(row.value);
}
