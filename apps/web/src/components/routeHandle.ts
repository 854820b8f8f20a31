import type { RouteDef } from '@marquee/protocol';
import type { ComponentType } from 'react';
import type { UIMatch } from 'react-router';

/** A page module (default export) and its lazy loader: app/pages.ts and shell/pages.ts. */
export type PageModule = { default: ComponentType };
export type PageLoader = () => Promise<PageModule>;

/**
 * The `handle` of every route. `meta` is what the shell's tab bar reads through
 * `useMatches()` (spec section 3 "Visited tab": title, key, affix, isCache); `title` is the
 * document title key of every route, plain ones included.
 */
export interface RouteHandle {
  /** Title key in the `menu` namespace. */
  title: string;
  route: RouteDef;
  permission?: string;
  meta?: { title: string; key: string; affix: boolean; isCache: boolean };
}

export function routeHandle(route: RouteDef, title: string, inShell: boolean): RouteHandle {
  return {
    title,
    route,
    permission: route.permission,
    ...(inShell ? { meta: { title, key: route.path, affix: Boolean(route.affix), isCache: !route.noCache } } : {}),
  };
}

/** The handle of the deepest matched route that has one. */
export function currentHandle(matches: readonly UIMatch[]): RouteHandle | undefined {
  for (let i = matches.length - 1; i >= 0; i--) {
    const handle = matches[i].handle as RouteHandle | undefined;
    if (handle?.title) return handle;
  }
  return undefined;
}
