import type { DeptNode } from '@marquee/protocol';
import { type QueryClient, useQuery } from '@tanstack/react-query';
import { call } from '../../api/client';

/** Every organisation query lives under this key, so one invalidation refreshes them all. */
export const ORG_KEY = 'org';

export function invalidateOrg(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: [ORG_KEY] });
}

export function useDeptTree(enabled = true) {
  return useQuery({
    queryKey: [ORG_KEY, 'deptTree'],
    queryFn: ({ signal }) => call('deptTree', {}, { signal }),
    enabled,
    staleTime: 30_000,
  });
}

export function useRoleOptions(enabled = true) {
  return useQuery({
    queryKey: [ORG_KEY, 'roleOptions'],
    queryFn: ({ signal }) => call('roleOptions', {}, { signal }),
    enabled,
    staleTime: 30_000,
  });
}

export interface DeptTreeOption {
  value: string;
  title: string;
  key: string;
  disabled?: boolean;
  children: DeptTreeOption[];
}

/** Department nodes as antd TreeSelect data; `disable` greys out nodes (and their subtrees). */
export function deptOptions(nodes: readonly DeptNode[], disable?: (node: DeptNode) => boolean): DeptTreeOption[] {
  const walk = (list: readonly DeptNode[], disabledAbove: boolean): DeptTreeOption[] =>
    list.map((n) => {
      const disabled = disabledAbove || Boolean(disable?.(n));
      return { value: n.id, key: n.id, title: n.name, disabled, children: walk(n.children, disabled) };
    });
  return walk(nodes, false);
}

/** Finds a department node by id. */
export function findDept(nodes: readonly DeptNode[], id: string): DeptNode | undefined {
  for (const n of nodes) {
    if (n.id === id) return n;
    const found = findDept(n.children, id);
    if (found) return found;
  }
  return undefined;
}
