/**
 * The shared clock of a wall's tiles (docs/device-protocol.md 2.7.4): the player reads the
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

/** Samples per round, rounds (15 s apart) right after start, then a round every 5 minutes. */
export const CLOCK_SAMPLES = 6;
export const CLOCK_FAST_ROUNDS = 8;
export const CLOCK_FAST_MS = 15_000;
export const CLOCK_RESAMPLE_MS = 5 * 60_000;
/** Samples are kept this long: the best round trip of the last half hour wins (a local clock drifts some ms an hour). */
export const CLOCK_KEEP_MS = 30 * 60_000;
/** A round whose best offset is this far from the kept one means the local clock was set: start over. */
const CLOCK_JUMP_MS = 1000;

/** The pause before the next round after `rounds` rounds. */
export function nextRoundMs(rounds: number): number {
  return rounds < CLOCK_FAST_ROUNDS ? CLOCK_FAST_MS : CLOCK_RESAMPLE_MS;
}

/**
 * The server's clock as seen from here: `now()` is the local clock plus the offset of the
 * kept sample with the least round trip (0 until the first). A round (`sync()`) takes
 * CLOCK_SAMPLES readings in turn; samples older than CLOCK_KEEP_MS are dropped, so a busy
 * moment (a long round trip) is outweighed by a quiet one, as NTP's clock filter does.
 */
export class SharedClock {
  offset = 0;
  /** Round trip of the sample in use (ms); null before the first estimate. */
  rtt: number | null = null;
  syncedAt: number | null = null;
  rounds = 0;
  private kept: { sample: ClockSample; offset: number; rtt: number }[] = [];
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
    this.rounds++;
    const round = bestOffset(taken);
    if (!round) return false;
    const now = this.local();
    const current = this.kept.length > 0 ? this.offset : null;
    if (current !== null && Math.abs(round.offset - current) > CLOCK_JUMP_MS) this.kept = [];
    this.kept = this.kept.filter((k) => now - k.sample.receivedAt <= CLOCK_KEEP_MS);
    for (const sample of taken) this.kept.push({ sample, ...sampleOffset(sample) });
    const best = bestOffset(this.kept.map((k) => k.sample));
    if (!best) return false;
    const moved = Math.abs(best.offset - this.offset) >= 1;
    this.offset = best.offset;
    this.rtt = best.rtt;
    this.syncedAt = now;
    if (moved) for (const listener of this.listeners) listener();
    return true;
  }
}
