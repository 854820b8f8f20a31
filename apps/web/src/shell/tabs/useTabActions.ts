import { useQueryClient } from '@tanstack/react-query';
import { App } from 'antd';
import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { leaveConfirmProps } from './leaveConfirm';
import { isCachedView, pathAfterClose, useTabs, type VisitedView, viewName } from './store';

/** The index page: where closing the last tab leads when no other tab is left. */
export const INDEX_PATH = '/';

export interface TabActions {
  isActive(view: VisitedView): boolean;
  /** Closes one tab (spec section 4 "Tab close"). Resolves false when the user stays. */
  close(view: VisitedView): Promise<boolean>;
  closeOthers(view: VisitedView): Promise<boolean>;
  closeAll(): Promise<boolean>;
  /** Remounts the view's page and shows it. */
  refresh(view: VisitedView): void;
  open(view: VisitedView): void;
}

/**
 * Tab bar actions with the rules of spec sections 2 and 4: affix tabs never close; a view
 * that registered a leave tip asks first (unless isAutoLeave is set); closing a view that is
 * not cached sets isAutoLeave so the navigation that follows does not ask again; closing the
 * active tab goes to the last remaining tab, else the index page, else '/'.
 */
export function useTabActions(): TabActions {
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  const { modal } = App.useApp();
  const { t } = useTranslation(['shell', 'menu']);
  const pathname = location.pathname;

  const confirmLeave = useCallback(
    async (views: readonly VisitedView[]): Promise<boolean> => {
      const state = useTabs.getState();
      if (state.isAutoLeave) return true;
      const tipped = views.filter((v) => state.leaveTips[viewName(v)]);
      if (tipped.length === 0) return true;
      const titles = tipped.map((v) => t(v.meta.title, { ns: 'menu' })).join(t('tabs.leave.separator'));
      return modal.confirm(leaveConfirmProps(t, titles));
    },
    [modal, t],
  );

  /** Marks auto-leave for the navigation that follows closing views that are not cached. */
  const markAutoLeave = useCallback((closed: readonly VisitedView[], willNavigate: boolean) => {
    // With no navigation following, the flag would silence the next genuine leave tip.
    if (willNavigate && closed.some((v) => !isCachedView(v))) useTabs.getState().setAutoLeave(true);
  }, []);

  return useMemo<TabActions>(() => {
    const isActive = (view: VisitedView) => view.path === pathname;
    return {
      isActive,
      open(view) {
        if (!isActive(view) || view.fullPath !== `${location.pathname}${location.search}${location.hash}`)
          navigate(view.fullPath);
      },
      async close(view) {
        if (view.meta.affix) return false;
        if (!(await confirmLeave([view]))) return false;
        const active = isActive(view);
        markAutoLeave([view], active);
        const { visitedViews } = useTabs.getState().delView(view);
        if (active) navigate(pathAfterClose(visitedViews, INDEX_PATH));
        return true;
      },
      async closeOthers(view) {
        const closing = useTabs.getState().visitedViews.filter((v) => !v.meta.affix && v.path !== view.path);
        if (!(await confirmLeave(closing))) return false;
        const navigateAway = !isActive(view);
        markAutoLeave(
          closing.filter((v) => isActive(v)),
          navigateAway,
        );
        useTabs.getState().delOthersViews(view);
        if (navigateAway) navigate(view.fullPath);
        return true;
      },
      async closeAll() {
        const closing = useTabs.getState().visitedViews.filter((v) => !v.meta.affix);
        if (!(await confirmLeave(closing))) return false;
        const activeClosed = closing.some(isActive);
        markAutoLeave(closing.filter(isActive), activeClosed);
        const { visitedViews } = useTabs.getState().delAllViews();
        if (activeClosed) navigate(pathAfterClose(visitedViews, INDEX_PATH));
        return true;
      },
      refresh(view) {
        // A refreshed page starts from fresh data, not from what the query cache still holds.
        void queryClient.invalidateQueries({ refetchType: 'none' });
        useTabs.getState().refreshView(view);
        if (!isActive(view)) navigate(view.fullPath);
      },
    };
  }, [pathname, location.pathname, location.search, location.hash, navigate, confirmLeave, markAutoLeave, queryClient]);
}
