import { TreeSelect, type TreeSelectProps } from 'antd';
import { useMemo } from 'react';
import { useFolderTree } from './api';
import { folderOptions } from './types';

export type FolderSelectProps = Omit<TreeSelectProps<string>, 'treeData'> & {
  /** A folder left out with its sub-folders (a moved folder's own). */
  exclude?: string;
  testId?: string;
};

/**
 * THE material folder picker: the library's folder tree in a tree select, expanded (a form
 * field: `value` and `onChange` from the form item). Upload, move, add media and the
 * editors' material picker choose a folder with it.
 */
export function FolderSelect({ exclude, testId, ...rest }: FolderSelectProps) {
  const tree = useFolderTree();
  const options = useMemo(() => folderOptions(tree.data ?? [], exclude), [tree.data, exclude]);
  return <TreeSelect treeData={options} treeDefaultExpandAll loading={tree.isLoading} data-testid={testId} {...rest} />;
}
