import { createHash, randomUUID } from 'node:crypto';
import {
  type DeviceCredentials,
  type DeviceManifest,
  type DownloadReport,
  deviceManifestSchema,
  type Heartbeat,
  MANIFEST_PATH,
  type ManifestItem,
  type OfflinePackageIndex,
  PLAYS_PATH,
  type PlayEvent,
  pickRtbItem,
  pickRtbRegionItem,
  playsAnswerSchema,
  type RtbTurn,
  rtbRegionsOf,
  rtbTurnOf,
  scheduleAllows,
  USAGE_PATH,
  type UsageSample,
  usageAnswerSchema,
  wallClock,
} from '@marquee/protocol';
import { readOfflinePackage } from './offline.js';

/**
 * What a headless player plays (docs/device-protocol.md 2.7, 2.8), for the demo fleet and
 * tests: it fetches the device's manifest, downloads every file and checks its SHA-256 and
 * size (switching to a manifest only once all of it is verified, as the browser player does),
 * reports the downloads and ready ads in its heartbeats, "plays" the items in turn (a timer
 * per material, no screen), writes one play event per material when it ends, and uploads the
 * journal in batches, keeping what the server did not answer for the next upload. An RTB
 * slot's turn (2.7.2) cuts in within a second of its start and plays to its end; while a layout
 * with RTB regions plays, each region's turns "show" in it (a play with the layout and the
 * component, completed at the turn's end, interrupted when the layout leaves first).
 */

export interface ContentPlayerOptions {
  /** The server's base URL. */
  server: string;
  credentials: () => DeviceCredentials | null;
  /** How often the journal is uploaded (seconds, default 15). */
  uploadEverySec?: number;
  /**
   * How often the manifest is fetched besides syncContent commands (seconds, default 60, as the
   * browser player: RTB turns are decided minutes ahead and reach a screen this way); 0: never.
   */
  manifestPollSec?: number;
  /** Called after each upload with the number of plays the server stored (accepted). */
  onUploaded?: (accepted: number) => void;
  /** Called after each usage upload the server answered, with the samples sent and the answer. */
  onUsageUploaded?: (
    samples: readonly Required<UsageSample>[],
    answer: { accepted: string[]; duplicate: string[]; rejected: string[] },
  ) => void;
  /** Called when a manifest is complete and in use. */
  onManifest?: (manifest: DeviceManifest) => void;
  /**
   * Called when the content report changes (a new manifest being fetched, then in use), so the
   * player can send a heartbeat at once, as the browser player does: the server times the
   * download from the two reports (device report's mean download time).
   */
  onReportChange?: () => void;
}

const MAX_JOURNAL = 5000;
/** One usage sample per quarter hour of the clock (docs/device-protocol.md 2.9), as the browser player counts. */
export const USAGE_WINDOW_MS = 15 * 60_000;
/** Samples kept while the server does not take them (a server without the call: about ten days). */
const MAX_USAGE_JOURNAL = 1000;

/**
 * The items to play at `now`, by the roles' order (the browser player's itemsToPlay without
 * openings): emergency ads pre-empt; else an RTB slot's item whose turn is live (pickRtbItem:
 * a decided turn, else a slot's fallback in its turn), alone; else the loop ads (a per-day ad
 * at its cap sits out); else the device's own content; else the fallback ads.
 */
export function itemsToPlay(
  manifest: DeviceManifest,
  now: Date,
  playedToday: ReadonlyMap<string, number>,
): ManifestItem[] {
  const playable = manifest.items.filter((i) => scheduleAllows(i.schedule, now, manifest.timeZone));
  const emergency = playable.filter((i) => i.role === 'emergency');
  if (emergency.length > 0) return emergency;
  const rtb = pickRtbItem(
    playable.filter((i) => i.role === 'rtb'),
    now.getTime(),
  );
  if (rtb) return [rtb];
  const loop = playable.filter(
    (i) => i.role === 'loop' && (i.maxPerDay == null || !i.adId || (playedToday.get(i.adId) ?? 0) < i.maxPerDay),
  );
  if (loop.length > 0) return loop;
  const own = playable.filter((i) => !i.role);
  if (own.length > 0) return own;
  return playable.filter((i) => i.role === 'fallback');
}

