import { ALL_PERMISSION_CODES, MENU_SECTIONS, Perm, type PermissionNode, ROUTES } from '@marquee/protocol';

/** Action codes shown under the page they act on (codes without a route of their own). */
const ACTIONS_OF_PAGE: Readonly<Record<string, readonly string[]>> = {
  [Perm.userCompany]: [Perm.userCompanyManage, Perm.userAccountManage, Perm.userDeptManage, Perm.userStoreManage],
  [Perm.userCompanyRole]: [Perm.userRoleManage],
};

/** Key of the group that collects codes no section or page claims (header actions...). */
export const OTHER_GROUP = '__other';

const actionNode = (code: string): PermissionNode => ({ code, title: `roles:perm.${code}` });

/**
 * The menu-permission tree, built from the permission catalogue: menu sections, their
 * pages (from the route table), the pages' action codes; then every remaining code under
 * "other", so a code added later shows up without changing this file.
 */
export function buildPermissionTree(): PermissionNode[] {
  const placed = new Set<string>();
  const tree: PermissionNode[] = [];
  for (const section of MENU_SECTIONS) {
    if (!ALL_PERMISSION_CODES.includes(section.code)) continue;
    const top = ROUTES.find((r) => r.path === section.roots[0]);
    placed.add(section.code);
    const pages: PermissionNode[] = [];
    for (const route of ROUTES) {
      const first = `/${route.path.split('/').filter(Boolean)[0] ?? ''}`;
      if (!section.roots.includes(first) || !route.permission || placed.has(route.permission)) continue;
      if (!ALL_PERMISSION_CODES.includes(route.permission)) continue;
      placed.add(route.permission);
      const actions = (ACTIONS_OF_PAGE[route.permission] ?? []).filter((c) => ALL_PERMISSION_CODES.includes(c));
      for (const c of actions) placed.add(c);
      pages.push({
        code: route.permission,
        title: `menu:${route.title ?? route.path}`,
        ...(actions.length > 0 ? { children: actions.map(actionNode) } : {}),
      });
    }
    tree.push({ code: section.code, title: `menu:${top?.title ?? section.code}`, children: pages });
  }
  const rest = ALL_PERMISSION_CODES.filter((c) => !placed.has(c));
  if (rest.length > 0) tree.push({ code: OTHER_GROUP, title: 'roles:perm.other', children: rest.map(actionNode) });
  return tree;
}

let cached: PermissionNode[] | undefined;

/** The tree, built once and frozen (the pipeline serializes a frozen answer once). */
export function permissionTree(): PermissionNode[] {
  cached ??= Object.freeze(buildPermissionTree()) as PermissionNode[];
  return cached;
}
