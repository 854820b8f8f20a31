import type { PlayEvent, PlaysAnswer } from '@marquee/protocol';

/** Where journal events live: IndexedDB in the browser (idb.ts), a Map in tests. */
export interface JournalStore {
  put(event: PlayEvent): Promise<void>;
  /** The oldest `limit` events (by start). */
  oldest(limit: number): Promise<PlayEvent[]>;
  delete(ids: readonly string[]): Promise<void>;
  count(): Promise<number>;
}

export class MemoryJournalStore implements JournalStore {
  readonly events = new Map<string, PlayEvent>();
  async put(event: PlayEvent) {
    this.events.set(event.id, event);
  }
  async oldest(limit: number) {
    return [...this.events.values()].sort((a, b) => a.start - b.start).slice(0, limit);
  }
  async delete(ids: readonly string[]) {
    for (const id of ids) this.events.delete(id);
  }
  async count() {
    return this.events.size;
  }
}

export type SendPlays = (events: PlayEvent[]) => Promise<PlaysAnswer>;

/**
 * The proof-of-play journal: every playback is written at once (durable before it is sent),
 * uploaded in batches, and deleted only once the server acknowledged it (accepted, a duplicate,
 * or rejected for good). A failed upload deletes nothing: the events go again next time.
 */
export class PlayJournal {
  constructor(
    private readonly store: JournalStore,
    private readonly batchSize = 500,
  ) {}

  record(event: PlayEvent): Promise<void> {
    return this.store.put(event);
  }

  pending(): Promise<number> {
    return this.store.count();
  }

  /** Uploads everything pending, batch by batch; stops at the first failure (thrown). Returns the ids acknowledged. */
  async flush(send: SendPlays): Promise<number> {
    let acknowledged = 0;
    for (;;) {
      const batch = await this.store.oldest(this.batchSize);
      if (batch.length === 0) return acknowledged;
      const answer = await send(batch);
      const sent = new Set(batch.map((e) => e.id));
      const done = [...answer.accepted, ...answer.duplicate, ...answer.rejected].filter((id) => sent.has(id));
      await this.store.delete(done);
      acknowledged += done.length;
      // The server acknowledged nothing of a full batch: stop rather than loop on it.
      if (done.length === 0) return acknowledged;
    }
  }
}
