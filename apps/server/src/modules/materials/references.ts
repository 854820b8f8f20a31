import type { Executor } from '../../db/client.js';

/**
 * Who uses a material (contracts.md 'materialReferences'): layouts, ads and later modules
 * register a referrer that answers which of the given materials they use; a material in use
 * cannot be deleted (MATERIAL_IN_USE). The check runs in the delete's transaction.
 */
export type MaterialReferrer = (
  db: Executor,
  entId: string,
  materialIds: readonly string[],
) => Promise<Iterable<string>>;

const referrers = new Map<string, MaterialReferrer>();

/** Registers the module `kind` ('layout', 'ad'...) as a user of materials (once per kind). */
export function registerMaterialReferrer(kind: string, fn: MaterialReferrer): void {
  const known = referrers.get(kind);
  if (known && known !== fn) throw new Error(`material referrer ${kind} is registered twice`);
  referrers.set(kind, fn);
}

/** Removes a referrer (tests). */
export function unregisterMaterialReferrer(kind: string): void {
  referrers.delete(kind);
}

/** The materials among `ids` some registered module uses, with the kinds that use each. */
export async function materialsInUse(
  db: Executor,
  entId: string,
  ids: readonly string[],
): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  if (ids.length === 0) return out;
  for (const [kind, fn] of referrers) {
    for (const id of await fn(db, entId, ids)) out.set(id, [...(out.get(id) ?? []), kind]);
  }
  return out;
}
