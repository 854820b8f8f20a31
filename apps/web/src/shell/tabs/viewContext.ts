import { createContext, useContext } from 'react';

/** The kept-alive view a page is rendered in (provided by the main layout's keep-alive). */
export interface ViewContextValue {
  /** The view name: keep-alive, refresh and leave-tip key. */
  name: string;
  /** The view is the one on screen (false while it is kept alive behind another tab). */
  active: boolean;
}

export const ViewContext = createContext<ViewContextValue | null>(null);

/** The view the calling page is rendered in, or null outside the main layout. */
export function useView(): ViewContextValue | null {
  return useContext(ViewContext);
}
