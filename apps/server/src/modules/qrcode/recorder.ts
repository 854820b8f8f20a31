import {
  appendFileSync,
  createWriteStream,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  type WriteStream,
} from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Executor } from '../../db/client.js';
import { devices, qrcodeScans } from '../../db/schema/index.js';

/** One scan as the redirect saw it (the row of qrcode_scans without its enterprise). */
export interface Scan {
  id: string;
  deviceId: string;
  adId: string;
  layoutId: string;
  componentId: string;
  /** ms since the epoch */
  at: number;
  userAgent: string;
  language: string;
}

export interface ScanRecorderOptions {
  db: Executor;
  /** Where scans the memory cannot hold wait for the database (`<DATA_DIR>/qrcode`). */
  spillDir: string;
  log: Pick<Logger, 'warn' | 'info' | 'error'>;
  /** Scans held in memory before they go to the spill file (default 20,000). */
  maxQueued?: number;
  /** Rows of one INSERT (default 500). */
  batchSize?: number;
  /** How soon after a scan its batch is written (default 200 ms). */
  flushDelayMs?: number;
}

const SPILL = 'scans.spill.ndjson';
const DRAINING = /^scans\.draining-\d+-\d+\.ndjson$/;

/**
 * Scans are written in batches, never on the redirect's path (docs/ARCHITECTURE.md "QR code
 * events"): `record` only queues. A writer takes up to `batchSize` scans at a time; when the
 * database fails or is slow, the batch stays and is retried with a growing pause (up to 5 s),
 * and new scans keep coming: past `maxQueued` in memory they are appended to a spill file under
 * DATA_DIR instead (never dropped, never a slower redirect). Once the memory queue is empty the
 * spill file is renamed and written in batches, then deleted. Rows carry their id, so a batch
 * written twice (an answer lost, a spill file read again after a crash) counts once. On close,
 * what the database does not take within the grace period is spilled; the next start writes it.
 */
export class ScanRecorder {
  private readonly queue: Scan[] = [];
  private spill: WriteStream | null = null;
  private spilled = 0;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private failures = 0;
  private closed = false;
  /** (The bench lowers it to show the spill file at work.) */
  maxQueued: number;
  readonly batchSize: number;
  readonly flushDelayMs: number;
  /** Scans written (tests and the bench read it). */
  written = 0;

  constructor(private readonly o: ScanRecorderOptions) {
    this.maxQueued = o.maxQueued ?? 20_000;
    this.batchSize = o.batchSize ?? 500;
    this.flushDelayMs = o.flushDelayMs ?? 200;
  }

  /** Scans waiting: in memory and in the spill file. */
  pending(): number {
    return this.queue.length + this.spilled;
  }

  /** Spill files left by an earlier run (or a crash) are written first. */
  start(): void {
    if (!existsSync(this.o.spillDir)) return;
    const old = readdirSync(this.o.spillDir).filter((f) => f === SPILL || DRAINING.test(f));
    if (old.length > 0) {
      for (const f of old) this.spilled += countLines(join(this.o.spillDir, f));
      this.schedule(0);
    }
  }

  record(scan: Scan): void {
    if (this.queue.length < this.maxQueued && this.spilled === 0) {
      this.queue.push(scan);
    } else {
      // Memory is full (or older scans already wait on disk: they keep their order).
      if (!this.spill) {
        mkdirSync(this.o.spillDir, { recursive: true });
        this.spill = createWriteStream(join(this.o.spillDir, SPILL), { flags: 'a' });
      }
      this.spill.write(`${JSON.stringify(scan)}\n`);
      this.spilled++;
    }
    if (this.queue.length >= this.batchSize) this.schedule(0);
    else this.schedule(this.flushDelayMs);
  }

