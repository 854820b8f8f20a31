import type { Material, MaterialFolder } from '@marquee/protocol';

/** A material as the list answers it. */
export type MaterialRow = Material;

/** A dialog that adds materials to a folder (the one chosen in the library, changeable in the dialog). */
export interface AddToFolderProps {
  open: boolean;
  folderId: string | undefined;
  onClose: () => void;
}

/** A folder with its sub-folders (the tree answer is flat, parents before children). */
export type FolderNode = MaterialFolder & { children: FolderNode[] };

/** The tree of a flat folder list; a folder whose parent is not in the list is a root. */
export function buildFolderTree(flat: readonly MaterialFolder[]): FolderNode[] {
  const nodes = new Map<string, FolderNode>();
  for (const f of flat) nodes.set(f.id, { ...f, children: [] });
  const roots: FolderNode[] = [];
  for (const node of nodes.values()) {
    const parent = node.parentId ? nodes.get(node.parentId) : undefined;
    if (parent) parent.children.push(node);
    else roots.push(node);
  }
  return roots;
}

/** The folders as TreeSelect options; `exclude` drops a node with its subtree (a move's own folder). */
export interface FolderOption {
  value: string;
  title: string;
  children: FolderOption[];
}

export function folderOptions(tree: readonly FolderNode[], exclude?: string): FolderOption[] {
  return tree
    .filter((n) => n.id !== exclude)
    .map((n) => ({ value: n.id, title: n.name, children: folderOptions(n.children, exclude) }));
}
