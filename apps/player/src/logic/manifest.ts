import {
  type DeviceManifest,
  type DownloadReport,
  type DownloadState,
  MAX_DOWNLOAD_ERROR,
  MAX_DOWNLOAD_REPORTS,
  type ManifestFile,
} from '@marquee/protocol';

/** What a new manifest needs: the files to download, and those of the old one no longer used. */
export interface ManifestPlan {
  download: ManifestFile[];
  keep: ManifestFile[];
  /** Content hashes used by neither the current nor the next manifest (safe to delete). */
  unused: string[];
}

/**
 * Compares the manifest being played (`current`, may be null) with a `next` one, given the
 * hashes already verified in the cache. Files are identified by content (sha256): a material
 * renamed or moved is not downloaded again.
 */
export function planManifest(
  current: DeviceManifest | null,
  next: DeviceManifest,
  cached: ReadonlySet<string>,
): ManifestPlan {
  const download: ManifestFile[] = [];
  const keep: ManifestFile[] = [];
  const seen = new Set<string>();
  for (const file of next.files) {
    if (seen.has(file.sha256)) continue;
    seen.add(file.sha256);
    (cached.has(file.sha256) ? keep : download).push(file);
  }
  const inUse = new Set([...seen, ...(current?.files.map((f) => f.sha256) ?? [])]);
  const unused = [...cached].filter((sha) => !inUse.has(sha));
  return { download, keep, unused };
}

/**
 * Whether the player may switch to `next`: every file of it verified in the cache. Until then
 * the current manifest keeps playing (never a half-downloaded screen).
 */
export function readyToSwitch(next: DeviceManifest, cached: ReadonlySet<string>): boolean {
  return next.files.every((file) => cached.has(file.sha256));
}

/** Download state of each material of a manifest (spec section 4), from the cache and the running downloads. */
export function materialStates(
  manifest: DeviceManifest,
  cached: ReadonlySet<string>,
  running: ReadonlySet<string>,
  failed: ReadonlySet<string>,
): Record<string, DownloadState> {
  const states: Record<string, DownloadState> = {};
  for (const file of manifest.files) {
    states[file.materialId] = cached.has(file.sha256)
      ? 'successful'
      : running.has(file.sha256)
        ? 'downloading'
        : failed.has(file.sha256)
          ? 'failed'
          : 'not_downloaded';
  }
  return states;
}

/** What the content store knows of its files, for the download reports. */
export interface DownloadFacts {
  cached: ReadonlySet<string>;
  running: ReadonlySet<string>;
  failed: ReadonlySet<string>;
  /** Bytes fetched so far and the last failure, per content hash. */
  progress: ReadonlyMap<string, { loaded: number; error?: string }>;
  /** When each hash's state last changed; a hash seen for the first time is stamped `now` (kept stable after). */
  changedAt: Map<string, number>;
}

/**
 * The heartbeat's download reports (docs/device-protocol.md 2.7.1): per material of the
 * manifest, its state, bytes done of its size, the failure reason and when the state last changed.
 */
export function downloadReports(manifest: DeviceManifest, facts: DownloadFacts, now: number): DownloadReport[] {
  const states = materialStates(manifest, facts.cached, facts.running, facts.failed);
  const reports: DownloadReport[] = [];
  const seen = new Set<string>();
  for (const file of manifest.files) {
    if (seen.has(file.materialId) || reports.length >= MAX_DOWNLOAD_REPORTS) continue;
    seen.add(file.materialId);
    const state = states[file.materialId];
    const progress = facts.progress.get(file.sha256);
    let at = facts.changedAt.get(file.sha256);
    if (at === undefined) {
      at = now;
      facts.changedAt.set(file.sha256, at);
    }
    reports.push({
      materialId: file.materialId,
      state,
      bytes: state === 'successful' ? file.size : Math.min(file.size, progress?.loaded ?? 0),
      size: file.size,
      ...(state === 'failed' ? { error: (progress?.error || 'failed').slice(0, MAX_DOWNLOAD_ERROR) } : {}),
      at,
    });
  }
  return reports;
}

/**
 * Sends a report soon after a change, at most once per `gapMs` (the changes of a burst go
 * together, the latest state wins); `sent()` notes a report sent anyway (the periodic heartbeat).
 */
export class ChangeReporter {
  private timer: ReturnType<typeof setTimeout> | null = null;
  private lastSent = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly send: () => void,
    private readonly gapMs: number,
    private readonly clock: () => number = Date.now,
  ) {}

  changed(): void {
    if (this.timer) return;
    const wait = Math.max(0, this.lastSent + this.gapMs - this.clock());
    this.timer = setTimeout(() => {
      this.timer = null;
      this.send();
    }, wait);
  }

  sent(): void {
    this.lastSent = this.clock();
  }
}

/** Hashes a manifest needs kept (a clear-cache command deletes the rest). */
export function hashesOf(...manifests: (DeviceManifest | null)[]): Set<string> {
  return new Set(manifests.flatMap((m) => m?.files.map((f) => f.sha256) ?? []));
}
