import { useCallQuery } from '../../api/queries';

/** The plans a filter or form offers (the caller needs the plan permission to list them). */
export function usePlanOptions(enabled: boolean) {
  return useCallQuery(
    'planList',
    { page: 1, size: 100 },
    { enabled, select: (r) => r.data.map((p) => ({ value: p.id, label: p.name, isDefault: p.isDefault })) },
  );
}
