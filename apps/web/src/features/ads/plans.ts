import { useQuery } from '@tanstack/react-query';
import { call } from '../../api/client';

/** The plans a filter or form offers (the caller needs the plan permission to list them). */
export function usePlanOptions(enabled: boolean) {
  return useQuery({
    queryKey: ['adPlans', 'options'],
    queryFn: ({ signal }) => call('planList', { page: 1, size: 100 }, { signal }),
    enabled,
    select: (r) => r.data.map((p) => ({ value: p.id, label: p.name, isDefault: p.isDefault })),
  });
}
