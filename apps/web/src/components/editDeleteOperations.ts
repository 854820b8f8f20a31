import type { ReactNode } from 'react';
import type { TableOperation } from './tableConfig';

type Shared<T> = Omit<TableOperation<T>, 'key' | 'label' | 'handler' | 'testId' | 'danger' | 'confirm'>;

/**
 * The edit and delete row operations of a list of named rows: both with the page's `shared`
 * part (permission, monitor, lock), test ids `${prefix}-edit-${name}` and `${prefix}-delete-${name}`;
 * delete is danger, asks `confirm` first and removes through `remove` (the page's mutation;
 * its promise keeps the button spinning). `deleteDisabled` replaces `shared.disabled` on delete.
 */
export function editDeleteOperations<T extends { id: string; name: string }>({
  prefix,
  shared,
  edit,
  remove,
  editLabel,
  deleteLabel,
  confirm,
  deleteDisabled,
}: {
  prefix: string;
  shared: Shared<T>;
  edit: (row: T) => unknown;
  remove: (input: { id: string }) => unknown;
  editLabel: string;
  deleteLabel: string;
  confirm: (row: T) => { title: ReactNode; description?: ReactNode };
  deleteDisabled?: (row: T) => boolean | string;
}): TableOperation<T>[] {
  return [
    { ...shared, key: 'edit', label: editLabel, handler: edit, testId: (row) => `${prefix}-edit-${row.name}` },
    {
      ...shared,
      ...(deleteDisabled ? { disabled: deleteDisabled } : {}),
      key: 'delete',
      label: deleteLabel,
      danger: true,
      confirm,
      handler: (row) => remove({ id: row.id }),
      testId: (row) => `${prefix}-delete-${row.name}`,
    },
  ];
}
