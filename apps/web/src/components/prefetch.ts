/**
 * Link prefetch (spec section 9): the code of a page is fetched ahead when the pointer or the
 * focus reaches a link to it, except on a 2g connection or when the user asked to save data
 * (Network Information API; browsers without it prefetch).
 */
export interface ConnectionInfo {
  saveData?: boolean;
  effectiveType?: string;
}

function browserConnection(): ConnectionInfo | undefined {
  if (typeof navigator === 'undefined') return undefined;
  return (navigator as Navigator & { connection?: ConnectionInfo }).connection;
}

/** False on 2g (and slow-2g) or with save-data on. */
export function canPrefetch(connection: ConnectionInfo | undefined = browserConnection()): boolean {
  if (!connection) return true;
  if (connection.saveData) return false;
  return !/(^|-)2g$/.test(connection.effectiveType ?? '');
}

const started = new WeakSet<() => Promise<unknown>>();

/** Starts a loader once, when prefetching is allowed; failures are left to the real navigation. */
export function prefetch(load: () => Promise<unknown>, connection?: ConnectionInfo): void {
  if (started.has(load) || !canPrefetch(connection ?? browserConnection())) return;
  started.add(load);
  load().catch(() => started.delete(load));
}