export class ContentPlayer {
  /** The manifest in use (all its files verified). */
  manifest: DeviceManifest | null = null;
  /** The manifest being fetched, until its files are verified. */
  private pendingVersion: string | null = null;
  /** The download state of each material, by id. */
  readonly downloads = new Map<string, DownloadReport>();
  /** Verified files: material id -> sha256. */
  private readonly verified = new Map<string, string>();
  /** Plays not yet answered by the server. */
  readonly journal: PlayEvent[] = [];
  /** Plays the server stored. */
  uploaded = 0;
  /**
   * The data this player moved (issue 27): the bodies it received (manifests, files, answers)
   * and sent (uploads), in bytes, counted per quarter hour; ended ones become samples, uploaded
   * like plays. Headers are not counted (only what was actually read or written is).
   */
  private usageWindow: { start: number; rxBytes: number; txBytes: number } | null = null;
  /** Usage samples not yet answered by the server. */
  readonly usageJournal: Required<UsageSample>[] = [];
  private syncing: Promise<void> | null = null;
  private syncAgain = false;
  private playTimer: NodeJS.Timeout | null = null;
  private uploadTimer: NodeJS.Timeout | null = null;
  /** Once a second: has an RTB turn begun (it cuts in)? */
  private turnTimer: NodeJS.Timeout | null = null;
  private pollTimer: NodeJS.Timeout | null = null;
  /** The material playing now: cut it (an interrupted play) when an RTB turn begins. */
  private current: { cut: () => void } | null = null;
  /** The RTB turn playing now, and the latest ones played (a turn plays once). */
  private turn: RtbTurn | null = null;
  private readonly turnsPlayed = new Set<string>();
  /** The item on screen now (a layout hosts RTB regions while it is). */
  private showing: ManifestItem | null = null;
  /** Each RTB region's turn showing now, by component id. */
  private readonly regionTurns = new Map<string, { key: string; item: ManifestItem; start: number; end: number }>();
  private uploading: Promise<void> | null = null;
  private cursor = 0;
  private day = '';
  private readonly playedToday = new Map<string, number>();
  private running = false;

  constructor(readonly options: ContentPlayerOptions) {}

  private auth(): string {
    const c = this.options.credentials();
    if (!c) throw new Error('not activated');
    return `Basic ${Buffer.from(`${c.username}:${c.password}`).toString('base64')}`;
  }

  private async envelope(path: string, init: RequestInit): Promise<unknown> {
    if (typeof init.body === 'string') this.countUsage(0, Buffer.byteLength(init.body));
    const response = await fetch(new URL(path, this.options.server), {
      ...init,
      headers: { authorization: this.auth(), 'accept-language': 'en-US', ...(init.headers ?? {}) },
    });
    const text = await response.text();
    this.countUsage(Buffer.byteLength(text), 0);
    let body: { code: number; message: string; payload: unknown };
    try {
      body = JSON.parse(text);
    } catch {
      throw new Error(`${path}: HTTP ${response.status}`);
    }
    if (body.code !== 0) throw new Error(`${path}: ${body.code} ${body.message}`);
    return body.payload;
  }

  /** Counts bytes received and sent now, closing the quarter hour that ended. */
  private countUsage(rxBytes: number, txBytes: number, now = Date.now()): void {
    this.closeUsage(now);
    if (rxBytes <= 0 && txBytes <= 0) return;
    this.usageWindow ??= { start: Math.floor(now / USAGE_WINDOW_MS) * USAGE_WINDOW_MS, rxBytes: 0, txBytes: 0 };
    this.usageWindow.rxBytes += rxBytes;
    this.usageWindow.txBytes += txBytes;
  }

  /** Journals the quarter hour being counted once it has ended (a quarter hour that moved nothing writes nothing). */
  private closeUsage(now = Date.now()): void {
    const window = this.usageWindow;
    if (!window || now < window.start + USAGE_WINDOW_MS) return;
    this.usageWindow = null;
    this.usageJournal.push({ id: randomUUID(), durationMs: USAGE_WINDOW_MS, iccid: null, ...window });
    if (this.usageJournal.length > MAX_USAGE_JOURNAL) {
      this.usageJournal.splice(0, this.usageJournal.length - MAX_USAGE_JOURNAL);
    }
  }

  /** The heartbeat's content report. */
  report(): Heartbeat['content'] {
    const manifest = this.manifest;
    const readyAds = manifest
      ? [...new Set(manifest.items.flatMap((i) => (i.adId && this.itemReady(i) ? [i.adId] : [])))]
      : [];
    return {
      manifestVersion: manifest?.version ?? null,
      pendingVersion: this.pendingVersion,
      downloads: [...this.downloads.values()].slice(0, 200),
      readyAds,
    };
  }

