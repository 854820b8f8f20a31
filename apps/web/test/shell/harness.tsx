import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App as AntApp, ConfigProvider } from 'antd';
import { type ReactNode, StrictMode, useState } from 'react';
import { I18nextProvider } from 'react-i18next';
import { createMemoryRouter, type RouteObject, RouterProvider } from 'react-router';
import { i18n } from '../../src/i18n';
import MainLayout from '../../src/shell/MainLayout';
import { useLeaveTip } from '../../src/shell/tabs/useLeaveTip';
import { installDomShims } from '../domShims';

export { installDomShims };

/** A page with local state, to tell a kept-alive page from a remounted one. */
function CounterPage({ name }: { name: string }) {
  const [count, setCount] = useState(0);
  return (
    <div>
      <span data-testid={`page-${name}`}>{name}</span>
      <button type="button" data-testid={`inc-${name}`} onClick={() => setCount((c) => c + 1)}>
        {`count-${name}:${count}`}
      </button>
    </div>
  );
}

/** A page that registers a leave tip (like the ad editor with unsaved changes). */
function EditorPage() {
  const [dirty, setDirty] = useState(true);
  useLeaveTip(dirty);
  return (
    <div>
      <span data-testid="page-editor">editor</span>
      <button type="button" data-testid="save-editor" onClick={() => setDirty(false)}>
        save
      </button>
      <CounterPage name="editor-state" />
    </div>
  );
}

const meta = (path: string, title: string, extra: { affix?: boolean; isCache?: boolean } = {}) => ({
  meta: { title, key: path, affix: Boolean(extra.affix), isCache: extra.isCache !== false },
});

export function shellRoutes(): RouteObject[] {
  return [
    {
      id: 'main',
      Component: MainLayout,
      children: [
        { path: '/', handle: meta('/', 'home', { affix: true }), element: <CounterPage name="home" /> },
        { path: '/device', handle: meta('/device', 'device'), element: <CounterPage name="device" /> },
        { path: '/report', handle: meta('/report', 'report'), element: <CounterPage name="report" /> },
        { path: '/skin', handle: meta('/skin', 'skin'), element: <CounterPage name="skin" /> },
        { path: '/shop', handle: meta('/shop', 'shop'), element: <CounterPage name="shop" /> },
        {
          path: '/advert/edit',
          handle: meta('/advert/edit', 'advertEdit', { isCache: false }),
          element: <EditorPage />,
        },
        {
          path: '/template/edit',
          handle: meta('/template/edit', 'templateEdit', { isCache: false }),
          element: <CounterPage name="template-edit" />,
        },
      ],
    },
    { path: '/login', element: <div data-testid="page-login">login</div> },
  ];
}

export function renderShell(initial: string, wrap?: (node: ReactNode) => ReactNode) {
  const router = createMemoryRouter(shellRoutes(), { initialEntries: [initial] });
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const tree = (
    <StrictMode>
      <I18nextProvider i18n={i18n}>
        <ConfigProvider>
          <AntApp>
            <QueryClientProvider client={queryClient}>
              <RouterProvider router={router} />
            </QueryClientProvider>
          </AntApp>
        </ConfigProvider>
      </I18nextProvider>
    </StrictMode>
  );
  return { router, queryClient, tree: wrap ? wrap(tree) : tree };
}
