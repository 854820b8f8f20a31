import { useEffect, useState } from 'react';

/** The modules loaded so far, by their loader: a later render has them at once. */
const loaded = new Map<() => Promise<unknown>, unknown>();

/** Loads a module (a dynamic import) and keeps it for `useModule`. */
export async function preload<T>(load: () => Promise<T>): Promise<T> {
  const module = await load();
  loaded.set(load, module);
  return module;
}

/**
 * A module loaded on demand, or null until it is (or while `wanted` is false). Not React.lazy:
 * a Suspense boundary reveals content that resolved after its fallback only some time later
 * (React throttles reveals), which would hold back the editor's first frame.
 */
export function useModule<T>(
  load: () => Promise<T>,
  wanted = true,
): { module: T | null; failed: boolean; retry: () => void } {
  const [module, setModule] = useState<T | null>(() => (loaded.get(load) as T | undefined) ?? null);
  const [failed, setFailed] = useState(false);
  const [attempt, setAttempt] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a retry is a new attempt
  useEffect(() => {
    if (module || !wanted) return;
    let live = true;
    setFailed(false);
    preload(load).then(
      (m) => live && setModule(() => m),
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, [load, wanted, module, attempt]);
  return { module, failed, retry: () => setAttempt((n) => n + 1) };
}
