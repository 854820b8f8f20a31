import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Database, Executor } from '../db/client.js';

/** Most keys one insert carries; a larger backlog goes in several. */
const MAX_BATCH = 500;

interface Pending {
  key: string;
  expiresAt: number;
  now: number;
  resolve: (accepted: boolean) => void;
  reject: (error: unknown) => void;
}

/**
 * Remembers (appid, uuid, sequence) for as long as the call's timestamp is inside the
 * window, so a captured call cannot be sent again, to this instance or any other on the
 * same database: the key's SHA-256 is a row of `replay_keys` (an unlogged table),
 * inserted with `on conflict`; a key whose row expired may be used again. Calls that arrive
 * while an insert is on its way are grouped into the next one (a group commit), so under
 * load the guard costs one statement per batch, not per call. The statement is sent as
 * simple-protocol text (hex digests and integers only, so nothing to escape): on PGlite
 * that halves its cost against a parameterised one (bench/multi-instance.ts). The
 * `prune-replay-keys` job deletes expired rows.
 */
export class ReplayGuard {
  private queue: Pending[] = [];
  private inFlight = false;

  constructor(
    private readonly database: Pick<Database, 'executeSql'>,
    private readonly windowMs: number,
  ) {}

  /** Records the call; false when it was already seen inside the window. */
  accept(key: string, timestamp: number, now: number): Promise<boolean> {
    return new Promise((resolve, reject) => {
      const digest = createHash('sha256').update(key).digest('hex');
      this.queue.push({ key: digest, expiresAt: Math.floor(timestamp + this.windowMs), now, resolve, reject });
      if (!this.inFlight) void this.flush();
    });
  }

  private async flush(): Promise<void> {
    this.inFlight = true;
    try {
      while (this.queue.length > 0) {
        // Let the calls whose bytes are already here (the I/O phase) join this batch: an
        // insert finishes in microtasks, before the event loop reads the next requests, and
        // PGlite's runs on this thread, so without the wait batches would stay tiny.
        await new Promise((resolve) => setImmediate(resolve));
        const batch = this.queue.splice(0, MAX_BATCH);
        // The same key twice in one batch: the later one is a replay of the earlier.
        const first = new Map<string, Pending>();
        const duplicates: Pending[] = [];
        for (const p of batch) {
          if (first.has(p.key)) duplicates.push(p);
          else first.set(p.key, p);
        }
        for (const p of duplicates) p.resolve(false);
        const rows = [...first.values()];
        try {
          const accepted = await this.insert(rows);
          for (const p of rows) p.resolve(accepted.has(p.key));
        } catch (error) {
          for (const p of rows) p.reject(error);
        }
      }
    } finally {
      this.inFlight = false;
    }
  }

  /** The keys inserted (or whose expired row was taken over), in one statement. */
  private async insert(rows: Pending[]): Promise<Set<string>> {
    const now = Math.floor(Math.min(...rows.map((r) => r.now)));
    // Digests are 64 hex characters and times integers: safe as literals.
    const values = rows.map((r) => `('${r.key}',${r.expiresAt})`).join(',');
    const result = await this.database.executeSql(
      `insert into replay_keys (key, expires_at) values ${values} on conflict (key) do update set expires_at = excluded.expires_at where replay_keys.expires_at < ${now} returning key`,
    );
    return new Set((result.rows as { key: string }[]).map((r) => r.key));
  }
}

/** Deletes keys whose window has passed (the `prune-replay-keys` job); returns how many. */
export async function pruneReplayKeys(db: Executor, now: number): Promise<number> {
  const result = (await db.execute(sql`delete from replay_keys where expires_at < ${now}`)) as unknown as {
    rowCount?: number | null;
    affectedRows?: number;
  };
  return Number(result.rowCount ?? result.affectedRows ?? 0);
}
