import type { ReactNode } from 'react';
import { useSession } from '../session/session';

/**
 * Spec section 6: "A third-party-monitor flag hides elements marked for non-monitor users and
 * shows others." Wrap an element in <NotForMonitor> to mark it for non-monitor users (actions,
 * exports, mutations); <MonitorOnly> is the inverse. The server refuses the matching
 * endpoints (catalogue flag `notForMonitor`), so hiding is a courtesy, not the guard.
 */
export function useIsMonitor(): boolean {
  return useSession((s) => s.thirdMonitorUser);
}

export function NotForMonitor({ children }: { children: ReactNode }) {
  return useIsMonitor() ? null : children;
}

export function MonitorOnly({ children }: { children: ReactNode }) {
  return useIsMonitor() ? children : null;
}
