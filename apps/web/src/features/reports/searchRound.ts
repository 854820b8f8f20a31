import { useCallback, useState } from 'react';

/**
 * A report asked again (issue 25): Search and Reset fetch the figures again, even when the
 * filters are those already shown. The filters alone key the report's query, so a Search that
 * leaves them as they are would answer from the cache (fresh for the client's stale time) and
 * send nothing. `round` counts the Searches and Resets of the page and goes into the query's
 * key; with `keepPreviousData` the figures shown stay visible while the new ones load.
 * `again(fn)` is `fn` counting a round first (both state updates land in one render: one fetch).
 */
export function useSearchRound() {
  const [round, setRound] = useState(0);
  const again = useCallback(
    <A extends unknown[]>(fn: (...args: A) => void) =>
      (...args: A) => {
        setRound((r) => r + 1);
        fn(...args);
      },
    [],
  );
  return { round, again };
}
