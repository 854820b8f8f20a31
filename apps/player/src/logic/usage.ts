import type { UsageSample } from '@marquee/protocol';
import type { Journal } from './journal';

/** One usage sample covers this long (docs/device-protocol.md 2.9): quarter hours of the clock. */
export const USAGE_WINDOW_MS = 15 * 60_000;

/** The quarter hour being counted: bytes received and sent since its start. */
export interface UsageWindow {
  start: number;
  rxBytes: number;
  txBytes: number;
}

/** A usage sample as the player journals it (the protocol's, with the defaults filled). */
export type JournaledUsage = Required<UsageSample>;

/**
 * The player's data usage (issue 27): bytes it received (Resource Timing's transferSize of its
 * fetches: manifests, files, calls) and sent (the bodies it uploads), counted per quarter hour
 * of the clock; a quarter hour that has ended and moved any byte becomes one sample in the
 * journal (uploaded like plays, `POST /dapi/v1/usage`). The ICCID is unknown to a browser: null
 * (the server counts it on the card bound to the device).
 */
export class UsageMeter {
  private window: UsageWindow | null;

  constructor(
    private readonly journal: Journal<JournaledUsage>,
    private readonly newId: () => string,
    restored: UsageWindow | null = null,
  ) {
    this.window = restored;
  }

  /** The quarter hour being counted (kept by the runtime so a reload loses nothing). */
  current(): UsageWindow | null {
    return this.window ? { ...this.window } : null;
  }

  /** Counts bytes moved at `now` (ms). */
  async add(now: number, rxBytes: number, txBytes: number): Promise<void> {
    if (!(rxBytes > 0) && !(txBytes > 0)) return;
    await this.close(now);
    const start = Math.floor(now / USAGE_WINDOW_MS) * USAGE_WINDOW_MS;
    this.window ??= { start, rxBytes: 0, txBytes: 0 };
    this.window.rxBytes += Math.max(0, Math.round(rxBytes || 0));
    this.window.txBytes += Math.max(0, Math.round(txBytes || 0));
  }

  /** Journals the quarter hour being counted once it has ended at `now`; returns the sample written, if any. */
  async close(now: number): Promise<JournaledUsage | null> {
    const window = this.window;
    if (!window || now < window.start + USAGE_WINDOW_MS) return null;
    this.window = null;
    if (window.rxBytes === 0 && window.txBytes === 0) return null;
    const sample: JournaledUsage = {
      id: this.newId(),
      start: window.start,
      durationMs: USAGE_WINDOW_MS,
      rxBytes: window.rxBytes,
      txBytes: window.txBytes,
      iccid: null,
    };
    await this.journal.record(sample);
    return sample;
  }
}
