import type { BidRequest, DspBid } from './openrtb.js';
import { parseBidResponse } from './openrtb.js';

/**
 * The HTTP side of external DSPs (issue 29): a bid request POSTed as JSON with the OpenRTB
 * version header, aborted at the DSP's tmax (the auction never waits longer), and the win,
 * loss and billing notices (GET, fire and forget, a few seconds at most).
 */

export interface DspTarget {
  id: string;
  name: string;
  endpoint: string;
  seat: string;
  timeoutMs: number;
}

export type DspOutcome = 'bids' | 'noBid' | 'timeout' | 'invalid' | 'error';

export interface DspAnswer {
  dspId: string;
  outcome: DspOutcome;
  bids: DspBid[];
  /** Milliseconds until the answer (or the abort). */
  ms: number;
  note: string | null;
}

/**
 * Asks one DSP for bids on a request's impressions; never takes longer than its timeout (plus
 * the event loop's turn). The answer is the request's: `answerFor` splits it per impression.
 */
export async function askDsp(dsp: DspTarget, request: BidRequest): Promise<DspAnswer> {
  const started = performance.now();
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), dsp.timeoutMs);
  const ms = () => Math.round(performance.now() - started);
  try {
    const res = await fetch(dsp.endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-openrtb-version': '2.6' },
      body: JSON.stringify(request),
      signal: controller.signal,
    });
    const body = await res.text();
    // An answer read after tmax (a busy event loop fired the abort late) is not taken: the
    // auction never waits for, nor counts, a bid past the DSP's time.
    if (ms() > dsp.timeoutMs) {
      return { dspId: dsp.id, outcome: 'timeout', bids: [], ms: ms(), note: `answered after ${dsp.timeoutMs} ms` };
    }
    const parsed = parseBidResponse(
      { id: request.id, impIds: new Set(request.imp.map((i) => i.id)) },
      res.status,
      body,
    );
    if (parsed.kind === 'bids') return { dspId: dsp.id, outcome: 'bids', bids: parsed.bids, ms: ms(), note: null };
    if (parsed.kind === 'noBid') return { dspId: dsp.id, outcome: 'noBid', bids: [], ms: ms(), note: null };
    return { dspId: dsp.id, outcome: 'invalid', bids: [], ms: ms(), note: parsed.note };
  } catch (error) {
    if (controller.signal.aborted) {
      return { dspId: dsp.id, outcome: 'timeout', bids: [], ms: ms(), note: `no answer within ${dsp.timeoutMs} ms` };
    }
    const note =
      error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : 'error';
    return { dspId: dsp.id, outcome: 'error', bids: [], ms: ms(), note: note.slice(0, 200) };
  } finally {
    clearTimeout(timer);
  }
}

/** A request's answer as one impression's: its bids only (none left of a bidding answer is no bid). */
export function answerFor(answer: DspAnswer, impId: string): DspAnswer {
  if (answer.outcome !== 'bids') return answer;
  const bids = answer.bids.filter((b) => b.impId === impId);
  return { ...answer, outcome: bids.length > 0 ? 'bids' : 'noBid', bids };
}

/** Calls a notice URL (win, loss, billing); errors are the DSP's concern, not the auction's. */
export async function sendNotice(url: string): Promise<boolean> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), 3000);
  try {
    const res = await fetch(url, { method: 'GET', signal: controller.signal });
    await res.arrayBuffer();
    return res.ok;
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

/** Notices in flight at most (the rest wait their turn): a run's thousands of loss notices must not flood a DSP or the process. */
export const NOTICE_CONCURRENCY = 16;
const noticeQueue: string[] = [];
let noticesInFlight = 0;

/** Queues notice URLs; they are sent in the background, NOTICE_CONCURRENCY at a time. */
export function queueNotices(urls: readonly string[]): void {
  noticeQueue.push(...urls);
  while (noticesInFlight < NOTICE_CONCURRENCY && noticeQueue.length > 0) {
    noticesInFlight++;
    void (async () => {
      for (let url = noticeQueue.shift(); url !== undefined; url = noticeQueue.shift()) await sendNotice(url);
      noticesInFlight--;
    })();
  }
}

/** Runs `fn` over `items` with at most `limit` in flight, answers in order. */
export async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]);
    }
  });
  await Promise.all(workers);
  return out;
}
