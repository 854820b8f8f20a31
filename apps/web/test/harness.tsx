import { endpoints, type LoginResponse } from '@marquee/protocol';
import { createMemoryRouter } from 'react-router';
import { setFetch } from '../src/api/client';
import { App } from '../src/app/App';
import { setNavigator } from '../src/app/navigation';
import { buildRoutes } from '../src/app/router';

/** jsdom lacks what antd's responsive and overflow code asks for. */
export function installDomShims(): void {
  if (!window.matchMedia) {
    window.matchMedia = (query: string) =>
      ({
        matches: false,
        media: query,
        onchange: null,
        addListener: () => {},
        removeListener: () => {},
        addEventListener: () => {},
        removeEventListener: () => {},
        dispatchEvent: () => false,
      }) as MediaQueryList;
  }
  if (!('ResizeObserver' in window)) {
    (window as unknown as { ResizeObserver: unknown }).ResizeObserver = class {
      observe() {}
      unobserve() {}
      disconnect() {}
    };
  }
}

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
};

export function loginResponse(extra: Partial<LoginResponse> = {}): LoginResponse {
  return {
    id: 'acc-1',
    userId: 'u-1',
    entId: 'ent-1',
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
