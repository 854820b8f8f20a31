import type { ExportStatus } from '@marquee/protocol';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, configure, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App } from 'antd';
import { useState } from 'react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ExportDialog } from '../src/components/ExportDialog';
import { initI18n } from '../src/i18n';
import { installDomShims } from './harness';

vi.setConfig({ testTimeout: 30_000 });

beforeAll(async () => {
  configure({ asyncUtilTimeout: 8000 });
  installDomShims();
  await initI18n('en-US');
});

afterEach(() => cleanup());

const done: ExportStatus = { exportId: 'x1', status: 'done', processed: 3, total: 3, fileName: 'operation-log.xlsx' };

function Harness({ fetchFile }: { fetchFile: () => Promise<string> }) {
  const [filter, setFilter] = useState<object | null>({});
  return (
    <QueryClientProvider client={new QueryClient()}>
      <App>
        <button type="button" onClick={() => setFilter({})}>
          open
        </button>
        <ExportDialog
          filter={filter}
          onClose={() => setFilter(null)}
          ns="operationLog"
          testIdPrefix="oplog-export"
          start={async () => done}
          status={async () => done}
          fetchFile={fetchFile}
        />
      </App>
    </QueryClientProvider>
  );
}

describe('export dialog (issue 25: the toast covered its title)', () => {
  it('says the file is saved inside the dialog, with no toast over its title', async () => {
    render(<Harness fetchFile={async () => 'operation-log.xlsx'} />);
    const saved = await screen.findByTestId('oplog-export-saved');
    await waitFor(() => expect(saved.textContent).toBe('Saved operation-log.xlsx'));
    expect(screen.getByRole('dialog').textContent).toContain('Export the operation log');
    expect(document.querySelector('.ant-message-notice')).toBeNull();
  });

  it('tells a file saved after the dialog closed by a toast', async () => {
    let finish: (name: string) => void = () => {};
    const fetchFile = () => new Promise<string>((resolve) => (finish = resolve));
    render(<Harness fetchFile={fetchFile} />);
    await screen.findByTestId('oplog-export-download');
    fireEvent.click(screen.getByTestId('oplog-export-close'));
    finish('operation-log.xlsx');
    await waitFor(() => expect(document.querySelector('.ant-message-notice')?.textContent).toContain('Saved'));
  });
});
