import { hasPermission, type RouteDef } from '@marquee/protocol';
import type { Location, UIMatch } from 'react-router';
import type { TabMeta, VisitedView } from './store';

/** The `handle` the router puts on every route rendered inside the main layout. */
export interface ShellRouteHandle {
  meta?: Partial<TabMeta> & { title?: string };
}

function metaOf(match: UIMatch): ShellRouteHandle['meta'] | undefined {
  const handle = match.handle as ShellRouteHandle | undefined;
  return handle?.meta?.title ? handle.meta : undefined;
}

/** The deepest matched route that carries tab meta (a title). */
export function pageMatch(matches: readonly UIMatch[]): UIMatch | undefined {
  for (let i = matches.length - 1; i >= 0; i--) if (metaOf(matches[i])) return matches[i];
  return undefined;
}

/** The visited view of the current location (spec section 3 "Visited tab"). */
export function toVisitedView(match: UIMatch, location: Pick<Location, 'pathname' | 'search' | 'hash'>): VisitedView {
  const meta = metaOf(match) ?? {};
  const key = meta.key || match.id || location.pathname;
  return {
    path: location.pathname,
    fullPath: `${location.pathname}${location.search}${location.hash}`,
    query: Object.fromEntries(new URLSearchParams(location.search)),
    params: { ...match.params },
    name: key,
    meta: {
      title: meta.title ?? '',
      key,
      affix: Boolean(meta.affix),
      isCache: meta.isCache !== false,
    },
  };
}

/**
 * The affix (pinned) tabs, opened before any other (tags-view's initTags): the shell routes
 * of the route table marked affix that the user may open. Keys follow the router's handle
 * (`meta.key` is the route path).
 */
export function affixViews(routes: readonly RouteDef[], permissionList: readonly string[]): VisitedView[] {
  return routes
    .filter((r) => r.affix && !r.plain && r.title && hasPermission(permissionList, r.permission))
    .map((r) => ({
      path: r.path,
      fullPath: r.path,
      query: {},
      params: {},
      name: r.path,
      meta: { title: r.title ?? '', key: r.path, affix: true, isCache: !r.noCache },
    }));
}
