import { endpoints, type LoginResponse } from '@marquee/protocol';
import { cleanup, configure, render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { createMemoryRouter, Outlet, RouterProvider } from 'react-router';
import { afterEach, beforeAll, beforeEach } from 'vitest';
import { setFetch } from '../src/api/client';
import { AntdProviders } from '../src/app/AntdRoot';
import { App } from '../src/app/App';
import { queryClient } from '../src/app/queryClient';
import { buildRoutes } from '../src/app/router';
import { i18n, initI18n, storeLocale } from '../src/i18n';
import { setNavigator } from '../src/session/navigation';
import { initialSessionState, useSession } from '../src/session/session';
import { useTabs } from '../src/shell/tabs/store';
import { installDomShims } from './domShims';

export { installDomShims };

export type Answer = { code: number; message?: string; payload?: unknown };
const byPath = Object.fromEntries(Object.entries(endpoints).map(([name, def]) => [def.path, name]));

/** A fake server: answers by endpoint name; records every call (name and decoded payload). */
export function fakeServer(answers: Record<string, (data: unknown) => Answer>) {
  const calls: { name: string; data: unknown }[] = [];
  setFetch(async (input, init) => {
    const url = new URL(String(input), 'http://console.test');
    const name = byPath[url.pathname] ?? url.pathname;
    const data = JSON.parse(new URLSearchParams(String(init?.body)).get('payload') ?? '{}');
    calls.push({ name, data });
    const answer = answers[name]?.(data) ?? { code: 0, payload: null };
    return new Response(JSON.stringify({ message: '', payload: null, ...answer }), {
      headers: { 'Content-Type': 'application/json' },
    });
  });
  return calls;
}

/** The shell's own calls, answered empty. */
export const shellAnswers: Record<string, (data: unknown) => Answer> = {
  stationLetterList: () => ({ code: 0, payload: [] }),
  noticeList: () => ({ code: 0, payload: { total: 0, data: [] } }),
  deptUserList: () => ({ code: 0, payload: [] }),
  enterpriseOptions: () => ({ code: 0, payload: [] }),
  homeStats: () => ({ code: 0, payload: { figures: {}, trends: {} } }),
};

export function loginResponse(extra: Partial<LoginResponse> = {}): LoginResponse {
  return {
    id: 'acc-1',
    userId: 'u-1',
    entId: 'ent-1',
    entName: 'Ada Media',
    homeEntId: 'ent-1',
    userName: 'Ada Admin',
    loginName: 'entadmin',
    deptId: 'd-1',
    deptName: 'Head office',
    welcomeSpeech: 'Good to see you',
    logo: '',
    isYXF: false,
    openWxLogin: 'N',
    thirdMonitorUser: false,
    updatePwd: false,
    permissionList: ['yxf_new_device', 'yxf_new_device_context'],
    folderMenuList: [
      { code: 'home', url: '/', icon: 'home' },
      { code: 'device', url: '/device', icon: 'device', children: [{ code: 'deviceContext', url: '/device/context' }] },
      { code: 'skin', url: '/skin' },
    ],
    token: 'tok-1',
    expiresIn: 3600,
    weakPassword: false,
    ...extra,
  };
}

/** The console's real route tree in a memory router, inside the real App root. */
export function renderApp(initial: string) {
  const router = createMemoryRouter(buildRoutes(), { initialEntries: [initial] });
  setNavigator((to, options) => void router.navigate(to, { replace: options?.replace }));
  return { router, tree: <App router={router} /> };
}

/**
 * Pages mounted directly (no shell), inside antd's root and i18n, signed in with `permissions`,
 * (and `login`'s fields), the memory router at `initial`: `routes` maps each path to its element (a stub stands for a
 * page the test only navigates to). Returns the router.
 */
export function renderPages(
  initial: string,
  routes: Record<string, ReactNode>,
  permissions: string[],
  login: Partial<LoginResponse> = {},
) {
  useSession.getState().setLogin(loginResponse({ permissionList: permissions, ...login }));
  const router = createMemoryRouter(
    [
      {
        element: (
          <AntdProviders>
            <Outlet />
          </AntdProviders>
        ),
        children: Object.entries(routes).map(([path, element]) => ({ path, element })),
      },
    ],
    { initialEntries: [initial] },
  );
  render(
    <I18nextProvider i18n={i18n}>
      <RouterProvider router={router} />
    </I18nextProvider>,
  );
  return router;
}

/**
 * The hooks of a console test file: DOM shims and en-US once; a signed-out session, no
 * tabs and (with `answers`) a fake server before each test; unmount after each. Lazy pages
 * compile in the test run, so `asyncUtilTimeout` is the file's wait for them.
 */
export function setUpConsoleTests(options: {
  asyncUtilTimeout: number;
  answers?: Record<string, (data: unknown) => Answer>;
}): void {
  beforeAll(async () => {
    configure({ asyncUtilTimeout: options.asyncUtilTimeout });
    installDomShims();
    storeLocale('en-US');
    await initI18n('en-US');
  });
  beforeEach(() => {
    useSession.setState({ ...initialSessionState(), locale: 'en-US' });
    useTabs.getState().reset();
    // no answer of an earlier test is taken for this one's (a fresh cache hides nothing)
    queryClient.clear();
    if (options.answers) fakeServer(options.answers);
  });
  afterEach(() => cleanup());
}
