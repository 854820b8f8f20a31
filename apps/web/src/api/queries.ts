import {
  type EndpointDomain,
  type EndpointName,
  type Endpoints,
  endpointDomain,
  type Req,
  type Res,
} from '@marquee/protocol';
import {
  keepPreviousData,
  type QueryKey,
  type UseQueryOptions,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { App } from 'antd';
import { type CallOptions, call } from './client';

/**
 * Query keys from the endpoint catalogue, so no page writes one by hand: a read's key is
 * `[domain, name, request]`, the domain being the catalogue file the endpoint is declared in
 * (`endpointDomain`: 'splice', 'devices', 'ads', ...). A mutation invalidates its own domain,
 * which refetches every read of it (lists, details, options), and the other domains it names.
 */
export function callKey<N extends EndpointName>(name: N, request?: Req<Endpoints[N]>): QueryKey {
  return request === undefined ? [endpointDomain(name), name] : [endpointDomain(name), name, request];
}

/** The key prefix of every read of a domain (what a mutation of the domain invalidates). */
export function domainKey(domain: EndpointDomain): QueryKey {
  return [domain];
}

type ReadOptions<N extends EndpointName, S> = Omit<
  UseQueryOptions<Res<Endpoints[N]>, Error, S>,
  'queryKey' | 'queryFn' | 'placeholderData'
> & {
  /** Keep the previous answer shown while the next one loads (pages, searches). */
  keepPrevious?: boolean;
  /** No error toast (the page shows the failure itself). */
  silent?: boolean;
  /** Added to the key: a new value fetches again even for the same request (a list's Search round). */
  round?: number;
};

/** A read of the catalogue as a query: its key from `callKey`, aborted when no longer wanted. */
export function useCallQuery<N extends EndpointName, S = Res<Endpoints[N]>>(
  name: N,
  request: Req<Endpoints[N]>,
  { keepPrevious, silent, round, ...options }: ReadOptions<N, S> = {},
) {
  const key = callKey(name, request);
  return useQuery<Res<Endpoints[N]>, Error, S>({
    ...options,
    queryKey: round === undefined ? key : [...key, round],
    queryFn: ({ signal }) => call(name, request, { signal, silent } satisfies CallOptions),
    placeholderData: keepPrevious ? keepPreviousData : undefined,
  });
}

export interface MutationOptions<N extends EndpointName> {
  /** The success toast (none without). */
  success?: string | ((answer: Res<Endpoints[N]>, request: Req<Endpoints[N]>) => string);
  /** Other domains whose reads the mutation changes (its own is always invalidated). */
  invalidates?: readonly EndpointDomain[];
  onSuccess?: (answer: Res<Endpoints[N]>, request: Req<Endpoints[N]>) => unknown;
  /** No error toast (the caller shows the failure itself). */
  silent?: boolean;
}

/**
 * A mutation of the catalogue: calls the endpoint, toasts `success`, invalidates the
 * endpoint's domain and the `invalidates` ones (their shown reads refetch in the background),
 * then runs `onSuccess` (a dialog closes without waiting for the refetch).
 */
export function useCallMutation<N extends EndpointName>(name: N, options: MutationOptions<N> = {}) {
  const queryClient = useQueryClient();
  const { message } = App.useApp();
  return useMutation<Res<Endpoints[N]>, Error, Req<Endpoints[N]>>({
    mutationFn: (request) => call(name, request, { silent: options.silent }),
    onSuccess: async (answer, request) => {
      const { success } = options;
      if (success) void message.success(typeof success === 'function' ? success(answer, request) : success);
      const domains = new Set<EndpointDomain>([endpointDomain(name), ...(options.invalidates ?? [])]);
      for (const d of domains) void queryClient.invalidateQueries({ queryKey: domainKey(d) });
      await options.onSuccess?.(answer, request);
    },
  });
}
