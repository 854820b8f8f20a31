import { useEffect } from 'react';
import { call } from '../api/client';
import { useSession } from '../session/session';

/** Refresh at most this often when the window regains focus. */
const FOCUS_REFRESH_MS = 60_000;

/**
 * Reloads the user's permissions, menu and department from the server when the shell
 * mounts (a page load or reload) and when the window regains focus, so a role or
 * department change made by an administrator shows in the menu without a new login.
 * The server enforces the new permissions at once either way; this keeps the UI honest.
 */
export function useFreshUserInfo(): void {
  useEffect(() => {
    let last = 0;
    let cancelled = false;
    const refresh = () => {
      if (!useSession.getState().token || Date.now() - last < FOCUS_REFRESH_MS) return;
      last = Date.now();
      call('authInfo', {}, { silent: true })
        .then((info) => {
          if (!cancelled && useSession.getState().token) useSession.getState().setUserInfo(info);
        })
        .catch(() => {
          // Logout codes are handled by the client; other failures keep the saved state.
        });
    };
    refresh();
    window.addEventListener('focus', refresh);
    return () => {
      cancelled = true;
      window.removeEventListener('focus', refresh);
    };
  }, []);
}
