import { ROUTES, type RouteDef } from '@marquee/protocol';
import {
  createBrowserRouter,
  type LoaderFunctionArgs,
  type RouteObject,
  redirect,
  redirectDocument,
} from 'react-router';
import { routeHandle } from '../components/routeHandle';
import { currentLocale, storeLocale } from '../i18n';
import { decideNavigation } from '../session/guards';
import { setNavigator } from '../session/navigation';
import { useSession } from '../session/session';
import { pageLoader, routeTitle } from './pages';
import { BootFallback, PlainLayout, RootLayout } from './RootLayout';
import { RouteErrorPage } from './RouteErrorPage';

/**
 * The console's routes, built from the protocol's route table (spec section 2). History mode.
 *
 *   root (guard loader, loading bar, document title)
 *   ├─ plain layout: /login                      (no antd: the first load stays small)
 *   └─ AntdRoot (antd providers, query client)
 *      ├─ plain layout: /404, /login/register, /dingTalkLogin, /wechatLogin, /{status}, *
 *      └─ MainLayout (the shell): every other route
 *
 * Every navigation passes the root loader (the guard); every page is a lazy chunk.
 */
export function guardLoader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const { token, permissionList, updatePwd } = useSession.getState();
  const decision = decideNavigation(url.pathname, url.search, {
    loggedIn: Boolean(token),
    permissions: permissionList,
    locale: currentLocale(),
    updatePwd,
  });
  if (decision.action === 'redirect') {
    if (decision.switchLocale) {
      // Only the current locale's resources are loaded, so a new locale needs a new document.
      storeLocale(decision.switchLocale);
      throw redirectDocument(decision.to);
    }
    throw redirect(decision.to);
  }
  return decision;
}

function pageRoute(def: RouteDef, inShell: boolean): RouteObject {
  const load = pageLoader(def);
  return {
    path: def.path,
    handle: routeHandle(def, routeTitle(def), inShell),
    lazy: async () => ({ Component: (await load()).default }),
    // Errors of a page stay inside the layout (the shell keeps its menu and tabs).
    ErrorBoundary: RouteErrorPage,
  };
}

const lazyAntdRoot: RouteObject['lazy'] = async () => {
  const mod = await import('./AntdRoot');
  await mod.prepareAntd();
  return { Component: mod.default };
};

export function buildRoutes(): RouteObject[] {
  const login = ROUTES.filter((r) => r.plain && r.path === '/login');
  const plain = ROUTES.filter((r) => r.plain && r.path !== '/login');
  const inShell = ROUTES.filter((r) => !r.plain);
  return [
    {
      id: 'root',
      loader: guardLoader,
      // The guard decides every navigation, not only the ones that change the root's params.
      shouldRevalidate: () => true,
      Component: RootLayout,
      ErrorBoundary: RouteErrorPage,
      HydrateFallback: BootFallback,
      children: [
        { id: 'plain-light', Component: PlainLayout, children: login.map((def) => pageRoute(def, false)) },
        {
          id: 'antd',
          lazy: lazyAntdRoot,
          children: [
            {
              id: 'plain',
              Component: PlainLayout,
              children: [
                ...plain.map((def) => pageRoute(def, false)),
                {
                  // `/{status}` pages (the client goes there on HTTP >= 400); the guard lets only 4xx/5xx through.
                  path: '/:status',
                  lazy: async () => ({ Component: (await import('../features/errors/StatusPage')).default }),
                },
                {
                  // The guard redirects every unknown path to /404 before anything renders; no loader
                  // here, because a child's redirect would race the guard's (loaders run in parallel).
                  path: '*',
                  lazy: async () => ({ Component: (await import('../features/errors/NotFoundPage')).default }),
                },
              ],
            },
            {
              id: 'main',
              lazy: async () => ({ Component: (await import('../shell/shellEntry')).default }),
              children: inShell.map((def) => pageRoute(def, true)),
            },
          ],
        },
      ],
    },
  ];
}

export type AppRouter = ReturnType<typeof createBrowserRouter>;

/** Creates the router and lets code outside components navigate through it. */
export function createAppRouter(): AppRouter {
  const router = createBrowserRouter(buildRoutes());
  setNavigator((to, options) => {
    void router.navigate(to, { replace: options?.replace });
  });
  return router;
}
