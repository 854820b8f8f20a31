import type { TableOperation } from './tableConfig';

/** The status of a row that is switched on and off (an account, an advertiser, a company). */
export type SwitchStatus = 'enabled' | 'paused';

type Rest<T> = Omit<TableOperation<T>, 'key' | 'handler' | 'isShow'>;

/**
 * The pause and enable row operations of a list of switchable rows: pause offered on an
 * enabled row, enable on a paused one, both setting the status through `set` (the page's
 * status mutation; its promise keeps the button spinning). The rest (label, confirmation,
 * permission, test id) is each operation's own.
 */
export function statusOperations<T extends { status: SwitchStatus }>(
  set: (row: T, status: SwitchStatus) => unknown,
  pause: Rest<T>,
  enable: Rest<T>,
): TableOperation<T>[] {
  return [
    { ...pause, key: 'pause', isShow: (row) => row.status === 'enabled', handler: (row) => set(row, 'paused') },
    { ...enable, key: 'enable', isShow: (row) => row.status === 'paused', handler: (row) => set(row, 'enabled') },
  ];
}

/** The choices of a status filter (the page's texts `status.enabled` / `status.paused`, as `enabledLook`'s). */
export function statusOptions(t: (key: string) => string): { value: SwitchStatus; label: string }[] {
  return (['enabled', 'paused'] as const).map((value) => ({ value, label: t(`status.${value}`) }));
}
