import { QueryClientProvider } from '@tanstack/react-query';
import { App as AntApp, ConfigProvider } from 'antd';
import type { Locale as AntdLocale } from 'antd/es/locale';
import { useEffect, useMemo } from 'react';
import { I18nextProvider } from 'react-i18next';
import { RouterProvider } from 'react-router';
import { setErrorToast } from '../api/notify';
import { i18n } from '../i18n';
import { OfflineBanner } from './OfflineBanner';
import { queryClient } from './queryClient';
import type { AppRouter } from './router';
import { useSession } from './session';
import { applySkinToBody, skinTheme } from './skins';

/** Gives the API client antd's themed, localised `message.error`. */
function ToastBridge() {
  const { message } = AntApp.useApp();
  useEffect(() => {
    setErrorToast((text) => {
      void message.error(text);
    });
    return () => setErrorToast(null);
  }, [message]);
  return null;
}

/**
 * The providers around every page: i18next, antd (locale and skin theme), antd's App for
 * message/modal/notification, TanStack Query, and the router; the offline banner sits at
 * the root so it shows on every layout.
 */
export function App({ router, antdLocale }: { router: AppRouter; antdLocale: AntdLocale }) {
  const skin = useSession((s) => s.skin);
  const theme = useMemo(() => skinTheme(skin), [skin]);
  useEffect(() => applySkinToBody(skin), [skin]);

  return (
    <I18nextProvider i18n={i18n}>
      <ConfigProvider locale={antdLocale} theme={theme}>
        <AntApp>
          <ToastBridge />
          <OfflineBanner />
          <QueryClientProvider client={queryClient}>
            <RouterProvider router={router} />
          </QueryClientProvider>
        </AntApp>
      </ConfigProvider>
    </I18nextProvider>
  );
}