  private itemReady(item: ManifestItem): boolean {
    return item.materialIds.every((id) => this.verified.has(id));
  }

  /**
   * Fetches the manifest and downloads what is missing; resolves once this sync is done (a
   * sync asked for meanwhile runs once more after it). Errors are left for the next sync.
   */
  sync(): Promise<void> {
    if (this.syncing) {
      this.syncAgain = true;
      return this.syncing;
    }
    this.syncing = (async () => {
      do {
        this.syncAgain = false;
        await this.syncOnce();
      } while (this.syncAgain);
    })().finally(() => {
      this.syncing = null;
    });
    return this.syncing;
  }

  private async syncOnce(): Promise<void> {
    const manifest = deviceManifestSchema.parse(await this.envelope(MANIFEST_PATH, { method: 'GET' }));
    if (manifest.version === this.manifest?.version) return;
    this.pendingVersion = manifest.version;
    this.options.onReportChange?.();
    let complete = true;
    for (const file of manifest.files) {
      if (this.verified.get(file.materialId) === file.sha256) continue;
      if (!(await this.download(file))) complete = false;
    }
    if (!complete) return; // the next sync tries again; the manifest in use keeps playing
    this.manifest = manifest;
    this.pendingVersion = null;
    this.cursor = 0;
    this.options.onManifest?.(manifest);
    this.options.onReportChange?.();
  }

  private async download(file: DeviceManifest['files'][number]): Promise<boolean> {
    const base = { materialId: file.materialId, size: file.size };
    this.downloads.set(file.materialId, { ...base, state: 'downloading', bytes: 0, at: Date.now() });
    try {
      const response = await fetch(new URL(file.url, this.options.server));
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      const data = Buffer.from(await response.arrayBuffer());
      this.countUsage(data.length, 0);
      const sha256 = createHash('sha256').update(data).digest('hex');
      if (data.length !== file.size || sha256 !== file.sha256) throw new Error('checksum mismatch');
      this.verified.set(file.materialId, sha256);
      this.downloads.set(file.materialId, { ...base, state: 'successful', bytes: data.length, at: Date.now() });
      return true;
    } catch (error) {
      this.downloads.set(file.materialId, {
        ...base,
        state: 'failed',
        bytes: 0,
        error: String((error as Error).message ?? error),
        at: Date.now(),
      });
      return false;
    }
  }

  /**
   * Plays an offline package (docs/device-protocol.md 2.11) from `path`: every file is checked
   * against the manifest first (readOfflinePackage), then its manifest is the one in use, as if
   * downloaded. Plays are journaled as always and uploaded whenever the server answers; once it
   * does, the minute's manifest fetch brings the server's content. A package made for another
   * device is refused (its plays would be counted on the wrong screen).
   */
  async loadPackage(path: string): Promise<OfflinePackageIndex> {
    const index = await readOfflinePackage(path);
    const mine = this.options.credentials()?.deviceId;
    if (mine && index.deviceId !== mine) {
      throw new Error(`offline package: made for device ${index.deviceId}, not this one (${mine})`);
    }
    const at = Date.now();
    for (const f of index.manifest.files) {
      this.verified.set(f.materialId, f.sha256);
      this.downloads.set(f.materialId, {
        materialId: f.materialId,
        size: f.size,
        state: 'successful',
        bytes: f.size,
        at,
      });
    }
    this.manifest = index.manifest;
    this.pendingVersion = null;
    this.cursor = 0;
    this.options.onManifest?.(index.manifest);
    this.options.onReportChange?.();
    return index;
  }

  /** Starts playing and uploading (idempotent). */
  start(): void {
    if (this.running) return;
    this.running = true;
    const every = (this.options.uploadEverySec ?? 15) * 1000;
    this.uploadTimer = setInterval(() => void this.upload(), every);
    this.turnTimer = setInterval(() => this.watchTurns(), 1000);
    const poll = (this.options.manifestPollSec ?? 60) * 1000;
    if (poll > 0) this.pollTimer = setInterval(() => void this.sync().catch(() => undefined), poll);
    this.next();
  }

