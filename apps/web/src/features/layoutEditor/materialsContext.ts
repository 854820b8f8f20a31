import type { MaterialLookup, RenderMaterial } from '@marquee/layout';
import { createContext, useContext } from 'react';

const EMPTY: MaterialLookup = {};

/**
 * The materials the open layout refers to (id -> url, type, name): those its detail answered,
 * then those picked from the library while editing; `remember` adds picked ones.
 */
export const EditorMaterialsContext = createContext<{
  materials: MaterialLookup;
  remember: (picked: Readonly<Record<string, RenderMaterial>>) => void;
}>({ materials: EMPTY, remember: () => {} });

export function useEditorMaterials(): MaterialLookup {
  return useContext(EditorMaterialsContext).materials;
}

export function useRememberMaterials(): (picked: Readonly<Record<string, RenderMaterial>>) => void {
  return useContext(EditorMaterialsContext).remember;
}

/** Both lookups as one record (the later wins). */
export function mergeLookups(
  a: MaterialLookup,
  b: Readonly<Record<string, RenderMaterial>>,
): Readonly<Record<string, RenderMaterial>> {
  const base = a instanceof Map ? Object.fromEntries(a) : (a as Readonly<Record<string, RenderMaterial>>);
  return Object.keys(b).length === 0 ? base : { ...base, ...b };
}
