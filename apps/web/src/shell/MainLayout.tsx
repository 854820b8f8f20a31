// The tab-aware leave tip, installed for pages (components/leaveTip.ts).
import './tabs/useLeaveTip';
import { ROUTES } from '@marquee/protocol';
import { App, theme } from 'antd';
import { type CSSProperties, useEffect, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useBlocker, useLocation, useMatches } from 'react-router';
import { useSession } from '../session/session';
import Header from './Header';
import { KeepAliveOutlet } from './KeepAlive';
import SideMenu from './SideMenu';
import { leaveConfirmProps } from './tabs/leaveConfirm';
import { affixViews, pageMatch, toVisitedView } from './tabs/routeView';
import { isCachedView, useTabs, type VisitedView, viewName } from './tabs/store';
import './shell.css';
import { useFreshUserInfo } from './useFreshUserInfo';

/**
 * The level-one heading of every page in the shell: the page's title (its tab's), for screen
 * readers and the document outline. Pages show their own visible titles below it at level 2
 * or lower; this is the one place a page's h1 comes from.
 */
function PageHeading({ view }: { view: VisitedView | null }) {
  const { t } = useTranslation('menu');
  const title = view?.meta.title ? t(view.meta.title) : '';
  return (
    <h1 id="mq-page-heading" className="mq-visually-hidden" data-testid="page-heading">
      {title}
    </h1>
  );
}

/** Adds the current route to the tabs on every navigation and returns its view. */
function useTrackView() {
  const matches = useMatches();
  const location = useLocation();
  const match = pageMatch(matches);
  const view = useMemo(
    () => (match ? toVisitedView(match, location) : null),
    // A new location object comes with every navigation; the view follows the URL and route.
    [match, location],
  );

  // Affix tabs come first, whatever page the console was opened on.
  useEffect(() => {
    const state = useTabs.getState();
    for (const affix of affixViews(ROUTES, useSession.getState().permissionList ?? [])) {
      if (!state.visitedViews.some((v) => v.path === affix.path)) state.addView(affix);
    }
  }, []);

  useEffect(() => {
    if (!view) return;
    const state = useTabs.getState();
    const open = state.visitedViews.find((v) => v.path === view.path);
    if (!open) state.addView(view);
    else if (open.fullPath !== view.fullPath) state.updateVisitedView(view);
    state.addCachedView(view);
  }, [view]);

  // isAutoLeave covers the one navigation that follows closing a tab.
  useEffect(() => {
    if (location.key) useTabs.getState().setAutoLeave(false);
  }, [location.key]);

  return view;
}

/**
 * Leaving a page that is not kept alive and registered a leave tip asks first (spec
 * section 4 "Tab close"); cached pages stay alive behind their tab, so leaving them loses
 * nothing. isAutoLeave (set when such a tab is closed) lets the navigation through.
 */
function useLeaveGuard() {
  const { modal } = App.useApp();
  const { t } = useTranslation(['shell', 'menu']);
  const leaving = useRef<VisitedView | null>(null);
  const blocker = useBlocker(({ currentLocation, nextLocation }) => {
    if (currentLocation.pathname === nextLocation.pathname) return false;
    const state = useTabs.getState();
    if (state.isAutoLeave) return false;
    const view = state.visitedViews.find((v) => v.path === currentLocation.pathname);
    const block = Boolean(view && !isCachedView(view) && state.leaveTips[viewName(view)]);
    if (block) leaving.current = view ?? null;
    return block;
  });

  // The blocker object changes identity on every render; the dialog must open once per block.
  const blockerRef = useRef(blocker);
  blockerRef.current = blocker;

  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    const title = leaving.current ? t(leaving.current.meta.title, { ns: 'menu' }) : '';
    let settled = false;
    const instance = modal.confirm({
      ...leaveConfirmProps(t, title),
      onOk: () => {
        settled = true;
        blockerRef.current.proceed?.();
      },
      onCancel: () => {
        settled = true;
        blockerRef.current.reset?.();
      },
    });
    return () => {
      if (!settled) instance.destroy();
    };
  }, [blocker.state, modal, t]);
}

/**
 * The main layout (spec section 2 "Layouts"): 80 px navigation rail, 90 px header with the
 * page-tabs strip, and the content area where the current page renders (kept alive while
 * its tab is open, unless its route is not cached).
 */
export default function MainLayout() {
  const { token } = theme.useToken();
  const view = useTrackView();
  useLeaveGuard();
  useFreshUserInfo();

  // Tokens of the active antd theme (the skin) for the shell's own CSS.
  const style = {
    '--mq-text': token.colorText,
    '--mq-text-2': token.colorTextSecondary,
    '--mq-text-3': token.colorTextTertiary,
    '--mq-border': token.colorBorderSecondary,
    '--mq-fill': token.colorFillTertiary,
    '--mq-fill-2': token.colorFillSecondary,
    '--mq-primary-bg': token.colorPrimaryBg,
    '--mq-primary-border': token.colorPrimaryBorder,
    '--mq-primary-c': token.colorPrimary,
    '--mq-primary-text': token.colorPrimaryText,
    '--mq-surface': token.colorBgContainer,
    '--mq-layout-bg': token.colorBgLayout,
    '--mq-error': token.colorError,
    '--mq-shadow': token.boxShadowTertiary,
  } as CSSProperties;

  return (
    <div className="mq-shell" style={style} data-testid="main-layout">
      <SideMenu />
      <div className="mq-main">
        <Header />
        <main className="mq-content" data-testid="main-content" aria-labelledby="mq-page-heading">
          <PageHeading view={view} />
          <KeepAliveOutlet current={view} />
        </main>
      </div>
    </div>
  );
}
