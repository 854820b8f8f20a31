/**
 * The shared clock of a wall's tiles (docs/device-protocol.md 2.7.2): the player reads the
 * server's time (`GET /dapi/v1/time`) a few times, NTP-style, and keeps the offset of the sample
 * with the least round trip: offset = server + rtt / 2 - local (the answer is assumed halfway).
 */

/** One reading: the local clock when the request left and when the answer came, and the server's time in it. */
export interface ClockSample {
  sentAt: number;
  receivedAt: number;
  server: number;
}

/** The offset (server minus local, ms) a sample gives and its round trip. */
export function sampleOffset(sample: ClockSample): { offset: number; rtt: number } {
  const rtt = Math.max(0, sample.receivedAt - sample.sentAt);
  return { offset: sample.server + rtt / 2 - sample.receivedAt, rtt };
}

/** The offset of the sample with the least round trip (its error is at most rtt / 2), or null without samples. */
export function bestOffset(samples: readonly ClockSample[]): { offset: number; rtt: number } | null {
  let best: { offset: number; rtt: number } | null = null;
  for (const sample of samples) {
    const candidate = sampleOffset(sample);
    if (!best || candidate.rtt < best.rtt) best = candidate;
  }
  return best;
}

/** Samples per estimate, and the pause between estimates (a local clock drifts some ms an hour). */
export const CLOCK_SAMPLES = 6;
export const CLOCK_RESAMPLE_MS = 5 * 60_000;

/**
 * The server's clock as seen from here: `now()` is the local clock plus the best estimate of
 * the offset (0 until the first estimate). `sync()` takes CLOCK_SAMPLES readings in turn.
 */
export class SharedClock {
  offset = 0;
  /** Round trip of the sample in use (ms); null before the first estimate. */
  rtt: number | null = null;
  syncedAt: number | null = null;
  private listeners = new Set<() => void>();

  constructor(
    private readonly readServer: () => Promise<number>,
    private readonly local: () => number = () => Date.now(),
  ) {}

  now(): number {
    return this.local() + this.offset;
  }

  /** Called after an estimate that moved the clock (a tile then re-reads where the wall is). */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  async sync(samples = CLOCK_SAMPLES): Promise<boolean> {
    const taken: ClockSample[] = [];
    for (let i = 0; i < samples; i++) {
      const sentAt = this.local();
      try {
        const server = await this.readServer();
        taken.push({ sentAt, receivedAt: this.local(), server });
      } catch {
        // Offline: keep the estimate we have.
      }
    }
    const best = bestOffset(taken);
    if (!best) return false;
    const moved = Math.abs(best.offset - this.offset) >= 1;
    this.offset = best.offset;
    this.rtt = best.rtt;
    this.syncedAt = this.local();
    if (moved) for (const listener of this.listeners) listener();
    return true;
  }
}
