import { useEffect, useState } from 'react';

/** The current time in ms, ticking every `intervalMs` unless a fixed `now` is given. */
export function useNow(fixed: number | undefined, intervalMs = 1000): number {
  const [now, setNow] = useState(() => fixed ?? Date.now());
  useEffect(() => {
    if (fixed !== undefined) return;
    setNow(Date.now());
    // Align ticks on the second so clocks change together.
    let timer: ReturnType<typeof setTimeout>;
    const tick = () => {
      setNow(Date.now());
      timer = setTimeout(tick, intervalMs - (Date.now() % intervalMs));
    };
    timer = setTimeout(tick, intervalMs - (Date.now() % intervalMs));
    return () => clearTimeout(timer);
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
