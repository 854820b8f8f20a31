import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App } from 'antd';
import { describe, expect, it, vi } from 'vitest';
import { DeviceImportDialog, fileToBase64 } from '../src/features/deviceIo/DeviceImportDialog';
import { moveCell, tilesWithin } from '../src/features/splice/TileGrid';
import { fakeServer, setUpConsoleTests } from './harness';

vi.setConfig({ testTimeout: 60_000 });
setUpConsoleTests({ asyncUtilTimeout: 8000 });

function renderDialog(onImported = vi.fn(), onClose = vi.fn()) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <App>
        <DeviceImportDialog open onClose={onClose} onImported={onImported} />
      </App>
    </QueryClientProvider>,
  );
  return { onImported, onClose };
}

const sheet = () =>
  new File([new Uint8Array([0x50, 0x4b, 3, 4, 1, 2, 3])], 'screens.xlsx', {
    type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  });

function pick(file: File) {
  const input = document.querySelector('.ant-modal input[type=file]') as HTMLInputElement;
  fireEvent.change(input, { target: { files: [file] } });
}

describe('device import dialog', () => {
  it('sends the picked sheet and shows every row error; nothing imported', async () => {
    const calls = fakeServer({
      deviceImport: () => ({
        code: 0,
        payload: {
          imported: 0,
          rows: 3,
          errors: [
            { row: 3, column: 'number', message: 'A device number has 1 to 64 letters, digits, - or _' },
            { row: 4, column: 'department', message: 'No department "Nowhere" within your scope' },
          ],
        },
      }),
    });
    const { onImported, onClose } = renderDialog();
    expect(screen.getByTestId('device-import-submit')).toHaveProperty('disabled', true);
    pick(sheet());
    await waitFor(() => expect(screen.getByTestId('device-import-submit')).toHaveProperty('disabled', false));
    fireEvent.click(screen.getByTestId('device-import-submit'));
    const report = await screen.findByTestId('device-import-errors');
    expect(report.textContent).toContain('2 errors: no device was imported');
    const rows = within(report).getAllByRole('row').slice(1);
    expect(rows.map((r) => r.textContent)).toEqual([
      '3Device numberA device number has 1 to 64 letters, digits, - or _',
      '4DepartmentNo department "Nowhere" within your scope',
    ]);
    const sent = calls.find((c) => c.name === 'deviceImport')?.data as { fileName: string; file: string };
    expect(sent.fileName).toBe('screens.xlsx');
    expect(atob(sent.file).charCodeAt(0)).toBe(0x50);
    expect(onImported).not.toHaveBeenCalled();
    expect(onClose).not.toHaveBeenCalled();
  });

  it('closes and reports the count when every row is valid', async () => {
    fakeServer({ deviceImport: () => ({ code: 0, payload: { imported: 3, rows: 3, errors: [] } }) });
    const { onImported, onClose } = renderDialog();
    pick(sheet());
    await waitFor(() => expect(screen.getByTestId('device-import-submit')).toHaveProperty('disabled', false));
    fireEvent.click(screen.getByTestId('device-import-submit'));
    await waitFor(() => expect(onImported).toHaveBeenCalledWith(3));
    expect(onClose).toHaveBeenCalled();
    expect(await screen.findByText('3 devices imported')).toBeTruthy();
  });

  it('refuses a file above the size limit before sending it', async () => {
    const calls = fakeServer({});
    renderDialog();
    pick(new File([new Uint8Array(600 * 1024)], 'big.xlsx'));
    expect(await screen.findByText(/larger than 512 KB/)).toBeTruthy();
    expect(screen.getByTestId('device-import-submit')).toHaveProperty('disabled', true);
    expect(calls.filter((c) => c.name === 'deviceImport')).toEqual([]);
  });

  it('reads a file as base64', async () => {
    expect(await fileToBase64(new Blob(['hi']))).toBe('aGk=');
  });
});

describe('splicing screen grid rules', () => {
  it('moves between cells with the arrow keys, Home and End, inside the grid', () => {
    expect(moveCell({ row: 0, col: 0 }, 'ArrowRight', 2, 3)).toEqual({ row: 0, col: 1 });
    expect(moveCell({ row: 0, col: 0 }, 'ArrowUp', 2, 3)).toEqual({ row: 0, col: 0 });
    expect(moveCell({ row: 1, col: 2 }, 'ArrowDown', 2, 3)).toEqual({ row: 1, col: 2 });
    expect(moveCell({ row: 1, col: 1 }, 'Home', 2, 3)).toEqual({ row: 1, col: 0 });
    expect(moveCell({ row: 1, col: 0 }, 'End', 2, 3)).toEqual({ row: 1, col: 2 });
    expect(moveCell({ row: 0, col: 0 }, 'a', 2, 3)).toBeNull();
  });

  it('drops the tiles a smaller grid no longer holds', () => {
    const tiles = [
      { row: 0, col: 0, deviceId: 'a', deviceName: 'A' },
      { row: 1, col: 1, deviceId: 'b', deviceName: 'B' },
    ];
    expect(tilesWithin(tiles, 1, 2).map((t) => t.deviceId)).toEqual(['a']);
  });
});