  private schedule(delayMs: number): void {
    if (this.closed || this.running) return;
    if (this.timer && delayMs > 0) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.running = this.drain().finally(() => {
        this.running = null;
        // Batches a flush delay apart (sooner when a full batch waits), slower after failures.
        if (this.pending() > 0 && !this.closed) {
          this.schedule(
            this.failures > 0 ? this.backoff() : this.queue.length >= this.batchSize ? 0 : this.flushDelayMs,
          );
        }
      });
    }, delayMs);
    this.timer.unref?.();
  }

  private backoff(): number {
    return this.failures === 0 ? 0 : Math.min(5000, 100 * 2 ** Math.min(this.failures, 6));
  }

  /** Writes until memory and spill are empty, or the database fails (then the caller retries later). */
  private async drain(): Promise<void> {
    try {
      // What waits now, then only full batches: the rest waits for the next turn (few, large inserts).
      let first = true;
      while (this.queue.length > 0 && (first || this.queue.length >= this.batchSize)) {
        first = false;
        const batch = this.queue.slice(0, this.batchSize);
        await this.write(batch);
        this.queue.splice(0, batch.length);
        this.failures = 0;
      }
      if (this.queue.length === 0 && this.spilled > 0) await this.drainSpill();
    } catch (error) {
      this.failures++;
      if (this.failures === 1 || this.failures % 20 === 0) {
        this.o.log.warn({ err: error, pending: this.pending() }, 'qrcode scans not written yet; retrying');
      }
    }
  }

  private async drainSpill(): Promise<void> {
    if (this.spill) {
      const stream = this.spill;
      this.spill = null;
      await new Promise<void>((resolve) => stream.end(resolve));
      if (existsSync(join(this.o.spillDir, SPILL))) {
        renameSync(
          join(this.o.spillDir, SPILL),
          join(this.o.spillDir, `scans.draining-${Date.now()}-${process.pid}.ndjson`),
        );
      }
    } else if (existsSync(join(this.o.spillDir, SPILL))) {
      renameSync(
        join(this.o.spillDir, SPILL),
        join(this.o.spillDir, `scans.draining-${Date.now()}-${process.pid}.ndjson`),
      );
    }
    for (const file of readdirSync(this.o.spillDir)
      .filter((f) => DRAINING.test(f))
      .sort()) {
      const path = join(this.o.spillDir, file);
      const scans = readFileSync(path, 'utf8')
        .split('\n')
        .filter((line) => line.trim() !== '')
        .flatMap((line) => {
          try {
            return [JSON.parse(line) as Scan];
          } catch {
            return [];
          }
        });
      for (let i = 0; i < scans.length; i += this.batchSize) await this.write(scans.slice(i, i + this.batchSize));
      rmSync(path);
      this.spilled = Math.max(0, this.spilled - scans.length);
      this.o.log.info({ scans: scans.length }, 'qrcode scans written from the spill file');
    }
    if (!this.spill) this.spilled = 0;
  }

  /**
   * One statement a batch, one parameter (the batch as JSON): building it costs the redirect's
   * event loop next to nothing. The enterprise is the device's (a device deleted since its link
   * was made: the scan is not counted); an id already written is skipped.
   */
  private async write(batch: Scan[]): Promise<void> {
    if (batch.length === 0) return;
    await this.o.db.execute(sql`
      insert into ${qrcodeScans} (id, ent_id, device_id, ad_id, layout_id, component_id, scanned_at, user_agent, language)
      select u.id, d.ent_id, u."deviceId", u."adId", u."layoutId", u."componentId", to_timestamp(u.at / 1000.0),
             u."userAgent", u.language
      from jsonb_to_recordset(${JSON.stringify(batch)}::jsonb) as u(
        id text, "deviceId" text, "adId" text, "layoutId" text, "componentId" text, at double precision,
        "userAgent" text, language text)
      join ${devices} d on d.id = u."deviceId"
      on conflict (id) do nothing`);
    this.written += batch.length;
  }

  /** Writes what is pending (tests; the bench). Resolves when memory and spill are empty, or rejects after `timeoutMs`. */
  async flush(timeoutMs = 10_000): Promise<void> {
    const until = Date.now() + timeoutMs;
    while (this.pending() > 0 || this.running) {
      if (Date.now() > until) throw new Error(`qrcode scans still pending: ${this.pending()}`);
      if (this.running) await this.running;
      else {
        if (this.timer) clearTimeout(this.timer);
        this.timer = null;
        this.running = this.drain().finally(() => {
          this.running = null;
        });
        await this.running;
        if (this.pending() > 0) await new Promise((r) => setTimeout(r, this.backoff()));
      }
    }
  }

  /** Stops the writer: what is not written within `graceMs` goes to the spill file for the next start. */
  async close(graceMs = 3000): Promise<void> {
    try {
      await this.flush(graceMs);
    } catch {
      // The database did not take everything: keep it on disk.
    }
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.running) await this.running.catch(() => {});
    if (this.spill) {
      const stream = this.spill;
      this.spill = null;
      await new Promise<void>((resolve) => stream.end(resolve));
    }
    if (this.queue.length > 0) {
      mkdirSync(this.o.spillDir, { recursive: true });
      appendFileSync(join(this.o.spillDir, SPILL), this.queue.map((s) => `${JSON.stringify(s)}\n`).join(''));
      this.o.log.warn({ scans: this.queue.length }, 'qrcode scans kept in the spill file for the next start');
      this.queue.length = 0;
    }
  }
}

function countLines(path: string): number {
  try {
    return readFileSync(path, 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '').length;
  } catch {
    return 0;
  }
}
