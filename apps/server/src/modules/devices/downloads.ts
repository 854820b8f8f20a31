import { createHash } from 'node:crypto';
import type { DownloadReport, DownloadState, Heartbeat } from '@marquee/protocol';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { deviceDownloads } from '../../db/schema/index.js';

/**
 * Per-device download state (docs/device-protocol.md 2.7.1): the heartbeat's `content` carries
 * each material's download state of the manifest being fetched (or in use), and which
 * manifests the device fetches and holds. The latest state per (device, material) goes to
 * `device_downloads`, the manifests to `device_manifest_downloads` (when each was complete).
 */

type Content = NonNullable<Heartbeat['content']>;

/** What a heartbeat's content holds that the server stores (a device, its content, the receipt time). */
export interface DownloadContent {
  manifestVersion?: string | null;
  pendingVersion?: string | null;
  downloads?: readonly DownloadReport[];
}

/**
 * Stores a device's reported download states and manifest progress in one transaction,
 * writing only what changed: one batch upsert whose update skips identical rows. Materials
 * not of the device's enterprise (or unknown) are ignored. `changed_at` is the device's time,
 * never later than `now`. Returns the materials whose row was written.
 */
export async function recordDownloads(
  db: Executor,
  device: { id: string; entId: string },
  content: DownloadContent,
  now: Date,
): Promise<{ written: number }> {
  const byMaterial = new Map<string, DownloadReport>();
  for (const d of content.downloads ?? []) byMaterial.set(d.materialId, d);
  const version = content.pendingVersion ?? content.manifestVersion ?? null;
  const at = now.toISOString();
  return db.transaction(async (tx) => {
    let written = 0;
    if (byMaterial.size > 0) {
      // One parameter: the reports as a JSON array (as the plays ingest does).
      const rows = JSON.stringify(
        [...byMaterial.values()].map((d) => ({
          material_id: d.materialId,
          state: d.state,
          bytes: Math.min(d.bytes, d.size),
          size: d.size,
          error: d.state === 'failed' ? (d.error ?? '') : null,
          at: new Date(Math.min(d.at, now.getTime())).toISOString(),
        })),
      );
      const result = (await tx.execute(sql`
        insert into device_downloads as dd
          (device_id, material_id, ent_id, state, bytes_done, bytes_total, error, changed_at, manifest_version, updated_at)
        select ${device.id}, m.id, m.ent_id, v.state, v.bytes, v.size, v.error, v.at, ${version}, ${at}::timestamptz
        from jsonb_to_recordset(${rows}::jsonb)
          as v(material_id text, state text, bytes bigint, size bigint, error text, at timestamptz)
        join materials m on m.id = v.material_id and m.ent_id = ${device.entId}
        on conflict (device_id, material_id) do update set
          state = excluded.state, bytes_done = excluded.bytes_done, bytes_total = excluded.bytes_total,
          error = excluded.error, changed_at = excluded.changed_at, manifest_version = excluded.manifest_version,
          updated_at = excluded.updated_at
        where (dd.state, dd.bytes_done, dd.bytes_total, dd.error, dd.changed_at)
          is distinct from (excluded.state, excluded.bytes_done, excluded.bytes_total, excluded.error, excluded.changed_at)
        returning dd.material_id`)) as unknown as { rows: unknown[] };
      written = result.rows.length;
    }
    if (content.pendingVersion && content.pendingVersion !== content.manifestVersion) {
      await tx.execute(sql`
        insert into device_manifest_downloads (device_id, manifest_version, ent_id, started_at)
        values (${device.id}, ${content.pendingVersion}, ${device.entId}, ${at}::timestamptz)
        on conflict (device_id, manifest_version) do nothing`);
    }
    if (content.manifestVersion) {
      // The manifest in use is complete (the player switches only then): its download time.
      await tx.execute(sql`
        insert into device_manifest_downloads as mdl (device_id, manifest_version, ent_id, started_at, completed_at)
        values (${device.id}, ${content.manifestVersion}, ${device.entId}, ${at}::timestamptz, ${at}::timestamptz)
        on conflict (device_id, manifest_version) do update set completed_at = excluded.completed_at
        where mdl.completed_at is null`);
    }
    return { written };
  });
}

