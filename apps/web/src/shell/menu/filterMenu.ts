import { findRoute, hasPermission, MENU_SECTIONS, type MenuItem, resolveAlias, sectionOf } from '@marquee/protocol';

/**
 * Spec section 2 "Navigation menu behaviour": an item or child shows only if the user holds
 * the permission code of its route, or if its route has no permission mapping (a url that
 * is not in the route table, or a route without a code). Menu urls may be aliases.
 */
export function isMenuItemAllowed(item: Pick<MenuItem, 'url'>, permissionList: readonly string[]): boolean {
  const route = findRoute(resolveAlias(item.url));
  return !route?.permission || hasPermission(permissionList, route.permission);
}

/** The menu as the user may see it: forbidden items and children removed, recursively. */
export function filterMenu(items: readonly MenuItem[], permissionList: readonly string[]): MenuItem[] {
  const out: MenuItem[] = [];
  for (const item of items) {
    if (!isMenuItemAllowed(item, permissionList)) continue;
    const { children, ...rest } = item;
    const kept = children ? filterMenu(children, permissionList) : [];
    out.push(kept.length > 0 ? { ...rest, children: kept } : rest);
  }
  return out;
}

/** The first path segment of a path, as a root: '/advert/audit' -> '/advert', '/' -> '/'. */
export function rootOf(path: string): string {
  return `/${path.split(/[/?#]/).filter(Boolean)[0] ?? ''}`;
}

/**
 * The menu item of the current page: the item whose url shares the page's first path segment;
 * otherwise the first item of the page's section (spec: the active section comes from the
 * first path segment). Returns the item's code.
 */
export function activeMenuCode(items: readonly MenuItem[], pathname: string): string | undefined {
  const root = rootOf(pathname);
  const byRoot = items.find(
    (item) =>
      rootOf(resolveAlias(item.url)) === root || item.children?.some((c) => rootOf(resolveAlias(c.url)) === root),
  );
  if (byRoot) return byRoot.code;
  const section = sectionOf(pathname);
  return items.find((item) => sectionOf(resolveAlias(item.url)) === section)?.code;
}

/** The icon name of a menu item: its own, else its route's, else its section's. */
export function menuIconName(item: Pick<MenuItem, 'url' | 'icon'>): string {
  if (item.icon) return item.icon;
  const url = resolveAlias(item.url);
  const route = findRoute(url);
  if (route?.icon) return route.icon;
  const section = sectionOf(url);
  return MENU_SECTIONS.find((s) => s.code === section)?.icon ?? 'home';
}

/**
 * How many side-bar entries fit in a given height. When not all do, the last visible slot
 * becomes the "more" entry that holds the rest.
 */
export function visibleMenuCount(total: number, height: number, itemHeight: number): number {
  const fit = Math.max(1, Math.floor(height / itemHeight));
  return total <= fit ? total : Math.max(0, fit - 1);
}
