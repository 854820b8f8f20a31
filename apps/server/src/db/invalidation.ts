import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Database } from './client.js';

/** The NOTIFY channel of cache invalidations. */
export const INVALIDATION_CHANNEL = 'marquee_invalidate';

/** A cache that other instances keep too: it forgets what a message names, or everything. */
export interface SharedCache {
  /** Applies an invalidation published by another instance. */
  evict(kind: string, id: string): void;
  /** Forgets everything (messages may have been missed while the channel was down). */
  evictAll(): void;
}

interface Message {
  /** The instance that published it (it applied the change itself already). */
  from: string;
  topic: string;
  kind: string;
  id: string;
}

/**
 * Cache invalidation across instances on one database, by LISTEN/NOTIFY: a cache evicts
 * locally and publishes; every other instance's listener evicts the same within a
 * round trip. On PGlite the same code runs in one process. When the listening connection
 * was lost and comes back, every subscribed cache is cleared (the TTLs bound staleness
 * while it is down).
 */
export class InvalidationBus {
  readonly instanceId = randomUUID();
  private readonly caches = new Map<string, SharedCache>();
  private unlisten: (() => Promise<void>) | null = null;
  private listening = false;

  constructor(
    private readonly database: Database,
    private readonly onError: (error: unknown) => void = () => {},
  ) {}

  async start(): Promise<void> {
    this.unlisten = await this.database.listen(
      INVALIDATION_CHANNEL,
      (payload) => this.receive(payload),
      () => this.clearAll(),
    );
    this.listening = true;
  }

  /** Registers a cache under `topic`; messages of that topic reach its evict(). */
  subscribe(topic: string, cache: SharedCache): void {
    this.caches.set(topic, cache);
  }

  /** Tells the other instances; the caller has evicted locally already. Never throws. */
  publish(topic: string, kind: string, id: string): void {
    if (!this.listening) return;
    const message: Message = { from: this.instanceId, topic, kind, id };
    this.database.db
      .execute(sql`select pg_notify(${INVALIDATION_CHANNEL}, ${JSON.stringify(message)})`)
      .catch((error) => this.onError(error));
  }

  async stop(): Promise<void> {
    this.listening = false;
    const unlisten = this.unlisten;
    this.unlisten = null;
    await unlisten?.();
  }

  private receive(payload: string): void {
    let message: Message;
    try {
      message = JSON.parse(payload) as Message;
    } catch {
      return;
    }
    if (message.from === this.instanceId) return;
    this.caches.get(message.topic)?.evict(message.kind, message.id);
  }

  private clearAll(): void {
    for (const cache of this.caches.values()) cache.evictAll();
  }
}
