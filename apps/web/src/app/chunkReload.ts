/**
 * Chunk load failure (spec section 8): after a deployment the old page asks for chunks that
 * no longer exist; a full page reload fetches the new index. The sessionStorage guard makes
 * it happen once: if the reload did not help within the window, the error page shows.
 */
const RELOAD_KEY = 'mq_chunk_reload_at';
const WINDOW_MS = 30_000;

const CHUNK_ERROR =
  /Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|ChunkLoadError|Loading (?:CSS )?chunk [\w-]+ failed|Unable to preload CSS/i;

export function isChunkLoadError(error: unknown): boolean {
  if (!error) return false;
  const { name, message } = error as { name?: unknown; message?: unknown };
  if (name === 'ChunkLoadError') return true;
  return typeof message === 'string' && CHUNK_ERROR.test(message);
}

function session(): Storage | undefined {
  try {
    return typeof sessionStorage === 'undefined' ? undefined : sessionStorage;
  } catch {
    return undefined;
  }
}

/** Reloads the page unless it was already reloaded for this reason moments ago. Returns true when reloading. */
export function reloadOnceForChunkError(
  now: number = Date.now(),
  storage: Storage | undefined = session(),
  reload: () => void = () => window.location.reload(),
): boolean {
  const last = Number(storage?.getItem(RELOAD_KEY) ?? 0);
  if (last && now - last < WINDOW_MS) {
    storage?.removeItem(RELOAD_KEY);
    return false;
  }
  storage?.setItem(RELOAD_KEY, String(now));
  reload();
  return true;
}
