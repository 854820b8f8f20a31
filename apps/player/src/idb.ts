import type { PlayEvent } from '@marquee/protocol';
import type { Journaled, JournalStore } from './logic/journal';
import type { JournaledUsage } from './logic/usage';

/** The player's private storage: one IndexedDB database, a key-value store, the play and usage journals. */
const DB_NAME = 'marquee-player';
let opening: Promise<IDBDatabase> | null = null;

function open(): Promise<IDBDatabase> {
  opening ??= new Promise((resolve, reject) => {
    // Version 2 adds the usage journal (issue 27).
    const request = indexedDB.open(DB_NAME, 2);
    request.onupgradeneeded = () => {
      const db = request.result;
      if (!db.objectStoreNames.contains('kv')) db.createObjectStore('kv');
      for (const name of ['plays', 'usage']) {
        if (!db.objectStoreNames.contains(name))
          db.createObjectStore(name, { keyPath: 'id' }).createIndex('start', 'start');
      }
    };
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  return opening;
}

function done<T>(request: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

function committed(tx: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error);
  });
}

/**
 * A value kept in IndexedDB and mirrored in localStorage (read synchronously at start; either
 * copy alone restores the other).
 */
export const kv = {
  async get<T>(key: string): Promise<T | null> {
    try {
      const db = await open();
      const value = await done(db.transaction('kv').objectStore('kv').get(key));
      if (value !== undefined) return value as T;
    } catch {
      // IndexedDB unavailable (private mode): localStorage only.
    }
    const mirrored = localStorage.getItem(`marquee.${key}`);
    return mirrored ? (JSON.parse(mirrored) as T) : null;
  },
  async set(key: string, value: unknown): Promise<void> {
    if (value === null) localStorage.removeItem(`marquee.${key}`);
    else {
      try {
        localStorage.setItem(`marquee.${key}`, JSON.stringify(value));
      } catch {
        // Quota: IndexedDB still has it.
      }
    }
    try {
      const db = await open();
      const tx = db.transaction('kv', 'readwrite');
      if (value === null) tx.objectStore('kv').delete(key);
      else tx.objectStore('kv').put(value, key);
      await committed(tx);
    } catch {
      // localStorage has it.
    }
  },
};

/** A journal in the IndexedDB object store `name` (indexed by start): a write is committed before `put` resolves. */
function idbStore<E extends Journaled>(name: 'plays' | 'usage'): JournalStore<E> {
  return {
    async put(event: E) {
      const db = await open();
      const tx = db.transaction(name, 'readwrite');
      tx.objectStore(name).put(event);
      await committed(tx);
    },
    async oldest(limit: number) {
      const db = await open();
      const index = db.transaction(name).objectStore(name).index('start');
      return (await done(index.getAll(null, limit))) as E[];
    },
    async delete(ids: readonly string[]) {
      if (ids.length === 0) return;
      const db = await open();
      const tx = db.transaction(name, 'readwrite');
      const store = tx.objectStore(name);
      for (const id of ids) store.delete(id);
      await committed(tx);
    },
    async count() {
      const db = await open();
      return done(db.transaction(name).objectStore(name).count());
    },
  };
}

/** The play journal (2.8). */
export const idbJournalStore: JournalStore<PlayEvent> = idbStore<PlayEvent>('plays');
/** The usage journal (2.9). */
export const idbUsageStore: JournalStore<JournaledUsage> = idbStore<JournaledUsage>('usage');
