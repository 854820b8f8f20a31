/**
 * The leave tip of a page with unsaved changes, for pages (features) that may not import the
 * shell: the shell installs its tab-aware hook here at start (shell/tabs/useLeaveTip.ts), the
 * layers' usual way for an upper layer to hook into a lower one. Until it does, the hook only
 * guards reloading and closing the browser tab.
 */
import { useEffect } from 'react';

type LeaveTipHook = (enabled: boolean) => void;

function useBrowserLeaveTip(enabled: boolean): void {
  useEffect(() => {
    if (!enabled) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [enabled]);
}

let installed: LeaveTipHook = useBrowserLeaveTip;

/** The shell's hook (installed once, before any page renders). */
export function installLeaveTip(hook: LeaveTipHook): void {
  installed = hook;
}

/** Asks before leaving the page while `enabled` (typically: the form has unsaved changes). */
export function usePageLeaveTip(enabled: boolean): void {
  installed(enabled);
}
