import type { DeviceManifest, DownloadReport, ManifestFile } from '@marquee/protocol';
import { deadline } from './api';
import { backoffDelay } from './logic/backoff';
import { downloadReports, hashesOf, planManifest, readyToSwitch } from './logic/manifest';

/** The Cache API store of content files, keyed by content hash (survives restarts, works offline). */
export const CONTENT_CACHE = 'marquee-content-v1';
const keyOf = (sha256: string) => `/player/content/${sha256}`;
const CHUNK = 8 * 1024 * 1024;
/**
 * The longest one chunk's request may take (8 MB at about 0.6 Mbit/s): a request that stalls
 * fails and is retried from where it got to, instead of holding the sync (and every later
 * manifest, such as new RTB turns) for good.
 */
const CHUNK_TIMEOUT_MS = 120_000;

export async function sha256Hex(data: ArrayBuffer): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', data);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

export interface DownloadProgress {
  sha256: string;
  materialId: string;
  loaded: number;
  size: number;
  attempts: number;
  error?: string;
}

/**
 * Downloads a manifest's files into the cache: Range requests in chunks (a big video resumes
 * where a lost connection left it), the SHA-256 checked before a file counts as cached, each
 * failure retried with back-off. Object URLs of cached files are what the renderer shows.
 */
export class ContentStore {
  readonly cached = new Set<string>();
  readonly running = new Set<string>();
  readonly failed = new Set<string>();
  readonly progress = new Map<string, DownloadProgress>();
  private readonly urls = new Map<string, string>();
  private readonly partial = new Map<string, Uint8Array[]>();
  /** When each hash's download state last changed (the reports' `at`). */
  readonly changedAt = new Map<string, number>();
  private retryTimer: ReturnType<typeof setTimeout> | null = null;

  /** `onChange`: anything changed (progress too); `onStateChange`: a file's download state changed. */
  constructor(
    private readonly onChange: () => void,
    private readonly onStateChange: () => void = () => {},
  ) {}

  private stateChanged(sha256: string) {
    this.changedAt.set(sha256, Date.now());
    this.onStateChange();
  }

  /** Reads which hashes the cache holds (at start, also offline). */
  async load(): Promise<void> {
    const cache = await caches.open(CONTENT_CACHE);
    for (const request of await cache.keys()) {
      const sha = new URL(request.url).pathname.split('/').pop();
      if (sha) this.cached.add(sha);
    }
  }

  /** An object URL for a cached file (the renderer's `url`), or null when not cached. */
  async urlOf(sha256: string): Promise<string | null> {
    const known = this.urls.get(sha256);
    if (known) return known;
    const response = await (await caches.open(CONTENT_CACHE)).match(keyOf(sha256));
    if (!response) return null;
    const url = URL.createObjectURL(await response.blob());
    this.urls.set(sha256, url);
    return url;
  }

  /** The download reports of a manifest's materials (the heartbeat's `content.downloads`). */
  reports(manifest: DeviceManifest): DownloadReport[] {
    return downloadReports(manifest, this, Date.now());
  }

  usedBytes(manifests: (DeviceManifest | null)[]): number {
    let total = 0;
    const seen = new Set<string>();
    for (const file of manifests.flatMap((m) => m?.files ?? [])) {
      if (this.cached.has(file.sha256) && !seen.has(file.sha256)) {
        seen.add(file.sha256);
        total += file.size;
      }
    }
    return total;
  }

  /** Downloads what `next` misses (at most `concurrency` at once); resolves true once it is all cached. */
  async fetchAll(current: DeviceManifest | null, next: DeviceManifest, concurrency = 2): Promise<boolean> {
    const plan = planManifest(current, next, this.cached);
    const queue = [...plan.download];
    const worker = async () => {
      for (let file = queue.shift(); file; file = queue.shift()) await this.download(file);
    };
    await Promise.all(Array.from({ length: Math.max(1, concurrency) }, worker));
    return readyToSwitch(next, this.cached);
  }

  /** Schedules another attempt at the failed files of `next` (back-off by the attempts made). */
  retryLater(run: () => void): void {
    if (this.retryTimer) return;
    const attempts = Math.max(0, ...[...this.progress.values()].map((p) => p.attempts));
    this.retryTimer = setTimeout(
      () => {
        this.retryTimer = null;
        run();
      },
      backoffDelay(attempts, Math.random(), 2000, 5 * 60_000),
    );
  }

  private async download(file: ManifestFile): Promise<void> {
    const progress = this.progress.get(file.sha256) ?? {
      sha256: file.sha256,
      materialId: file.materialId,
      loaded: 0,
      size: file.size,
      attempts: 0,
    };
    progress.attempts++;
    progress.error = undefined;
    this.progress.set(file.sha256, progress);
    this.running.add(file.sha256);
    this.failed.delete(file.sha256);
    this.stateChanged(file.sha256);
    this.onChange();
    try {
      const parts = this.partial.get(file.sha256) ?? [];
      this.partial.set(file.sha256, parts);
      let loaded = parts.reduce((n, p) => n + p.length, 0);
      while (loaded < file.size || file.size === 0) {
        const end = Math.min(file.size, loaded + CHUNK) - 1;
        const response = await fetch(file.url, {
          headers: file.size > 0 ? { range: `bytes=${loaded}-${end}` } : {},
          cache: 'no-store',
          signal: deadline(CHUNK_TIMEOUT_MS),
        });
        if (!response.ok) throw new Error(`HTTP ${response.status}`);
        const body = new Uint8Array(await response.arrayBuffer());
        if (response.status === 200) {
          // The server ignored the range: it sent the whole file.
          parts.length = 0;
          parts.push(body);
          loaded = body.length;
          break;
        }
        parts.push(body);
        loaded += body.length;
        progress.loaded = loaded;
        this.onChange();
        if (body.length === 0) break;
      }
      const blob = new Blob(parts as BlobPart[]);
      const hash = await sha256Hex(await blob.arrayBuffer());
      this.partial.delete(file.sha256);
      if (hash !== file.sha256 || blob.size !== file.size) throw new Error('sha256 mismatch');
      await (await caches.open(CONTENT_CACHE)).put(
        keyOf(file.sha256),
        new Response(blob, { headers: { 'content-length': String(blob.size) } }),
      );
      progress.loaded = blob.size;
      this.cached.add(file.sha256);
    } catch (error) {
      progress.error = error instanceof Error ? error.message : String(error);
      this.failed.add(file.sha256);
    } finally {
      this.running.delete(file.sha256);
      this.stateChanged(file.sha256);
      this.onChange();
    }
  }

  /** Deletes cached files no manifest in use needs (the clearCache command). Returns how many. */
  async clearUnused(inUse: (DeviceManifest | null)[]): Promise<number> {
    const keep = hashesOf(...inUse);
    const cache = await caches.open(CONTENT_CACHE);
    let deleted = 0;
    for (const sha of [...this.cached]) {
      if (keep.has(sha)) continue;
      await cache.delete(keyOf(sha));
      this.cached.delete(sha);
      this.changedAt.delete(sha);
      const url = this.urls.get(sha);
      if (url) URL.revokeObjectURL(url);
      this.urls.delete(sha);
      deleted++;
    }
    this.onChange();
    return deleted;
  }
}
