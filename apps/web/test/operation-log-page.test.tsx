import { Perm } from '@marquee/protocol';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { useSession } from '../src/session/session';
import { fakeServer, loginResponse, renderApp, setUpConsoleTests, shellAnswers } from './harness';

vi.setConfig({ testTimeout: 120_000 });
setUpConsoleTests({ asyncUtilTimeout: 8000 });

const entry = (n: number) => ({
  id: `l-${n}`,
  time: '2026-11-27T10:00:00.000Z',
  accountId: 'u1',
  loginName: `admin${n}`,
  entId: 'e1',
  entName: 'Ada Media',
  module: 'ad',
  action: 'auditPass',
  targetType: 'ref:5',
  targetId: 'ad-43',
  targetName: 'Tour Ad 43',
  ip: '10.0.0.1',
  result: 'success',
});

describe('operation log (/report/operationLog)', () => {
  it('shows the words, not the codes, and fetches again on Search and Reset with the filters unchanged', async () => {
    let n = 1;
    const calls = fakeServer({
      ...shellAnswers,
      operationLogList: () => ({ code: 0, payload: { total: 1, data: [entry(n++)] } }),
      operationLogOptions: () => ({ code: 0, payload: { modules: ['ad'], actions: ['auditPass'], enterprises: [] } }),
    });
    useSession.getState().setLogin(loginResponse({ permissionList: [Perm.report, Perm.reportOperationLog] }));
    render(renderApp('/report/operationLog').tree);
    const row = async () => (await screen.findAllByTestId('oplog-row', {}, { timeout: 25_000 }))[0];
    await waitFor(async () => expect((await row()).textContent).toContain('admin1'), { timeout: 25_000 });
    const text = (await row()).textContent ?? '';
    expect(text).toContain('Ads');
    expect(text).toContain('Review passed');
    expect(text).toContain('Ad Tour Ad 43');
    expect(text).not.toContain('ref:5');
    expect(text).not.toContain('Audit pass');

    const sent = () => calls.filter((c) => c.name === 'operationLogList').length;
    const before = sent();
    fireEvent.click(screen.getByTestId('oplog-search'));
    await waitFor(() => expect(sent()).toBe(before + 1));
    await waitFor(async () => expect((await row()).textContent).toContain('admin2'));
    fireEvent.click(screen.getByTestId('oplog-reset'));
    await waitFor(() => expect(sent()).toBe(before + 2));
    await waitFor(async () => expect((await row()).textContent).toContain('admin3'));
  });
});
