import { and, eq, inArray } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { materials } from '../../db/schema/index.js';
import type { Files } from '../../storage/files.js';

/** What a renderer (layout preview, player manifest) needs of a material. */
export interface RenderMaterial {
  url: string;
  type: string;
  width: number | null;
  height: number | null;
  duration: number | null;
  sha256: string | null;
  size: number;
  status: string;
}

/**
 * The ready materials among `ids` of enterprise `entId` (contracts.md), id to what a renderer
 * needs: files as signed URLs (`ttlSec`), web and stream as their address. Data scope is the
 * caller's business (a layout names materials its author could see); missing, processing and
 * invalid materials are left out.
 */
export async function getMaterialsForRender(
  db: Executor,
  entId: string,
  ids: readonly string[],
  files: Files,
  ttlSec?: number,
): Promise<Map<string, RenderMaterial>> {
  const out = new Map<string, RenderMaterial>();
  if (ids.length === 0) return out;
  const rows = await db
    .select()
    .from(materials)
    .where(and(eq(materials.entId, entId), inArray(materials.id, [...new Set(ids)]), eq(materials.status, 'ready')));
  for (const r of rows) {
    out.set(r.id, {
      url: r.fileKey ? files.signedUrl(r.fileKey, ttlSec) : (r.url ?? ''),
      type: r.type,
      width: r.width,
      height: r.height,
      duration: r.duration,
      sha256: r.sha256,
      size: Number(r.size),
      status: r.status,
    });
  }
  return out;
}
