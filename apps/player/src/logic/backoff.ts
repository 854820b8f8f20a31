/**
 * Retry delays: `baseMs` doubling per attempt up to `maxMs`, with full jitter in the upper half
 * (so a fleet that lost the server together does not come back together). `random` in [0, 1).
 */
export function backoffDelay(attempt: number, random: number, baseMs = 1000, maxMs = 60_000): number {
  const ceiling = Math.min(maxMs, baseMs * 2 ** Math.max(0, Math.min(attempt, 30)));
  return Math.round(ceiling / 2 + (ceiling / 2) * random);
}

/** The delays of the first `count` attempts (for a status page or a test). */
export function backoffSchedule(count: number, random: () => number, baseMs = 1000, maxMs = 60_000): number[] {
  return Array.from({ length: count }, (_, attempt) => backoffDelay(attempt, random(), baseMs, maxMs));
}
