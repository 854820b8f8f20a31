import { Perm, ROUTE_ALIASES, ROUTES } from '@marquee/protocol';
import { describe, expect, it } from 'vitest';
import {
  decideNavigation,
  type GuardContext,
  looksLikeLocale,
  normalizePath,
  safeRedirect,
  statusOf,
} from '../src/session/guards';

const everything = ROUTES.map((r) => r.permission).filter((p): p is string => Boolean(p));
const admin: GuardContext = { loggedIn: true, permissions: everything, locale: 'zh-CN' };
const staff: GuardContext = { loggedIn: true, permissions: [Perm.device, Perm.deviceContext], locale: 'zh-CN' };
const anonymous: GuardContext = { loggedIn: false, permissions: [], locale: 'zh-CN' };

describe('aliases (spec section 2 "Menu URL aliases")', () => {
  it('redirects every alias to its real route, keeping the query', () => {
    for (const [alias, real] of Object.entries(ROUTE_ALIASES)) {
      expect(decideNavigation(alias, '?page=2', admin)).toEqual({ action: 'redirect', to: `${real}?page=2` });
    }
  });

  it('leaves /shop/order and /help unchanged', () => {
    expect(decideNavigation('/shop/order', '', admin)).toMatchObject({
      action: 'render',
      route: { path: '/shop/order' },
    });
    expect(decideNavigation('/help', '', admin)).toMatchObject({ action: 'render', route: { path: '/help' } });
  });
});

describe('unknown paths and statuses', () => {
  it('sends unknown paths to /404', () => {
    expect(decideNavigation('/nothing/here', '', admin)).toEqual({ action: 'redirect', to: '/404' });
    expect(decideNavigation('/device/unknown', '', admin)).toEqual({ action: 'redirect', to: '/404' });
  });

  it('renders /404 for everyone', () => {
    expect(decideNavigation('/404', '', anonymous)).toMatchObject({ action: 'render', route: { path: '/404' } });
    expect(decideNavigation('/404', '', admin)).toMatchObject({ action: 'render', route: { path: '/404' } });
  });

  it('shows the error page for /{status} of 400 and above', () => {
    expect(decideNavigation('/500', '', anonymous)).toEqual({ action: 'status', status: 500 });
    expect(decideNavigation('/403', '', admin)).toEqual({ action: 'status', status: 403 });
    expect(statusOf('/200')).toBeUndefined();
    expect(statusOf('/4000')).toBeUndefined();
  });

  it('normalises trailing and repeated slashes', () => {
    expect(normalizePath('/device/')).toBe('/device');
    expect(normalizePath('//device//group')).toBe('/device/group');
    expect(normalizePath('/')).toBe('/');
    expect(decideNavigation('/device/', '?a=1', admin)).toEqual({ action: 'redirect', to: '/device?a=1' });
  });
});

describe('login state (spec sections 4 and 6)', () => {
  it('sends a logged-out user to /login, remembering where they were going', () => {
    expect(decideNavigation('/', '', anonymous)).toEqual({ action: 'redirect', to: '/login' });
    expect(decideNavigation('/device', '?x=1', anonymous)).toEqual({
      action: 'redirect',
      to: `/login?redirect=${encodeURIComponent('/device?x=1')}`,
    });
  });

  it('sends a logged-in user away from /login', () => {
    expect(decideNavigation('/login', '', admin)).toEqual({ action: 'redirect', to: '/' });
    expect(decideNavigation('/login', '', anonymous)).toMatchObject({ action: 'render' });
  });

  it('lets anyone see the other logged-out pages', () => {
    for (const path of ['/login/register', '/dingTalkLogin', '/wechatLogin']) {
      expect(decideNavigation(path, '', anonymous)).toMatchObject({ action: 'render', route: { path, plain: true } });
    }
  });

  it('accepts only same-site paths as the after-login target', () => {
    expect(safeRedirect('/device?x=1')).toBe('/device?x=1');
    expect(safeRedirect('//evil.example/')).toBe('/');
    expect(safeRedirect('/\\evil.example')).toBe('/');
    expect(safeRedirect('https://evil.example/')).toBe('/');
    expect(safeRedirect('/login')).toBe('/');
    expect(safeRedirect(null)).toBe('/');
  });
});

