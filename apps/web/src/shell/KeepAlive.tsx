import { Activity, type ContextType, type ReactNode, useContext, useRef } from 'react';
import { UNSAFE_LocationContext as LocationContext, useOutlet } from 'react-router';
import { isCachedView, useTabs, type VisitedView } from './tabs/store';
import { ViewContext, type ViewContextValue } from './tabs/viewContext';

type LocationContextValue = ContextType<typeof LocationContext>;

interface Kept {
  element: ReactNode;
  /** The location the view last had on screen: hidden pages keep seeing their own URL. */
  location: LocationContextValue;
}

/**
 * The page area with keep-alive (guide convention 11, tags-view's <keep-alive>): the
 * rendered element of every cached view stays mounted but hidden (React Activity: state
 * kept, effects paused) while its tab is open; views that are not cached unmount on leave.
 * Each page is keyed by its view name and refresh counter, so a refresh remounts it.
 */
export function KeepAliveOutlet({ current }: { current: VisitedView | null }) {
  const outlet = useOutlet();
  const locationContext = useContext(LocationContext);
  const cachedViews = useTabs((s) => s.cachedViews);
  const refreshKeys = useTabs((s) => s.refreshKeys);
  const kept = useRef(new Map<string, Kept>());
  // Stable context values, so hidden pages do not re-render for every layout render.
  const contexts = useRef(new Map<string, ViewContextValue>());
  const viewContext = (name: string, active: boolean): ViewContextValue => {
    const id = `${active ? 1 : 0}${name}`;
    let value = contexts.current.get(id);
    if (!value) {
      value = { name, active };
      contexts.current.set(id, value);
    }
    return value;
  };

  const currentName = current?.name;
  const currentCached = current ? isCachedView(current) : false;

  // Stash the current element (render-time bookkeeping: idempotent, so safe to repeat).
  if (current && currentCached) kept.current.set(current.name, { element: outlet, location: locationContext });
  for (const name of kept.current.keys()) {
    if (name !== currentName && !cachedViews.includes(name)) kept.current.delete(name);
  }
  for (const id of contexts.current.keys()) {
    const name = id.slice(1);
    if (name !== currentName && !kept.current.has(name)) contexts.current.delete(id);
  }

  const pages: ReactNode[] = [];
  for (const [name, entry] of kept.current) {
    const active = name === currentName;
    pages.push(
      <Activity key={`${name}#${refreshKeys[name] ?? 0}`} mode={active ? 'visible' : 'hidden'}>
        <LocationContext.Provider value={active ? locationContext : entry.location}>
          <ViewContext.Provider value={viewContext(name, active)}>
            <div className="mq-page" data-view={name}>
              {entry.element}
            </div>
          </ViewContext.Provider>
        </LocationContext.Provider>
      </Activity>,
    );
  }
  if (!currentCached) {
    const name = currentName ?? '';
    pages.push(
      <ViewContext.Provider key={`${name}#${refreshKeys[name] ?? 0}#live`} value={viewContext(name, true)}>
        <div className="mq-page" data-view={name || undefined}>
          {outlet}
        </div>
      </ViewContext.Provider>,
    );
  }
  return <>{pages}</>;
}
