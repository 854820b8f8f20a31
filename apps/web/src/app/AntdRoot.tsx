import { QueryClientProvider } from '@tanstack/react-query';
import { App as AntApp, ConfigProvider } from 'antd';
import type { Locale as AntdLocale } from 'antd/es/locale';
import { type ReactNode, useEffect, useMemo } from 'react';
import { Outlet } from 'react-router';
import { setErrorToast } from '../api/notify';
import { skinTheme } from '../components/skins';
import { currentLocale, loadRemainingNamespaces } from '../i18n';
import { usePendingNotices } from '../session/notices';
import { useSession } from '../session/session';
import { loadAntdLocale } from './antdLocale';
import { queryClient } from './queryClient';

let antdLocale: AntdLocale | undefined;

/**
 * Loads antd's texts of the current locale and the console's namespaces the login route did not
 * load; the routes await it before rendering antd pages.
 */
export async function prepareAntd(): Promise<void> {
  const [locale] = await Promise.all([antdLocale ?? loadAntdLocale(currentLocale()), loadRemainingNamespaces()]);
  antdLocale ??= locale;
}

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

/** Shows what the login page left to say (login toast, weak-password and password-change notices). */
function PendingNotices() {
  const { message, modal } = AntApp.useApp();
  const items = usePendingNotices((s) => s.items);
  useEffect(() => {
    if (items.length === 0) return;
    for (const notice of usePendingNotices.getState().take()) {
      if (!notice.title) void message.open({ type: notice.kind, content: notice.content });
      else modal[notice.kind]({ title: notice.title, content: notice.content });
    }
  }, [items, message, modal]);
  return null;
}

/**
 * antd's button option of a locale: the space antd puts between two CJK characters ('确 定')
 * is a Chinese typesetting habit; Japanese buttons read '保存' without it.
 */
export function buttonConfig(locale: string): { autoInsertSpace: boolean } {
  return { autoInsertSpace: locale === 'zh-CN' };
}

/**
 * Toasts open below the shell's header (90 px) and its red station-letter banner, which
 * antd's default (8 px from the top) covered, the login toast first of all (issue 8).
 */
export const TOAST_TOP = 98;

/** antd's providers with the session's skin and the locale's texts. */
export function AntdProviders({ children }: { children: ReactNode }) {
  const skin = useSession((s) => s.skin);
  const theme = useMemo(() => skinTheme(skin), [skin]);
  const button = useMemo(() => buttonConfig(currentLocale()), []);
  return (
    <ConfigProvider locale={antdLocale} theme={theme} button={button}>
      <AntApp message={{ top: TOAST_TOP }}>
        <ToastBridge />
        <PendingNotices />
        <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
      </AntApp>
    </ConfigProvider>
  );
}

/**
 * The layout route of every page built with antd: the shell and all its pages, and the
 * plain antd pages (404, error, not online). It carries antd's ConfigProvider (locale and
 * skin theme), antd's App (message, modal, notification) and TanStack Query. The login
 * page stays outside so the first load needs no antd.
 */
export default function AntdRoot() {
  return (
    <AntdProviders>
      <Outlet />
    </AntdProviders>
  );
}