describe('permissions (spec section 6)', () => {
  it('sends a route whose code the user lacks to /404', () => {
    expect(decideNavigation('/user', '', staff)).toEqual({ action: 'redirect', to: '/404' });
    expect(decideNavigation('/report/flowConsumption', '', staff)).toEqual({ action: 'redirect', to: '/404' });
  });

  it('renders routes the user holds, and routes without a mapping', () => {
    expect(decideNavigation('/device/context', '', staff)).toMatchObject({ action: 'render' });
    expect(decideNavigation('/', '', staff)).toMatchObject({ action: 'render', route: { path: '/' } });
    expect(decideNavigation('/skin', '', staff)).toMatchObject({ action: 'render', route: { path: '/skin' } });
  });

  it('checks the permission of the real route behind an alias', () => {
    const to = decideNavigation('/dev_mag', '', staff);
    expect(to).toEqual({ action: 'redirect', to: '/device' });
    expect(decideNavigation('/device', '', staff)).toMatchObject({ action: 'render' });
    expect(decideNavigation('/corporate_manage', '', staff)).toEqual({ action: 'redirect', to: '/user/company' });
    expect(decideNavigation('/user/company', '', staff)).toEqual({ action: 'redirect', to: '/404' });
  });

  it('uses the special codes of the spec', () => {
    const ctx: GuardContext = { ...staff, permissions: [Perm.sourceConsumption, Perm.specialResource] };
    expect(decideNavigation('/report/flowConsumption', '', ctx)).toMatchObject({ action: 'render' });
    expect(decideNavigation('/special/resource', '', ctx)).toMatchObject({ action: 'render' });
  });
});

describe('locale prefix (spec section 5)', () => {
  it('redirects the fallback locale prefix to the unprefixed path', () => {
    expect(decideNavigation('/zh-CN/device', '?q=1', admin)).toEqual({ action: 'redirect', to: '/device?q=1' });
    expect(decideNavigation('/zh-CN', '', admin)).toEqual({ action: 'redirect', to: '/' });
  });

  it('switches to another allowed locale and drops the prefix', () => {
    expect(decideNavigation('/en-US/device', '', admin)).toEqual({
      action: 'redirect',
      to: '/device',
      switchLocale: 'en-US',
    });
    expect(decideNavigation('/ja/login', '', anonymous)).toEqual({
      action: 'redirect',
      to: '/login',
      switchLocale: 'ja',
    });
    expect(decideNavigation('/ja/login', '', { ...anonymous, locale: 'ja' })).toEqual({
      action: 'redirect',
      to: '/login',
    });
  });

  it('a prefix for the fallback while another locale is active switches back to it', () => {
    expect(decideNavigation('/zh-CN/skin', '', { ...admin, locale: 'en-US' })).toEqual({
      action: 'redirect',
      to: '/skin',
      switchLocale: 'zh-CN',
    });
  });

  it('sends a locale outside the allowed list to /404', () => {
    expect(decideNavigation('/fr-FR/device', '', admin)).toEqual({ action: 'redirect', to: '/404' });
    expect(decideNavigation('/de', '', admin)).toEqual({ action: 'redirect', to: '/404' });
  });

  it('does not read real route segments as locales', () => {
    expect(looksLikeLocale('my')).toBe(false);
    expect(looksLikeLocale('pay')).toBe(false);
    expect(looksLikeLocale('en-US')).toBe(true);
    expect(decideNavigation('/my', '', admin)).toMatchObject({ action: 'render', route: { path: '/my' } });
    expect(decideNavigation('/my/finance', '', admin)).toMatchObject({ action: 'render' });
  });
});

describe('route table and pages', () => {
  it("finds every route's page module on its side of the shell, and every page module is a route's", async () => {
    const { PAGE_MODULES } = await import('../src/app/pages');
    const { SHELL_PAGE_MODULES } = await import('../src/shell/pages');
    const pages = (plain: boolean) =>
      [
        ...new Set(ROUTES.filter((r) => r.page && Boolean(r.plain) === plain).map((r) => `../features/${r.page}.tsx`)),
      ].sort();
    // The plain side's glob also sees the error pages the router shows itself.
    expect(Object.keys(PAGE_MODULES)).toEqual(expect.arrayContaining(pages(true)));
    // A page module no route names would be dead code with a chunk of its own.
    expect(Object.keys(SHELL_PAGE_MODULES).sort()).toEqual(pages(false));
    for (const r of ROUTES) expect(Boolean(r.online), r.path).toBe(Boolean(r.page));
  });

  it('puts tab meta on shell routes, with isCache false for the four uncached pages', async () => {
    const { buildRoutes } = await import('../src/app/router');
    const shell: { path?: string; handle?: { meta?: { isCache: boolean; affix: boolean; key: string } } }[] = [];
    const walk = (routes: ReturnType<typeof buildRoutes>, inMain: boolean) => {
      for (const route of routes) {
        if (inMain && route.path) shell.push(route);
        walk(route.children ?? [], inMain || route.id === 'main');
      }
    };
    walk(buildRoutes(), false);
    expect(shell.length).toBe(ROUTES.filter((r) => !r.plain).length);
    const uncached = shell.filter((r) => r.handle?.meta?.isCache === false).map((r) => r.path);
    expect(uncached.sort()).toEqual(['/advert/edit', '/poster/editor', '/template/edit', '/template/new']);
    expect(shell.find((r) => r.path === '/')?.handle?.meta).toMatchObject({ affix: true, key: '/' });
  });
});
