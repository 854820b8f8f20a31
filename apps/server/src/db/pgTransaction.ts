import { type SQL, sql } from 'drizzle-orm';
import { NodePgSession, NodePgTransaction } from 'drizzle-orm/node-postgres';
import type { PgTransactionConfig } from 'drizzle-orm/pg-core';
import type { PoolClient } from 'pg';

/**
 * A pooled transaction whose connection always goes back to its pool.
 *
 * drizzle-orm 0.45's node-postgres `transaction()` runs BEGIN before the try/finally that
 * releases the pool's client (drizzle-team/drizzle-orm#6023, #6241; open). A BEGIN that fails
 * (a connection the database closed in a restart just as it was checked out, one left in an
 * aborted transaction) never released its client: the pool lost that connection for the
 * life of the process, and closing the pool waited for it forever (seen as the PostgreSQL
 * restart test's teardown hanging). Here BEGIN is inside the try; a connection whose BEGIN or
 * ROLLBACK failed is released with the error, so the pool closes it instead of lending it
 * again; and the caller gets the transaction's own error, not the failed rollback's.
 *
 * Installed on NodePgSession once (`installPooledTransaction`), before the first drizzle
 * instance on pg is used; nested transactions (savepoints) are drizzle's own.
 */
type Session = {
  client: unknown;
  dialect: unknown;
  schema: unknown;
  options: unknown;
};

let installed = false;

export function installPooledTransaction(): void {
  if (installed) return;
  installed = true;
  const Ctor = NodePgSession as unknown as new (...args: unknown[]) => NodePgSession<Record<string, unknown>, never>;
  const Tx = NodePgTransaction as unknown as new (
    ...args: unknown[]
  ) => NodePgTransaction<Record<string, unknown>, never>;
  NodePgSession.prototype.transaction = async function pooledTransaction<T>(
    this: NodePgSession<Record<string, unknown>, never>,
    run: (tx: NodePgTransaction<Record<string, unknown>, never>) => Promise<T>,
    config?: PgTransactionConfig,
  ): Promise<T> {
    const self = this as unknown as Session;
    const client = self.client as { connect?: () => Promise<PoolClient>; constructor: { name: string } };
    // A pool, as drizzle tells one (pg's Pool, or a pool of another name): it lends clients.
    const pooled =
      typeof client.connect === 'function' && Object.getPrototypeOf(client).constructor.name.includes('Pool');
    const lent = pooled ? await (client.connect as () => Promise<PoolClient>).call(client) : null;
    const session = lent ? new Ctor(lent, self.dialect, self.schema, self.options) : this;
    const tx = new Tx(self.dialect, session, self.schema);
    let broken: Error | undefined;
    try {
      try {
        const characteristics = config
          ? (tx as unknown as { getTransactionConfigSQL(c: PgTransactionConfig): SQL }).getTransactionConfigSQL(config)
          : undefined;
        await tx.execute(sql`begin${characteristics ? sql` ${characteristics}` : undefined}`);
      } catch (error) {
        broken = error instanceof Error ? error : new Error(String(error));
        throw error;
      }
      try {
        const result = await run(tx);
        await tx.execute(sql`commit`);
        return result;
      } catch (error) {
        try {
          await tx.execute(sql`rollback`);
        } catch (rollbackError) {
          broken = rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError));
        }
        throw error;
      }
    } finally {
      lent?.release(broken);
    }
  } as typeof NodePgSession.prototype.transaction;
}
