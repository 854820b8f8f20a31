import type { RouteDef } from '@marquee/protocol';
import type { PageLoader } from '../components/routeHandle';

/**
 * The page module of each online route outside the shell (`plain` routes); the shell's pages
 * are in `shell/pages.ts` and load through the shell's chunk. Every page is its own chunk; a
 * route whose module is not built yet gets the NotOnline page (inside the shell, or the plain
 * one for logged-out pages). A feature that comes online adds its loader to the list of its
 * side and sets `online: true` in the protocol's route table.
 */
export const PAGE_LOADERS: Readonly<Record<string, PageLoader>> = {
  '/login': () => import('../features/auth/LoginPage'),
  '/login/register': () => import('../features/auth/RegisterPage'),
  '/wechatLogin': () => import('../features/auth/WechatLoginPage'),
  '/dingTalkLogin': () => import('../features/auth/DingTalkLoginPage'),
  '/changePassword': () => import('../features/auth/ChangePasswordPage'),
  '/404': () => import('../features/errors/NotFoundPage'),
};

const plainNotOnline: PageLoader = () => import('../features/common/PlainNotOnlinePage');

/** The page loader of a route. */
export function pageLoader(route: RouteDef): PageLoader {
  if (!route.plain) return async () => (await import('../shell/shellEntry')).shellPageLoader(route)();
  return (route.online ? PAGE_LOADERS[route.path] : undefined) ?? plainNotOnline;
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
