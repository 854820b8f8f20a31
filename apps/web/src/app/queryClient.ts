import { QueryClient } from '@tanstack/react-query';
import { onLoggedOut } from '../session/session';

/** The one TanStack Query client; cleared on logout so no data of one user survives into the next. */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      retry: false,
      refetchOnWindowFocus: false,
      staleTime: 30_000,
    },
  },
});

onLoggedOut(() => queryClient.clear());
