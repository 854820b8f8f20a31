/**
 * Remembers (appid, uuid, sequence) for as long as the call's timestamp is inside the
 * window, so a captured call cannot be sent again. Bounded: when full, the oldest entry is
 * dropped and the `floor` rises to its timestamp; calls at or below the floor are refused
 * as replays, because the guard can no longer prove they are new. Honest clients send
 * fresh timestamps, so only a flood narrows the accepted window; a replay never passes.
 */
export class ReplayGuard {
  private readonly seen = new Map<string, { timestamp: number; expires: number }>();
  private floor = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly windowMs: number,
    private readonly maxEntries = 200_000,
  ) {}

  /** Records the call; false when it was already seen (or cannot be proven new). */
  accept(key: string, timestamp: number, now: number): boolean {
    this.prune(now);
    if (timestamp <= this.floor || this.seen.has(key)) return false;
    this.seen.set(key, { timestamp, expires: timestamp + this.windowMs });
    if (this.seen.size > this.maxEntries) {
      const [oldestKey, oldest] = this.seen.entries().next().value as [string, { timestamp: number }];
      this.seen.delete(oldestKey);
      this.floor = Math.max(this.floor, oldest.timestamp);
    }
    return true;
  }

  get size(): number {
    return this.seen.size;
  }

  /** Drops expired entries from the head; insertion order is close to expiry order. */
  private prune(now: number): void {
    for (const [key, entry] of this.seen) {
      if (entry.expires >= now) break;
      this.seen.delete(key);
    }
  }
}
