import type { RenderMaterial } from '@marquee/layout/schema';
import type { ManifestFile } from '@marquee/protocol';
import type { Executor } from '../../db/client.js';

/**
 * How the layouts module turns a document's material ids into URLs to draw it. The material
 * library (materials branch: getMaterialsForRender) installs its resolver; until it does, none
 * resolves and the renderer shows such materials as unavailable (the host may resolve them).
 */
export type LayoutMaterialResolver = (
  db: Executor,
  entId: string,
  ids: readonly string[],
) => Promise<Map<string, RenderMaterial>>;

let resolver: LayoutMaterialResolver | null = null;

export function setLayoutMaterialResolver(fn: LayoutMaterialResolver | null): void {
  resolver = fn;
}

export async function resolveLayoutMaterials(
  db: Executor,
  entId: string,
  ids: readonly string[],
): Promise<Record<string, RenderMaterial>> {
  if (!resolver || ids.length === 0) return {};
  return Object.fromEntries(await resolver(db, entId, ids));
}

/**
 * The files a device downloads for these materials (manifests: layouts, ads, the watermark):
 * each one the library resolves with a content hash and size; one without (not ready) is left
 * out rather than played unchecked.
 */
export async function manifestFiles(db: Executor, entId: string, ids: readonly string[]): Promise<ManifestFile[]> {
  const out: ManifestFile[] = [];
  for (const [materialId, m] of Object.entries(await resolveLayoutMaterials(db, entId, ids))) {
    const extra = m as { sha256?: string | null; size?: number | null };
    if (!extra.sha256 || extra.size == null) continue;
    out.push({
      materialId,
      url: m.url,
      sha256: extra.sha256,
      size: extra.size,
      type: m.type,
      width: m.width ?? null,
      height: m.height ?? null,
      duration: m.duration ?? null,
    });
  }
  return out;
}
