import { useQuery } from '@tanstack/react-query';
import { call } from '../../api/client';
import { useSession } from '../../session/session';

/** Query keys of the shell's server reads. */
export const shellKeys = {
  notices: ['shell', 'notices'] as const,
  stationLetters: ['shell', 'stationLetters'] as const,
  deptUsers: ['shell', 'deptUsers'] as const,
  enterprises: ['shell', 'enterprises'] as const,
};

/** Spec section 8: failed list calls are only logged (no toast, no error UI). */
function logged<T>(what: string, run: () => Promise<T>): Promise<T> {
  return run().catch((err: unknown) => {
    console.warn(`[shell] ${what} failed`, err);
    throw err;
  });
}

/** Spec section 7 notice list: page 1, size 10 (section 9), push platform 1. */
export const NOTICE_QUERY = { page: 1, size: 10, pushPlatform: 1 } as const;

export function useNotices() {
  const token = useSession((s) => s.token);
  return useQuery({
    queryKey: shellKeys.notices,
    queryFn: () => logged('notice list', () => call('noticeList', { ...NOTICE_QUERY }, { silent: true })),
    enabled: Boolean(token),
  });
}

export function useStationLetters() {
  const token = useSession((s) => s.token);
  return useQuery({
    queryKey: shellKeys.stationLetters,
    queryFn: () => logged('station letter list', () => call('stationLetterList', {}, { silent: true })),
    enabled: Boolean(token),
  });
}

/** The departments the user may switch to; asked only with the department-switch permission. */
export function useDeptUsers(allowed: boolean) {
  const token = useSession((s) => s.token);
  return useQuery({
    queryKey: shellKeys.deptUsers,
    queryFn: () => logged('department list', () => call('deptUserList', {}, { silent: true })),
    enabled: Boolean(token) && allowed,
  });
}

/** The enterprises the user may act in ('change enterprise'); asked only by those who manage enterprises. */
export function useEnterpriseOptions(allowed: boolean) {
  const token = useSession((s) => s.token);
  return useQuery({
    queryKey: shellKeys.enterprises,
    queryFn: () => logged('enterprise list', () => call('enterpriseOptions', {}, { silent: true })),
    enabled: Boolean(token) && allowed,
  });
}
