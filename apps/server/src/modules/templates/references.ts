import type { Executor } from '../../db/client.js';

/**
 * Who uses a layout (ads, screens...): a module that refers to layouts registers a referrer,
 * and a layout any referrer names cannot be deleted (LAYOUT_IN_USE). Ads and device layouts
 * register here when they arrive; like the material library's registry (materials branch).
 */
export type TemplateReferrer = (db: Executor, entId: string, templateIds: readonly string[]) => Promise<string[]>;

const referrers = new Map<string, TemplateReferrer>();

/** Registers (or replaces) the referrer of `kind` ('ad', 'device', ...). */
export function registerTemplateReferrer(kind: string, referrer: TemplateReferrer): void {
  referrers.set(kind, referrer);
}

/** The ids among `templateIds` some referrer uses, with the kinds using each. */
export async function templatesInUse(
  db: Executor,
  entId: string,
  templateIds: readonly string[],
): Promise<Map<string, string[]>> {
  const used = new Map<string, string[]>();
  if (templateIds.length === 0) return used;
  for (const [kind, referrer] of referrers) {
    for (const id of await referrer(db, entId, templateIds)) {
      used.set(id, [...(used.get(id) ?? []), kind]);
    }
  }
  return used;
}
