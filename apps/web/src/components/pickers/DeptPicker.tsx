import { type DeptNode, endpoints } from '@marquee/protocol';
import { TreeSelect, type TreeSelectProps } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useCallQuery } from '../../api/queries';
import { useCan } from '../../session/useCan';

/**
 * THE department picker: every place that picks departments (a list's department filter, an
 * account's, a role's, a device's, a store's or an ad's departments, a department's new parent)
 * picks them in the caller's department tree (dept.tree), one cached query for all of them and
 * for the department panel's tree.
 */

/** The caller's department tree (dept.tree), loaded only while `enabled`. */
export function useDeptTree(enabled = true) {
  return useCallQuery('deptTree', {}, { enabled, staleTime: 30_000 });
}

/**
 * Whether the caller may read the department tree (dept.tree's permission): a list page shows
 * its department filter only then, instead of a 'no permission' message to staff without it.
 */
export function useCanPickDept(): boolean {
  return useCan()(endpoints.deptTree.permission);
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

export type DeptPickerProps = Omit<TreeSelectProps, 'treeData'> & {
  testId: string;
  /** Loads the tree (e.g. only while the dialog is open). */
  enabled?: boolean;
  /** Greys out departments (and their subtrees) that cannot be chosen. */
  disable?: (node: DeptNode) => boolean;
};

/** Picks one department, or several with `multiple`, in the caller's department tree. */
export function DeptPicker({ testId, enabled = true, disable, ...rest }: DeptPickerProps) {
  const { t } = useTranslation('accounts');
  const allowed = useCanPickDept();
  const depts = useDeptTree(enabled && allowed);
  const treeData = useMemo(() => deptOptions(depts.data ?? [], disable), [depts.data, disable]);
  return (
    <TreeSelect
      treeData={treeData}
      treeDefaultExpandAll
      loading={depts.isLoading}
      showSearch={{ treeNodeFilterProp: 'title' }}
      placeholder={t('dept.choose')}
      data-testid={testId}
      {...rest}
    />
  );
}