  /** The items to play now, and the RTB turn among them if one is live. */
  private choose(now: Date): { manifest: DeviceManifest; items: ManifestItem[]; turn: RtbTurn | null } | null {
    const manifest = this.manifest;
    if (!manifest) return null;
    let items = itemsToPlay(manifest, now, this.today(now));
    let turn = items.length === 1 ? rtbTurnOf(items[0], now.getTime()) : null;
    if (turn && this.turnsPlayed.has(turn.key)) {
      // That turn played to its end (a timer may fire a hair early): the loop goes on.
      const rest = manifest.items.filter((i) => i.role !== 'rtb');
      items = itemsToPlay({ ...manifest, items: rest }, now, this.today(now));
      turn = null;
    }
    return items.length > 0 ? { manifest, items, turn } : null;
  }

  /**
   * An RTB turn that began (docs/device-protocol.md 2.7.2) pre-empts what plays (a loop ad, the
   * own layout: cut, an interrupted play) within a second of its start, as the browser player
   * does; a turn already playing (or played) goes on.
   */
  private watchTurns(): void {
    if (!this.running) return;
    this.watchRegions(Date.now());
    const now = new Date();
    // A turn at its end finishes on its own timer (a completed play), due this very moment.
    if (this.turn && now.getTime() >= this.turn.end) return;
    const chosen = this.choose(now);
    if (!chosen?.turn || chosen.turn.key === this.turn?.key) return;
    if (this.playTimer) clearTimeout(this.playTimer);
    this.playTimer = null;
    this.current?.cut();
    this.current = null;
    this.next();
  }

  /** Plays the next item: one material after the other, a play event at the end of each. */
  private next(): void {
    if (!this.running) return;
    const chosen = this.choose(new Date());
    if (!chosen) {
      this.turn = null;
      this.showing = null;
      this.watchRegions(Date.now());
      this.playTimer = setTimeout(() => this.next(), 5000);
      return;
    }
    const { manifest, items, turn } = chosen;
    let item: ManifestItem;
    this.turn = turn;
    if (turn) {
      item = items[0];
      this.turnsPlayed.add(turn.key);
      // Only turns live now can come back: the latest few are enough.
      if (this.turnsPlayed.size > 64) this.turnsPlayed.delete(this.turnsPlayed.values().next().value as string);
    } else {
      item = items[this.cursor % items.length];
      this.cursor = (this.cursor + 1) % Math.max(1, items.length);
    }
    this.showing = item;
    this.watchRegions(Date.now());
    const files = new Map(manifest.files.map((f) => [f.materialId, f]));
    const document = item.document as { pages?: { duration?: number }[] } | null;
    // A layout plays as one piece: its pages' durations; a playlist material by material.
    const steps: { materialId: string | null; ms: number }[] =
      document && Array.isArray(document.pages) && document.pages.length > 0
        ? [
            {
              materialId: null,
              ms: document.pages.reduce((s, p) => s + Math.max(1, p.duration ?? item.durationSec), 0) * 1000,
            },
          ]
        : item.materialIds.map((id) => ({ materialId: id, ms: (files.get(id)?.duration ?? item.durationSec) * 1000 }));
    // An RTB turn's content plays once from now to the turn's end: the last material stays until
    // then, one longer than the turn is cut there; both are completed plays (the turn ran its course).
    const endsAt = turn?.end ?? null;
    const play = (index: number) => {
      this.current = null;
      if (!this.running) return;
      const step = steps[index];
      const start = Date.now();
      if (!step || (endsAt !== null && start >= endsAt)) {
        if (item.adId) this.playedToday.set(item.adId, (this.playedToday.get(item.adId) ?? 0) + 1);
        if (endsAt !== null && start < endsAt) {
          this.playTimer = setTimeout(() => this.next(), endsAt - start);
          return;
        }
        return this.next();
      }
      const ms =
        endsAt === null ? step.ms : index === steps.length - 1 ? endsAt - start : Math.min(step.ms, endsAt - start);
      const event = (outcome: PlayEvent['outcome']): PlayEvent => ({
        id: randomUUID(),
        materialId: step.materialId,
        layoutId: item.layoutId,
        componentId: null,
        adId: item.adId,
        start,
        durationMs: Date.now() - start,
        outcome,
      });
      this.current = { cut: () => this.record(event('interrupted')) };
      this.playTimer = setTimeout(() => {
        this.record(event('completed'));
        play(index + 1);
      }, ms);
    };
    play(0);
  }

