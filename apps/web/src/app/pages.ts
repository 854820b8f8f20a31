import type { RouteDef } from '@marquee/protocol';
import type { PageLoader, PageModule } from '../components/routeHandle';

/**
 * The page modules outside the shell (`plain` routes: logged out, errors); the shell's pages
 * are in `shell/pages.ts` and load through the shell's chunk. Every page is its own chunk; a
 * route whose module is not built yet (no `page` in the route table) gets the NotOnline page
 * (inside the shell, or the plain one for logged-out pages).
 */
export const PAGE_MODULES: Readonly<Record<string, PageLoader>> = import.meta.glob<PageModule>([
  '../features/auth/*Page.tsx',
  '../features/errors/*Page.tsx',
]);

const plainNotOnline: PageLoader = () => import('../features/common/PlainNotOnlinePage');

/** The page loader of a route. */
export function pageLoader(route: RouteDef): PageLoader {
  if (!route.plain) return async () => (await import('../shell/shellEntry')).shellPageLoader(route)();
  const load = route.page ? PAGE_MODULES[`../features/${route.page}.tsx`] : undefined;
  return load ?? plainNotOnline;
}

/** Title keys (namespace `menu`) of the plain routes, which have none in the route table. */
export const PLAIN_TITLES: Readonly<Record<string, string>> = {
  '/login': 'login',
  '/login/register': 'register',
  '/dingTalkLogin': 'dingTalkLogin',
  '/wechatLogin': 'wechatLogin',
  '/changePassword': 'changePassword',
  '/404': 'notFound',
};

/** The title key of a route (namespace `menu`). */
export function routeTitle(route: RouteDef): string {
  return route.title ?? PLAIN_TITLES[route.path] ?? 'home';
}
