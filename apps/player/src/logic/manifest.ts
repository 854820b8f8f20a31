import type { DeviceManifest, DownloadState, ManifestFile } from '@marquee/protocol';

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

/** Hashes a manifest needs kept (a clear-cache command deletes the rest). */
export function hashesOf(...manifests: (DeviceManifest | null)[]): Set<string> {
  return new Set(manifests.flatMap((m) => m?.files.map((f) => f.sha256) ?? []));
}
