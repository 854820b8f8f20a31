import { useEffect } from 'react';
import { installLeaveTip } from '../../components/leaveTip';
import { useTabs } from './store';
import { useView } from './viewContext';

/**
 * Registers a leave tip for the calling page (spec section 4 "Tab close"): while `enabled`
 * (typically: the form has unsaved changes), closing its tab asks for confirmation with the
 * page title, leaving a page that is not kept alive asks too, and so does reloading or
 * closing the browser tab. Closing a tab with isAutoLeave set skips the question.
 */
export function useLeaveTip(enabled: boolean): void {
  const view = useView();
  const name = view?.name;

  useEffect(() => {
    if (!name) return;
    useTabs.getState().setLeaveTip(name, enabled);
    return () => useTabs.getState().setLeaveTip(name, false);
  }, [name, enabled]);

  useEffect(() => {
    if (!enabled) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older browsers show the prompt only when returnValue is set.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [enabled]);
}

installLeaveTip(useLeaveTip);
