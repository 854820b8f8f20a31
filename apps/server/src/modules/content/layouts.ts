import { and, eq, inArray } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { devices, templates } from '../../db/schema/index.js';
import { manifestFiles } from '../templates/materials.js';
import { registerTemplateReferrer } from '../templates/references.js';
import { registerLayoutProvider } from './sources.js';

/**
 * The layouts module's layouts (table `templates`) as the manifest needs them: the document,
 * its material ids and, for each material the library resolves with a content hash and size
 * (getMaterialsForRender), a file to download. A material without a hash is left to the
 * renderer (shown unavailable) rather than played unchecked.
 */
export async function loadLayout(db: Executor, entId: string, layoutId: string) {
  const [row] = await db
    .select({
      id: templates.id,
      name: templates.name,
      document: templates.document,
      materialIds: templates.materialIds,
    })
    .from(templates)
    .where(and(eq(templates.id, layoutId), eq(templates.entId, entId)));
  if (!row) return null;
  const files = await manifestFiles(db, entId, row.materialIds);
  return { id: row.id, name: row.name, document: row.document, materialIds: row.materialIds, files };
}

registerLayoutProvider({ load: loadLayout });

// A layout assigned to a screen is in use: it cannot be deleted (LAYOUT_IN_USE).
registerTemplateReferrer('device', async (db, entId, templateIds) => {
  const rows = await db
    .selectDistinct({ id: devices.layoutId })
    .from(devices)
    .where(and(eq(devices.entId, entId), inArray(devices.layoutId, [...templateIds])));
  return rows.map((r) => r.id).filter((id): id is string => id !== null);
});
