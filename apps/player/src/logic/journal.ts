import type { PlayEvent, PlaysAnswer } from '@marquee/protocol';

/** What a journal keeps: records with an id the server acknowledges, uploaded oldest (by start) first. */
export interface Journaled {
  id: string;
  start: number;
}

/** Where journal records live: IndexedDB in the browser (idb.ts), a Map in tests. */
export interface JournalStore<E extends Journaled = PlayEvent> {
  put(event: E): Promise<void>;
  /** The oldest `limit` records (by start). */
  oldest(limit: number): Promise<E[]>;
  delete(ids: readonly string[]): Promise<void>;
  count(): Promise<number>;
}

export class MemoryJournalStore<E extends Journaled = PlayEvent> implements JournalStore<E> {
  readonly events = new Map<string, E>();
  async put(event: E) {
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

/** Uploads a batch; the answer names the ids to delete (accepted, duplicate, rejected for good). */
export type SendBatch<E> = (events: E[]) => Promise<PlaysAnswer>;
export type SendPlays = SendBatch<PlayEvent>;

/**
 * A journal of records for the server: every record is written at once (durable before it is
 * sent), uploaded in batches, and deleted only once the server acknowledged it (accepted, a
 * duplicate, or rejected for good). A failed upload deletes nothing: the records go again next
 * time. Proof of play (2.8) and data usage (2.9) are journaled alike.
 */
export class Journal<E extends Journaled> {
  constructor(
    private readonly store: JournalStore<E>,
    private readonly batchSize = 500,
  ) {}

  record(event: E): Promise<void> {
    return this.store.put(event);
  }

  pending(): Promise<number> {
    return this.store.count();
  }

  /** Uploads everything pending, batch by batch; stops at the first failure (thrown). Returns the ids acknowledged. */
  async flush(send: SendBatch<E>): Promise<number> {
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

/** The proof-of-play journal (2.8). */
export class PlayJournal extends Journal<PlayEvent> {}
