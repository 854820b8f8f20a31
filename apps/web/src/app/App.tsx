import { I18nextProvider } from 'react-i18next';
import { RouterProvider } from 'react-router';
import { i18n } from '../i18n';
import { OfflineBanner } from './OfflineBanner';
import type { AppRouter } from './router';

/**
 * The root: i18next, the offline banner (on every layout) and the router. antd's providers
 * (ConfigProvider with locale and skin theme, App for message/modal) and TanStack Query sit
 * in the lazy AntdRoot layout route that wraps every antd page, so the login route's first
 * load carries neither antd nor the query client (budget: 200 KB gzip of JavaScript).
 */
export function App({ router }: { router: AppRouter }) {
  return (
    <I18nextProvider i18n={i18n}>
      <OfflineBanner />
      <RouterProvider router={router} />
    </I18nextProvider>
  );
}
