import { useEffect, useState } from 'react';

/**
 * One timer per interval for every ticking view (clocks, countdowns): a page of many clocks
 * renders once a tick, all of them in one batch, not once per clock.
 */
const tickers = new Map<number, { listeners: Set<(now: number) => void>; timer: ReturnType<typeof setTimeout> }>();

function subscribeTicks(intervalMs: number, listener: (now: number) => void): () => void {
  let ticker = tickers.get(intervalMs);
  if (!ticker) {
    const listeners = new Set<(now: number) => void>();
    // Ticks align on the interval (clocks change together, on the second).
    const next = () => setTimeout(tick, intervalMs - (Date.now() % intervalMs));
    const tick = () => {
      const now = Date.now();
      for (const l of [...listeners]) l(now);
      if (tickers.get(intervalMs) === created) created.timer = next();
    };
    const created = { listeners, timer: next() };
    ticker = created;
    tickers.set(intervalMs, created);
  }
  const current = ticker;
  current.listeners.add(listener);
  return () => {
    current.listeners.delete(listener);
    if (current.listeners.size === 0 && tickers.get(intervalMs) === current) {
      clearTimeout(current.timer);
      tickers.delete(intervalMs);
    }
  };
}

/** The current time in ms, ticking every `intervalMs` unless a fixed `now` is given. */
export function useNow(fixed: number | undefined, intervalMs = 1000): number {
  const [now, setNow] = useState(() => fixed ?? Date.now());
  useEffect(() => {
    if (fixed !== undefined) return;
    // Catch up if the tick changed since the first render (no render when it did not).
    const fresh = Date.now();
    setNow((prev) => (Math.floor(prev / intervalMs) === Math.floor(fresh / intervalMs) ? prev : fresh));
    return subscribeTicks(intervalMs, setNow);
  }, [fixed, intervalMs]);
  return fixed ?? now;
}

/** Seconds since mount while `active`, updated every `stepMs` (0 and static when inactive). */
export function useElapsed(active: boolean, stepMs = 250): number {
  const [elapsed, setElapsed] = useState(0);
  useEffect(() => {
    if (!active) return;
    const start = Date.now();
    setElapsed(0);
    const timer = setInterval(() => setElapsed((Date.now() - start) / 1000), stepMs);
    return () => clearInterval(timer);
  }, [active, stepMs]);
  return active ? elapsed : 0;
}

/** The index of a playlist item, advancing after each item's duration while `active`. */
export function usePlaylistIndex(durations: number[], active: boolean): [number, () => void] {
  const [index, setIndex] = useState(0);
  const count = durations.length;
  const safe = count === 0 ? 0 : index % count;
  const key = durations.join(',');
  // biome-ignore lint/correctness/useExhaustiveDependencies: the playlist's durations are the key
  useEffect(() => {
    setIndex(0);
  }, [key]);
  useEffect(() => {
    if (!active || count <= 1) return;
    const timer = setTimeout(() => setIndex((i) => (i + 1) % count), Math.max(1, durations[safe] ?? 10) * 1000);
    return () => clearTimeout(timer);
  }, [active, count, safe, durations]);
  return [safe, () => setIndex((i) => (count === 0 ? 0 : (i + 1) % count))];
}
