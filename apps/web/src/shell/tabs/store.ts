import { create } from 'zustand';
import { onLoggedOut } from '../../session/session';

/**
 * The page-tabs store (spec section 3 "Visited tab", guide convention 11): the
 * vue-element-admin tags-view semantics, kept apart as visited views (the tabs) and cached
 * views (the pages kept alive by the main layout), plus the isAutoLeave flag of the tab
 * close rule (spec section 4 "Tab close").
 *
 * A visited view is identified by its `path` (one tab per path; a new query updates the tab);
 * a cached view by its `name` (the route's `meta.key`), which is also the keep-alive key.
 */

export interface TabMeta {
  /** Title key in the i18n namespace `menu`. */
  title: string;
  /** The route key: the keep-alive key of the page. */
  key: string;
  /** Pinned tab: never closed. */
  affix?: boolean;
  /** Kept alive while the tab is open; `false` for pages that must start fresh. */
  isCache?: boolean;
}

export interface VisitedView {
  path: string;
  /** Path with search and hash: what a click on the tab navigates to. */
  fullPath: string;
  query: Record<string, string>;
  params: Record<string, string | undefined>;
  name: string;
  meta: TabMeta;
}

export interface TabsSnapshot {
  visitedViews: VisitedView[];
  cachedViews: string[];
}

export interface TabsState extends TabsSnapshot {
  /** Set when the current view may be left without its leave tip (spec section 4 "Tab close"). */
  isAutoLeave: boolean;
  /** Per view name, a counter bumped by refreshView; the layout uses it in the page's React key. */
  refreshKeys: Record<string, number>;
  /** View names whose page registered a leave tip (useLeaveTip). */
  leaveTips: Record<string, true>;

  addView(view: VisitedView): void;
  addVisitedView(view: VisitedView): void;
  addCachedView(view: VisitedView): void;
  delView(view: VisitedView): TabsSnapshot;
  delVisitedView(view: VisitedView): TabsSnapshot;
  delCachedView(view: VisitedView): TabsSnapshot;
  delOthersViews(view: VisitedView): TabsSnapshot;
  delAllViews(): TabsSnapshot;
  updateVisitedView(view: VisitedView): void;
  /** Remounts the view's page (and drops its kept-alive state). */
  refreshView(view: VisitedView): void;
  setAutoLeave(value: boolean): void;
  setLeaveTip(name: string, enabled: boolean): void;
  /** Forgets everything, affix tabs included (used on logout). */
  reset(): void;
}

/** A view is cached unless its route says otherwise. */
export function isCachedView(view: Pick<VisitedView, 'meta'>): boolean {
  return view.meta.isCache !== false;
}

/** The view name used for caching, refresh and leave tips. */
export function viewName(view: Pick<VisitedView, 'name' | 'meta' | 'path'>): string {
  return view.name || view.meta.key || view.path;
}

/**
 * Where to go after closing the active tab (spec section 2 "Tab bar"): the last remaining
 * tab, else the index page, else '/'.
 */
export function pathAfterClose(remaining: readonly VisitedView[], indexPath?: string): string {
  const last = remaining.at(-1);
  if (last) return last.fullPath;
  return indexPath || '/';
}

const initial = (): Pick<TabsState, 'visitedViews' | 'cachedViews' | 'isAutoLeave' | 'refreshKeys' | 'leaveTips'> => ({
  visitedViews: [],
  cachedViews: [],
  isAutoLeave: false,
  refreshKeys: {},
  leaveTips: {},
});

function withoutKeys<T>(record: Record<string, T>, keep: (name: string) => boolean): Record<string, T> {
  const out: Record<string, T> = {};
  for (const [name, value] of Object.entries(record)) if (keep(name)) out[name] = value;
  return out;
}

export const useTabs = create<TabsState>()((set, get) => {
  const snapshot = (): TabsSnapshot => ({ visitedViews: get().visitedViews, cachedViews: get().cachedViews });

  /** Keeps refresh counters and leave tips only for views that are still open. */
  const prune = () =>
    set((s) => {
      const open = new Set(s.visitedViews.map(viewName));
      return {
        refreshKeys: withoutKeys(s.refreshKeys, (n) => open.has(n)),
        leaveTips: withoutKeys(s.leaveTips, (n) => open.has(n)),
      };
    });

  return {
    ...initial(),

    addView(view) {
      get().addVisitedView(view);
      get().addCachedView(view);
    },

    addVisitedView(view) {
      set((s) => {
        if (s.visitedViews.some((v) => v.path === view.path)) return s;
        return { visitedViews: [...s.visitedViews, { ...view, name: viewName(view) }] };
      });
    },

    addCachedView(view) {
      if (!isCachedView(view)) return;
      const name = viewName(view);
      set((s) => (s.cachedViews.includes(name) ? s : { cachedViews: [...s.cachedViews, name] }));
    },

    delView(view) {
      get().delVisitedView(view);
      get().delCachedView(view);
      return snapshot();
    },

    delVisitedView(view) {
      set((s) => ({ visitedViews: s.visitedViews.filter((v) => v.path !== view.path) }));
      prune();
      return snapshot();
    },

    delCachedView(view) {
      const name = viewName(view);
      set((s) => ({ cachedViews: s.cachedViews.filter((n) => n !== name) }));
      return snapshot();
    },

    delOthersViews(view) {
      const name = viewName(view);
      set((s) => ({
        visitedViews: s.visitedViews.filter((v) => v.meta.affix || v.path === view.path),
        cachedViews: s.cachedViews.filter(
          (n) => n === name || s.visitedViews.some((v) => v.meta.affix && viewName(v) === n),
        ),
      }));
      prune();
      return snapshot();
    },

    delAllViews() {
      set((s) => {
        const affix = s.visitedViews.filter((v) => v.meta.affix);
        const affixNames = new Set(affix.map(viewName));
        return { visitedViews: affix, cachedViews: s.cachedViews.filter((n) => affixNames.has(n)) };
      });
      prune();
      return snapshot();
    },

    updateVisitedView(view) {
      set((s) => ({
        visitedViews: s.visitedViews.map((v) =>
          v.path === view.path ? { ...v, ...view, name: viewName(view), meta: { ...v.meta, ...view.meta } } : v,
        ),
      }));
    },

    refreshView(view) {
      const name = viewName(view);
      set((s) => ({ refreshKeys: { ...s.refreshKeys, [name]: (s.refreshKeys[name] ?? 0) + 1 } }));
    },

    setAutoLeave(value) {
      set({ isAutoLeave: value });
    },

    setLeaveTip(name, enabled) {
      set((s) => {
        if (enabled === Boolean(s.leaveTips[name])) return s;
        return { leaveTips: enabled ? { ...s.leaveTips, [name]: true } : withoutKeys(s.leaveTips, (n) => n !== name) };
      });
    },

    reset() {
      set(initial());
    },
  };
});

// A logout closes every tab, affix ones included: the next user may not have them.
onLoggedOut(() => {
  const tabs = useTabs.getState();
  tabs.delAllViews();
  tabs.reset();
});
