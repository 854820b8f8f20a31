import type { DeviceRow } from '@marquee/protocol';
import { cleanup, render, screen } from '@testing-library/react';
import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { deviceListColumns } from '../src/features/devices/deviceColumns';
import enDevices from '../src/i18n/locales/en-US/devices.json';

const t = ((key: string) => (enDevices as Record<string, string>)[key.replace('devices:', '')] ?? key) as TFunction;

/** The name cell of a row, as the device list draws it. */
function nameCell(row: Pick<DeviceRow, 'name' | 'demo'>): ReactNode {
  const column = deviceListColumns(t).find((c) => c.prop === 'name');
  const slot = column?.slot as ((value: string, row: DeviceRow) => ReactNode) | undefined;
  if (!slot) throw new Error('the name column has no slot');
  return slot(row.name, row as DeviceRow);
}

describe('the device list marks the demo fleet’s players', () => {
  afterEach(cleanup);

  it('shows a Demo tag before a demo player’s name', () => {
    render(<div>{nameCell({ name: 'Shanghai Nanjing Road window', demo: true })}</div>);
    expect(screen.getByTestId('device-demo-tag').textContent).toBe('Demo');
    expect(screen.getByText('Shanghai Nanjing Road window')).toBeTruthy();
  });

  it('shows only the name of any other device', () => {
    render(<div>{nameCell({ name: 'Lobby screen', demo: false })}</div>);
    expect(screen.queryByTestId('device-demo-tag')).toBeNull();
    expect(screen.getByText('Lobby screen')).toBeTruthy();
  });
});
