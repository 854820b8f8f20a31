import { ShareAltOutlined } from '@ant-design/icons';
import { Perm } from '@marquee/protocol';
import type { TableOperation } from './tableConfig';

/**
 * The share row operation (data allocation) of a list whose rows carry `hasPermission`:
 * spec section 5, a row whose has-permission is falsy cannot be shared, the button says
 * why (`noPermission`). Test id `${prefix}-share-${name}`; `icon` shows the share icon.
 */
export function shareOperation<T extends { name: string; hasPermission: boolean }>({
  prefix,
  label,
  noPermission,
  share,
  icon = false,
}: {
  prefix: string;
  label: string;
  noPermission: string;
  share: (row: T) => unknown;
  icon?: boolean;
}): TableOperation<T> {
  return {
    key: 'share',
    label,
    authCode: Perm.dataAllocation,
    icon: icon ? <ShareAltOutlined /> : undefined,
    disabled: (row) => (row.hasPermission ? false : noPermission),
    handler: share,
    testId: (row) => `${prefix}-share-${row.name}`,
  };
}
