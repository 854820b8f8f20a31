import type { PermissionNode } from '@marquee/protocol';

/**
 * The role dialog's view of the permission catalogue tree. A page that has action codes
 * becomes a group (key `#<code>`) holding a "view" leaf with the page's own code, so every
 * real code the tree can check is a leaf; groups and the "other" bucket are never saved.
 */
export interface UiNode {
  key: string;
  /** i18n key `namespace:key`, or a plain code when the catalogue has no title. */
  title: string;
  children: UiNode[];
}

export const GROUP_PREFIX = '#';
export const OTHER_KEY = '__other';

export function toUiTree(nodes: readonly PermissionNode[], depth = 0): UiNode[] {
  return nodes.map((n) => {
    const children = toUiTree(n.children ?? [], depth + 1);
    if (depth > 0 && children.length > 0) {
      return {
        key: `${GROUP_PREFIX}${n.code}`,
        title: n.title,
        children: [{ key: n.code, title: 'roles:perm.view', children: [] }, ...children],
      };
    }
    return { key: n.code, title: n.title, children };
  });
}

const isCode = (key: string) => !key.startsWith(GROUP_PREFIX) && key !== OTHER_KEY;

/** Leaf keys of the tree, and each key's parent. */
export function indexTree(tree: readonly UiNode[]) {
  const leaves = new Set<string>();
  const parent = new Map<string, string>();
  const descendants = new Map<string, string[]>();
  const walk = (nodes: readonly UiNode[], up: string | null): string[] => {
    const all: string[] = [];
    for (const n of nodes) {
      if (up) parent.set(n.key, up);
      if (n.children.length === 0) {
        leaves.add(n.key);
        all.push(n.key);
        descendants.set(n.key, [n.key]);
      } else {
        const below = walk(n.children, n.key);
        descendants.set(n.key, below);
        all.push(...below);
      }
    }
    return all;
  };
  walk(tree, null);
  return { leaves, parent, descendants };
}

/** The leaves to show checked for a role's codes (a parent's check follows from its leaves). */
export function checkedLeaves(codes: readonly string[], index: ReturnType<typeof indexTree>): string[] {
  return codes.filter((c) => index.leaves.has(c));
}

/** The codes to save: checked leaves and every ancestor that is a real code (section). */
export function codesToSave(leaves: readonly string[], index: ReturnType<typeof indexTree>): string[] {
  const out = new Set<string>();
  for (const leaf of leaves) {
    if (!index.leaves.has(leaf)) continue;
    let key: string | undefined = leaf;
    while (key) {
      if (isCode(key)) out.add(key);
      key = index.parent.get(key);
    }
  }
  return [...out].sort();
}

/** Toggles a node from its title: all its leaves on, or off when they all were on. */
export function toggleNode(checked: readonly string[], key: string, index: ReturnType<typeof indexTree>): string[] {
  const leaves = index.descendants.get(key) ?? [];
  const set = new Set(checked);
  const allOn = leaves.every((l) => set.has(l));
  for (const l of leaves) {
    if (allOn) set.delete(l);
    else set.add(l);
  }
  return [...set];
}
