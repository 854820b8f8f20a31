import type { RenderMaterial } from '@marquee/layout/schema';
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
