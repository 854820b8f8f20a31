import type { MaterialLookup } from '@marquee/layout';
import { createContext, useContext } from 'react';

const EMPTY: MaterialLookup = {};

/** The materials the open layout refers to (id -> url, type, name), as its detail answered them. */
export const EditorMaterialsContext = createContext<MaterialLookup>(EMPTY);

export function useEditorMaterials(): MaterialLookup {
  return useContext(EditorMaterialsContext);
}
