import { hasPermission } from '@marquee/protocol';
import { useCallback } from 'react';
import { useSession } from './session';

/**
 * The session's `can` as a hook: re-renders when the permission list changes (the store's
 * `can` reads it lazily, so a selector of `can` alone would not).
 */
export function useCan(): (code?: string | null) => boolean {
  const permissionList = useSession((s) => s.permissionList);
  return useCallback((code?: string | null) => hasPermission(permissionList ?? [], code), [permissionList]);
}