/** Devices remembered at most (then forgotten at once: the next reports are written again). */
const MEMORY_MAX = 100_000;

/**
 * The gateway's filter in front of recordDownloads: a device's heartbeats repeat the same
 * content every interval, so each instance remembers a hash of the last content it stored
 * per device and skips the database when it is unchanged (another instance, or a restart,
 * writes it once more: the upsert then changes nothing).
 */
export class DownloadReports {
  private readonly last = new Map<string, string>();

  /** Whether this content differs from what was last stored for the device. */
  changed(deviceId: string, content: Content): boolean {
    return this.last.get(deviceId) !== fingerprint(content);
  }

  /** Remembers the content as stored. */
  stored(deviceId: string, content: Content): void {
    if (this.last.size >= MEMORY_MAX) this.last.clear();
    this.last.set(deviceId, fingerprint(content));
  }

  forget(deviceId: string): void {
    this.last.delete(deviceId);
  }
}

function fingerprint(content: Content): string {
  const downloads = [...(content.downloads ?? [])].sort((a, b) => (a.materialId < b.materialId ? -1 : 1));
  return createHash('sha1')
    .update(JSON.stringify([content.manifestVersion ?? null, content.pendingVersion ?? null, downloads]))
    .digest('base64');
}

/** A stored state, as the console's reads use it. */
export interface StoredDownload {
  materialId: string;
  state: DownloadState;
  bytesDone: number;
  bytesTotal: number;
  error: string | null;
  changedAt: Date;
}

/** The stored states of these materials on a device. */
export async function downloadsOf(
  db: Executor,
  device: { id: string; entId: string },
  materialIds: readonly string[],
): Promise<Map<string, StoredDownload>> {
  const ids = [...new Set(materialIds)];
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({
      materialId: deviceDownloads.materialId,
      state: deviceDownloads.state,
      bytesDone: deviceDownloads.bytesDone,
      bytesTotal: deviceDownloads.bytesTotal,
      error: deviceDownloads.error,
      changedAt: deviceDownloads.changedAt,
    })
    .from(deviceDownloads)
    .where(
      and(
        eq(deviceDownloads.entId, device.entId),
        eq(deviceDownloads.deviceId, device.id),
        inArray(deviceDownloads.materialId, ids),
      ),
    );
  return new Map(rows.map((r) => [r.materialId, r]));
}

/** The download of a set of materials (an ad's) on one device, from their stored states. */
export function combinedDownload(
  materialIds: readonly string[],
  states: ReadonlyMap<string, StoredDownload>,
): { state: DownloadState; percent: number | null; error: string | null; doneAt: Date | null } {
  const rows = [...new Set(materialIds)].map((id) => states.get(id));
  const failed = rows.find((r) => r?.state === 'failed');
  if (failed) return { state: 'failed', percent: null, error: failed.error || null, doneAt: null };
  if (rows.every((r) => r?.state === 'successful')) {
    const last = rows.reduce((max, r) => Math.max(max, r?.changedAt.getTime() ?? 0), 0);
    return { state: 'successful', percent: null, error: null, doneAt: last > 0 ? new Date(last) : null };
  }
  if (rows.some((r) => r?.state === 'downloading' || r?.state === 'successful')) {
    let done = 0;
    let total = 0;
    for (const r of rows) {
      if (!r) continue;
      total += r.bytesTotal;
      done += r.state === 'successful' ? r.bytesTotal : Math.min(r.bytesDone, r.bytesTotal);
    }
    const percent = total > 0 ? Math.min(99, Math.floor((done * 100) / total)) : 0;
    return { state: 'downloading', percent, error: null, doneAt: null };
  }
  return { state: 'not_downloaded', percent: null, error: null, doneAt: null };
}
