import type { DeviceRow } from '@marquee/protocol';
import { cleanup, render, screen } from '@testing-library/react';
import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { deviceListColumns } from '../src/features/devices/deviceColumns';
import enDevices from '../src/i18n/locales/en-US/devices.json';

const words = enDevices as Record<string, string>;
const t = ((key: string, values?: { count?: number }) => {
  const bare = key.replace('devices:', '');
  const text = words[values?.count === undefined ? bare : `${bare}_${values.count === 1 ? 'one' : 'other'}`] ?? key;
  return text.replace('{{count}}', String(values?.count ?? ''));
}) as TFunction;

const DAY = 86_400_000;
const now = Date.UTC(2026, 10, 28, 4, 0, 0);

/** The licence cell of a row, as the device list draws it at `now`. */
function licenceCell(row: Pick<DeviceRow, 'id' | 'licence' | 'expireAt'>): ReactNode {
  const column = deviceListColumns(t, now).find((c) => c.prop === 'licence');
  const slot = column?.slot as ((value: unknown, row: DeviceRow) => ReactNode) | undefined;
  if (!slot) throw new Error('the licence column has no slot');
  return slot(row.licence, row as DeviceRow);
}

describe('the device list shows each licence (issue 27)', () => {
  afterEach(cleanup);

  it('tags a trial expiring within the fortnight with the days left, in the warning colour', () => {
    const expireAt = new Date(now + 3 * DAY).toISOString();
    render(<div>{licenceCell({ id: 'd1', licence: 'trial', expireAt })}</div>);
    expect(screen.getByTestId('device-licence-trial').textContent).toBe('Trial');
    expect(screen.getByTestId('device-licence-expiring').textContent).toBe('Expires in 3 days');
    expect(screen.getByTestId('device-licence-expiring').style.color).not.toBe('');
  });

  it('shows a licensed device far from expiry and an expired one without the days left', () => {
    render(
      <div>
        {licenceCell({ id: 'd2', licence: 'licensed', expireAt: new Date(now + 200 * DAY).toISOString() })}
        {licenceCell({ id: 'd3', licence: 'expired', expireAt: new Date(now - DAY).toISOString() })}
        {licenceCell({ id: 'd4', licence: 'trial', expireAt: null })}
      </div>,
    );
    expect(screen.getByTestId('device-licence-licensed').textContent).toBe('Licensed');
    expect(screen.getByTestId('device-licence-expired').textContent).toBe('Expired');
    expect(screen.queryByTestId('device-licence-expiring')).toBeNull();
    expect(screen.getByTestId('device-licence-d4').textContent).toContain('No expiry');
  });
});