  /**
   * The RTB regions of the layout on screen (docs/device-protocol.md 2.7.2): a region's turn
   * that ended while its layout stayed is a completed play; one whose layout left first is
   * interrupted; a turn live now (pickRtbRegionItem) starts showing (again, when its layout
   * comes back within it, as the browser player's region does).
   */
  private watchRegions(now: number): void {
    const manifest = this.manifest;
    const host = this.showing?.document ? this.showing : null;
    const regions = manifest && host ? rtbRegionsOf(manifest.items, host.layoutId) : [];
    const here = new Set(regions.map((r) => r.componentId));
    for (const [componentId, shown] of this.regionTurns) {
      const ended = now >= shown.end;
      if (!ended && here.has(componentId)) continue;
      this.regionTurns.delete(componentId);
      const until = Math.min(now, shown.end);
      this.record({
        id: randomUUID(),
        materialId: shown.item.materialIds[0] ?? null,
        layoutId: host?.layoutId ?? shown.item.rtb?.region?.layoutId ?? null,
        componentId,
        adId: shown.item.adId,
        start: shown.start,
        durationMs: Math.max(0, until - shown.start),
        outcome: ended ? 'completed' : 'interrupted',
      });
    }
    if (!manifest || !host) return;
    const items = manifest.items.filter(
      (i) => i.role === 'rtb' && scheduleAllows({ ...i.schedule, from: null, until: null }, now, manifest.timeZone),
    );
    for (const region of regions) {
      const item = pickRtbRegionItem(items, region, now);
      const turn = item ? rtbTurnOf(item, now) : null;
      if (!item || !turn || this.regionTurns.get(region.componentId)?.key === turn.key) continue;
      this.regionTurns.set(region.componentId, { key: turn.key, item, start: now, end: turn.end });
    }
  }

  private today(now: Date): ReadonlyMap<string, number> {
    const day = wallClock(now, this.manifest?.timeZone).day;
    if (day !== this.day) {
      this.day = day;
      this.playedToday.clear();
    }
    return this.playedToday;
  }

  private record(event: PlayEvent): void {
    this.journal.push(event);
    if (this.journal.length > MAX_JOURNAL) this.journal.splice(0, this.journal.length - MAX_JOURNAL);
  }

  /** Uploads the journal (up to 1,000 events a batch); keeps what the server did not answer. */
  upload(): Promise<void> {
    if (this.uploading) return this.uploading;
    this.uploading = (async () => {
      while (this.journal.length > 0 && this.options.credentials()) {
        const batch = this.journal.slice(0, 1000);
        let answer: ReturnType<typeof playsAnswerSchema.parse>;
        try {
          answer = playsAnswerSchema.parse(
            await this.envelope(PLAYS_PATH, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ events: batch }),
            }),
          );
        } catch {
          return; // offline or refused: the journal keeps them for the next upload
        }
        const done = new Set([...answer.accepted, ...answer.duplicate, ...answer.rejected]);
        const left = this.journal.filter((e) => !done.has(e.id));
        this.journal.splice(0, this.journal.length, ...left);
        this.uploaded += answer.accepted.length;
        this.options.onUploaded?.(answer.accepted.length);
        if (done.size === 0) return;
      }
    })()
      .then(() => this.uploadUsage())
      .finally(() => {
        this.uploading = null;
      });
    return this.uploading;
  }

  /**
   * Uploads the usage samples (`POST /dapi/v1/usage`, 2.9) and keeps what the server did not
   * answer: a server without the call yet fails the upload, and the samples wait.
   */
  private async uploadUsage(): Promise<void> {
    this.closeUsage();
    while (this.usageJournal.length > 0 && this.options.credentials()) {
      const batch = this.usageJournal.slice(0, 1000);
      let answer: ReturnType<typeof usageAnswerSchema.parse>;
      try {
        answer = usageAnswerSchema.parse(
          await this.envelope(USAGE_PATH, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ samples: batch }),
          }),
        );
      } catch {
        return;
      }
      this.options.onUsageUploaded?.(batch, answer);
      const done = new Set([...answer.accepted, ...answer.duplicate, ...answer.rejected]);
      const left = this.usageJournal.filter((s) => !done.has(s.id));
      this.usageJournal.splice(0, this.usageJournal.length, ...left);
      if (done.size === 0) return;
    }
  }

  /** Stops playing; uploads what the journal holds once more. */
  async stop(): Promise<void> {
    this.running = false;
    if (this.playTimer) clearTimeout(this.playTimer);
    if (this.uploadTimer) clearInterval(this.uploadTimer);
    if (this.turnTimer) clearInterval(this.turnTimer);
    if (this.pollTimer) clearInterval(this.pollTimer);
    this.pollTimer = null;
    this.playTimer = null;
    this.uploadTimer = null;
    this.turnTimer = null;
    await this.upload();
  }
}
