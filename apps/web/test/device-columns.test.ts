import { DEVICE_SORT_KEYS, deviceRowSchema, formatSize } from '@marquee/protocol';
import type { TFunction } from 'i18next';
import { describe, expect, it } from 'vitest';
import { deviceListColumns, storageText } from '../src/features/devices/deviceColumns';

const t = ((key: string, values?: Record<string, unknown>) =>
  values ? `${key} ${JSON.stringify(values)}` : key) as unknown as TFunction;

/** The device list's table config: one column per field, sortable exactly where the server sorts. */
describe('device list columns', () => {
  const columns = deviceListColumns(t);

  it('names each column once and sorts only by the keys device.list accepts', () => {
    const props = columns.map((c) => c.prop);
    expect(new Set(props).size).toBe(props.length);
    const sortable = columns.filter((c) => c.sortable).map((c) => c.prop);
    for (const prop of sortable) expect(DEVICE_SORT_KEYS as readonly string[]).toContain(prop);
  });

  it('shows a field of the device row in every column without a slot of its own', () => {
    const fields = Object.keys(deviceRowSchema.shape);
    for (const c of columns.filter((c) => !c.slot)) expect(fields).toContain(c.prop);
  });

  it('shows storage as used of total', () => {
    expect(storageText({ storageUsed: null, storageFree: null }, t)).toBe('-');
    expect(storageText({ storageUsed: 1024, storageFree: null }, t)).toBe(formatSize(1024));
    expect(storageText({ storageUsed: 1024, storageFree: 1024 }, t)).toContain(formatSize(2048));
  });
});
