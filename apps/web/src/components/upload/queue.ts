/**
 * The state machine of the upload queue (useUploadQueue), as a pure reducer:
 *
 *   queued -> signing -> uploading -> verifying -> done
 *                 \           \            \
 *                  +-----------+------------+--> failed (retry -> queued)
 *   any state before done --cancel--> cancelled (retry -> queued)
 *
 * At most `concurrency` items are active (signing, uploading or verifying); `startable`
 * says which queued items may start. Events of an item's old attempt (a late progress
 * after a cancel, say) carry its attempt number and are ignored.
 */

export type UploadStatus = 'queued' | 'signing' | 'uploading' | 'verifying' | 'done' | 'failed' | 'cancelled';

export interface UploadItem<F = File, T = unknown> {
  id: string;
  file: F;
  name: string;
  /** The file's size in bytes. */
  size: number;
  status: UploadStatus;
  /** Bytes sent in the current attempt. */
  loaded: number;
  /** Counts attempts; events of an older one are ignored. */
  attempt: number;
  /** What failed, shown under the item. */
  error?: string;
  /** What verify answered. */
  result?: T;
}

export interface UploadQueueState<F = File, T = unknown> {
  items: UploadItem<F, T>[];
}

export type UploadAction<F = File, T = unknown> =
  | { type: 'add'; files: { id: string; file: F; name: string; size: number }[] }
  | { type: 'start'; id: string }
  | { type: 'signed'; id: string; attempt: number }
  | { type: 'progress'; id: string; attempt: number; loaded: number }
  | { type: 'sent'; id: string; attempt: number }
  | { type: 'verified'; id: string; attempt: number; result: T }
  | { type: 'failed'; id: string; attempt: number; error: string }
  | { type: 'cancel'; id: string }
  | { type: 'retry'; id: string }
  | { type: 'remove'; id: string }
  | { type: 'clearFinished' };

export const ACTIVE: readonly UploadStatus[] = ['signing', 'uploading', 'verifying'];
export const FINISHED: readonly UploadStatus[] = ['done', 'failed', 'cancelled'];
export const CANCELLABLE: readonly UploadStatus[] = ['queued', 'signing', 'uploading'];

export const isActive = (item: { status: UploadStatus }) => ACTIVE.includes(item.status);

export function initialUploadState<F = File, T = unknown>(): UploadQueueState<F, T> {
  return { items: [] };
}

/** The queued items that may start now, oldest first, keeping at most `concurrency` active. */
export function startable<F, T>(state: UploadQueueState<F, T>, concurrency: number): UploadItem<F, T>[] {
  const active = state.items.filter(isActive).length;
  const room = Math.max(0, concurrency - active);
  return state.items.filter((i) => i.status === 'queued').slice(0, room);
}

/** The whole queue's progress in bytes: done items count fully, failed and cancelled not at all. */
export function queueProgress(state: UploadQueueState<unknown, unknown>): { loaded: number; total: number } {
  let loaded = 0;
  let total = 0;
  for (const item of state.items) {
    if (item.status === 'failed' || item.status === 'cancelled') continue;
    total += item.size;
    loaded += item.status === 'done' || item.status === 'verifying' ? item.size : item.loaded;
  }
  return { loaded, total };
}

/** The item's progress in percent (0-100, whole numbers). */
export function percentOf(item: { status: UploadStatus; loaded: number; size: number }): number {
  if (item.status === 'done' || item.status === 'verifying') return 100;
  if (item.size <= 0) return 0;
  return Math.min(100, Math.floor((item.loaded / item.size) * 100));
}

export function uploadReducer<F, T>(state: UploadQueueState<F, T>, action: UploadAction<F, T>): UploadQueueState<F, T> {
  const update = (id: string, change: (item: UploadItem<F, T>) => UploadItem<F, T> | null) => {
    let changed = false;
    const items = state.items.map((item) => {
      if (item.id !== id) return item;
      const next = change(item);
      if (!next || next === item) return item;
      changed = true;
      return next;
    });
    return changed ? { items } : state;
  };
  /** Only events of the item's current attempt, in the state they follow, count. */
  const current = (
    id: string,
    attempt: number,
    from: readonly UploadStatus[],
    change: (item: UploadItem<F, T>) => UploadItem<F, T>,
  ) => update(id, (item) => (item.attempt === attempt && from.includes(item.status) ? change(item) : null));

  switch (action.type) {
    case 'add': {
      const known = new Set(state.items.map((i) => i.id));
      const added = action.files
        .filter((f) => !known.has(f.id))
        .map((f) => ({ ...f, status: 'queued' as const, loaded: 0, attempt: 0 }));
      return added.length ? { items: [...state.items, ...added] } : state;
    }
    case 'start':
      return update(id(action), (item) =>
        item.status === 'queued'
          ? { ...item, status: 'signing', loaded: 0, attempt: item.attempt + 1, error: undefined }
          : null,
      );
    case 'signed':
      return current(action.id, action.attempt, ['signing'], (item) => ({ ...item, status: 'uploading' }));
    case 'progress':
      return current(action.id, action.attempt, ['uploading'], (item) => ({
        ...item,
        loaded: Math.max(item.loaded, Math.min(action.loaded, item.size)),
      }));
    case 'sent':
      return current(action.id, action.attempt, ['uploading'], (item) => ({
        ...item,
        status: 'verifying',
        loaded: item.size,
      }));
    case 'verified':
      return current(action.id, action.attempt, ['verifying'], (item) => ({
        ...item,
        status: 'done',
        result: action.result,
      }));
    case 'failed':
      return current(action.id, action.attempt, ACTIVE, (item) => ({ ...item, status: 'failed', error: action.error }));
    case 'cancel':
      // Once the file is stored (verifying), the upload can no longer be taken back here.
      return update(action.id, (item) =>
        CANCELLABLE.includes(item.status) ? { ...item, status: 'cancelled', error: undefined } : null,
      );
    case 'retry':
      return update(action.id, (item) =>
        item.status === 'failed' || item.status === 'cancelled'
          ? { ...item, status: 'queued', loaded: 0, error: undefined }
          : null,
      );
    case 'remove': {
      const items = state.items.filter((i) => i.id !== action.id || isActive(i));
      return items.length === state.items.length ? state : { items };
    }
    case 'clearFinished': {
      const items = state.items.filter((i) => !FINISHED.includes(i.status));
      return items.length === state.items.length ? state : { items };
    }
  }
}

const id = (action: { id: string }) => action.id;
