import {
  findRoute,
  hasPermission,
  LOCALES,
  type Locale,
  ROUTE_ALIASES,
  ROUTES,
  type RouteDef,
} from '@marquee/protocol';

/**
 * Navigation guard (spec sections 2, 4, 5, 6, 8) as pure functions, so every decision is
 * unit-tested without a router: locale prefix, aliases, error statuses, unknown paths,
 * login state and permissions. The router's root loader applies the decision.
 */
export interface GuardContext {
  loggedIn: boolean;
  permissions: readonly string[];
  /** The current interface locale (cookie). */
  locale: Locale;
  /** The account must change its password first (updatePwd): only the change page opens. */
  updatePwd?: boolean;
}

export type GuardDecision =
  | { action: 'render'; route: RouteDef }
  /** An error page reached through `/{status}` (the client goes there on HTTP >= 400). */
  | { action: 'status'; status: number }
  /** `switchLocale`: store this locale and load the target as a new document. */
  | { action: 'redirect'; to: string; switchLocale?: Locale };

export const NOT_FOUND_PATH = '/404';
export const LOGIN_PATH = '/login';
export const HOME_PATH = '/';
export const CHANGE_PASSWORD_PATH = '/changePassword';

/** First path segments of real routes and aliases: never read as a locale (e.g. `my`). */
const KNOWN_FIRST_SEGMENTS: ReadonlySet<string> = new Set(
  [...ROUTES.map((r) => r.path), ...Object.keys(ROUTE_ALIASES)]
    .map((path) => path.split('/').filter(Boolean)[0])
    .filter((s): s is string => Boolean(s)),
);

/** `en`, `ja`, `zh-CN`, `en-us`, `zh-Hant-TW`: a language tag. */
const LOCALE_LIKE = /^[a-z]{2,3}(?:[-_][A-Za-z0-9]{2,8})*$/i;

export function looksLikeLocale(segment: string): boolean {
  return !KNOWN_FIRST_SEGMENTS.has(segment) && LOCALE_LIKE.test(segment);
}

/** The allowed locale a segment names (case-insensitive, `_` or `-`), if any. */
export function matchLocale(segment: string): Locale | undefined {
  const normal = segment.replace('_', '-').toLowerCase();
  return LOCALES.find((l) => l.toLowerCase() === normal);
}

/** Strips a trailing slash (except for the root) and collapses repeated slashes. */
export function normalizePath(pathname: string): string {
  const collapsed = pathname.replace(/\/{2,}/g, '/');
  return collapsed.length > 1 ? collapsed.replace(/\/+$/, '') || '/' : collapsed || '/';
}

/** A status page path: `/400` to `/599`. */
export function statusOf(pathname: string): number | undefined {
  const match = /^\/([45]\d\d)$/.exec(pathname);
  return match ? Number(match[1]) : undefined;
}

/** A redirect target taken from a query parameter: only same-site absolute paths. */
export function safeRedirect(target: string | null | undefined, fallback = HOME_PATH): string {
  if (!target?.startsWith('/') || target.startsWith('//') || target.startsWith('/\\')) return fallback;
  const path = target.split(/[?#]/)[0];
  if (path === LOGIN_PATH) return fallback;
  return target;
}

/**
 * Decides what a navigation to `pathname` (+ `search`, kept on redirects) does.
 * Order: locale prefix, alias, /{status}, unknown route, login state, permission.
 */
export function decideNavigation(pathname: string, search: string, ctx: GuardContext): GuardDecision {
  const path = normalizePath(pathname);
  const segments = path.split('/').filter(Boolean);
  const first = segments[0];

  if (first && looksLikeLocale(first)) {
    const locale = matchLocale(first);
    if (!locale) return { action: 'redirect', to: NOT_FOUND_PATH };
    const rest = `/${segments.slice(1).join('/')}${search}`;
    // Spec section 5: the fallback locale's prefix redirects to the unprefixed path; another
    // allowed locale becomes the interface language first. Either way the path loses its prefix.
    if (locale === ctx.locale) return { action: 'redirect', to: rest };
    return { action: 'redirect', to: rest, switchLocale: locale };
  }

  if (path !== pathname) return { action: 'redirect', to: `${path}${search}` };

  const alias = ROUTE_ALIASES[path];
  if (alias) return { action: 'redirect', to: `${alias}${search}` };

  const status = statusOf(path);
  if (status !== undefined && status !== 404) return { action: 'status', status };

  const route = findRoute(path);
  if (!route) return { action: 'redirect', to: NOT_FOUND_PATH };

  // Forced password change: a logged-in account that must change its password sees that page only.
  if (ctx.loggedIn && ctx.updatePwd && path !== CHANGE_PASSWORD_PATH && path !== NOT_FOUND_PATH) {
    return { action: 'redirect', to: CHANGE_PASSWORD_PATH };
  }
  if (path === CHANGE_PASSWORD_PATH && !ctx.loggedIn) return { action: 'redirect', to: LOGIN_PATH };

  if (route.plain) {
    if (path === LOGIN_PATH && ctx.loggedIn) return { action: 'redirect', to: HOME_PATH };
    return { action: 'render', route };
  }

  if (!ctx.loggedIn) {
    const back = `${path}${search}`;
    return {
      action: 'redirect',
      to: back === HOME_PATH ? LOGIN_PATH : `${LOGIN_PATH}?redirect=${encodeURIComponent(back)}`,
    };
  }

  // Spec section 6: any other path with a required code the user lacks redirects to /404.
  if (!hasPermission(ctx.permissions, route.permission)) return { action: 'redirect', to: NOT_FOUND_PATH };

  return { action: 'render', route };
}
