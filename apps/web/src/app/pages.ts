import type { RouteDef } from '@marquee/protocol';
import type { ComponentType } from 'react';

/**
 * The page module of each online route (RouteDef.online). Every page is its own chunk; a
 * route whose module is not built yet gets the NotOnline page (inside the shell, or the
 * plain one for logged-out pages). A feature that comes online adds its loader here and
 * sets `online: true` in the protocol's route table.
 */
export type PageModule = { default: ComponentType };
export type PageLoader = () => Promise<PageModule>;

export const PAGE_LOADERS: Readonly<Record<string, PageLoader>> = {
  '/': () => import('../features/home/HomePage'),
  '/skin': () => import('../features/skin/SkinPage'),
  '/template': () => import('../features/template/TemplatePage'),
  '/login': () => import('../features/auth/LoginPage'),
  '/login/register': () => import('../features/auth/RegisterPage'),
  '/wechatLogin': () => import('../features/auth/WechatLoginPage'),
  '/dingTalkLogin': () => import('../features/auth/DingTalkLoginPage'),
  '/changePassword': () => import('../features/auth/ChangePasswordPage'),
  '/my': () => import('../features/my/MyPage'),
  '/dev/outbox': () => import('../features/outbox/OutboxPage'),
  '/404': () => import('../features/errors/NotFoundPage'),
  '/report/operationLog': () => import('../features/operationLog/OperationLogPage'),
  '/user/adv': () => import('../features/advertisers/AdvertiserPage'),
  '/user/allot': () => import('../features/advertisers/AllotPage'),
  '/user': () => import('../features/company/UserIndexPage'),
  '/user/company': () => import('../features/company/CompanyPage'),
  '/user/companyRole': () => import('../features/roles/RolesPage'),
};

const notOnline: PageLoader = () => import('../features/common/NotOnlinePage');
const plainNotOnline: PageLoader = () => import('../features/common/PlainNotOnlinePage');

/** The page loader of a route. */
export function pageLoader(route: RouteDef): PageLoader {
  const loader = route.online ? PAGE_LOADERS[route.path] : undefined;
  if (loader) return loader;
  return route.plain ? plainNotOnline : notOnline;
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
