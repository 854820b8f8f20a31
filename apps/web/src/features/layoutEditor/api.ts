import type { LayoutDocument, MaterialLookup } from '@marquee/layout';
import { call } from '../../api/client';

/** The editor's calls to the template endpoints (template.info / save / update). */
export interface OpenedLayout {
  id: string;
  name: string;
  version: number;
  isDefault: boolean;
  hasPermission: boolean;
  document: LayoutDocument;
  materials: MaterialLookup;
}

export async function openLayout(id: string): Promise<OpenedLayout> {
  return await call('templateInfo', { id });
}

export async function createLayout(name: string, document: LayoutDocument): Promise<{ id: string; version: number }> {
  return await call('templateSave', { name, document });
}

/** Saves over `expectedVersion`; another save since answers LAYOUT_VERSION_CONFLICT (silent: the editor explains it). */
export async function updateLayout(
  id: string,
  name: string,
  document: LayoutDocument,
  expectedVersion: number,
): Promise<{ version: number }> {
  return await call('templateUpdate', { id, name, document, expectedVersion }, { silent: true });
}
