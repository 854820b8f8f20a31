import type { LayoutDocument, MaterialLookup } from '@marquee/layout';
import { call } from '../../api/client';

/**
 * The editor's calls to D's template endpoints (template.info / save / update). Until branch
 * `layout` lands them in the protocol's catalogue they are called by name through the one client.
 */
export interface OpenedLayout {
  id: string;
  name: string;
  version: number;
  isDefault: boolean;
  hasPermission: boolean;
  document: LayoutDocument;
  materials: MaterialLookup;
}

type LooseCall = (name: string, data: unknown, options?: { silent?: boolean }) => Promise<unknown>;
const callByName = call as unknown as LooseCall;

export async function openLayout(id: string): Promise<OpenedLayout> {
  return (await callByName('templateInfo', { id })) as OpenedLayout;
}

export async function createLayout(name: string, document: LayoutDocument): Promise<{ id: string; version: number }> {
  return (await callByName('templateSave', { name, document })) as { id: string; version: number };
}

/** Saves over `expectedVersion`; another save since answers LAYOUT_VERSION_CONFLICT (silent: the editor explains it). */
export async function updateLayout(
  id: string,
  name: string,
  document: LayoutDocument,
  expectedVersion: number,
): Promise<{ version: number }> {
  return (await callByName('templateUpdate', { id, name, document, expectedVersion }, { silent: true })) as {
    version: number;
  };
}
