import { Perm, WARNING_KINDS, type Warning } from '@marquee/protocol';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { LEVEL_COLORS, objectLink, STATE_COLORS } from '../src/features/warnings/look';
import { useSession } from '../src/session/session';
import { type Answer, fakeServer, loginResponse, renderApp, setUpConsoleTests, shellAnswers } from './harness';

// The first visit compiles the lazy page with antd's table and date picker in the test run.
vi.setConfig({ testTimeout: 120_000 });
setUpConsoleTests({ asyncUtilTimeout: 20_000 });

const warning = (id: string, extra: Partial<Warning> = {}): Warning => ({
  id,
  kind: 'deviceOffline',
  level: 'warning',
  objectType: 'device',
  objectId: `dev-${id}`,
  objectName: `Screen ${id}`,
  detail: { lastSeenAt: '2026-11-27T02:00:00.000Z' },
  since: '2026-11-27T02:03:00.000Z',
  openedAt: '2026-11-27T02:04:00.000Z',
  state: 'open',
  acknowledgedBy: null,
  acknowledgedByName: null,
  acknowledgedAt: null,
  resolvedAt: null,
  ...extra,
});

const rows = [
  warning('w1', { objectName: 'Lobby screen' }),
  warning('w2', {
    kind: 'downloadFailing',
    objectName: 'Gate screen',
    detail: { failed: 2, error: 'HTTP 404' },
    state: 'acknowledged',
    acknowledgedBy: 'a1',
    acknowledgedByName: 'Ops Lee',
    acknowledgedAt: '2026-11-27T03:00:00.000Z',
  }),
  warning('w3', {
    kind: 'adExpiring',
    level: 'notice',
    objectType: 'ad',
    objectId: 'ad-1',
    objectName: 'Winter sale',
    detail: { endAt: '2026-12-01T00:00:00.000Z' },
  }),
];

const counts = WARNING_KINDS.map((kind) => ({
  kind,
  open: kind === 'deviceOffline' ? 1 : kind === 'adExpiring' ? 1 : 0,
  acknowledged: kind === 'downloadFailing' ? 1 : 0,
}));

const answers: Record<string, (data: unknown) => Answer> = {
  ...shellAnswers,
  warningsList: () => ({ code: 0, payload: { total: rows.length, data: rows, counts } }),
  warningsAcknowledge: (data) => ({ code: 0, payload: { updated: (data as { ids: string[] }).ids.length } }),
  warningsSettings: () => ({
    code: 0,
    payload: {
      recipients: WARNING_KINDS.map((kind) => ({ kind, accountIds: kind === 'deviceOffline' ? ['a1'] : [] })),
      accounts: [{ id: 'a1', name: 'Ops Lee', phone: true, email: false }],
    },
  }),
  warningsSettingsSave: (data) => ({ code: 0, payload: data }),
};

async function openPage() {
  const calls = fakeServer(answers);
  useSession.getState().setLogin(loginResponse({ permissionList: [Perm.operateWarning, Perm.deviceContext] }));
  const app = renderApp('/operate/warning');
  render(app.tree);
  await screen.findByTestId('warnings-page', {}, { timeout: 60_000 });
  await screen.findByTestId('warnings-row-w1');
  return { calls, app };
}

describe('the warning rules the page reads (look.ts)', () => {
  it('links each object to its page and gives each level and state its own colour', () => {
    expect(objectLink({ objectType: 'device', objectId: 'd 1', objectName: 'x' })).toBe('/device/context?id=d%201');
    expect(objectLink({ objectType: 'ad', objectId: 'a1', objectName: 'x' })).toBe('/advert/edit?id=a1');
    expect(objectLink({ objectType: 'iotCard', objectId: 'c1', objectName: '8986' })).toBe(
      '/operate/flow?keyword=8986',
    );
    expect(objectLink({ objectType: 'enterprise', objectId: 'e1', objectName: 'x' })).toBe('/shop');
    expect(new Set(Object.values(LEVEL_COLORS)).size).toBe(3);
    expect(new Set(Object.values(STATE_COLORS)).size).toBe(3);
  });
});

describe('/operate/warning (the warning centre)', () => {
  it('lists the live warnings with their object, details and state, and counts them per kind', async () => {
    const { calls } = await openPage();
    expect(calls.find((c) => c.name === 'warningsList')?.data).toEqual({ page: 1, size: 50, state: 'live' });
    const lobby = screen.getByTestId('warnings-row-w1');
    expect(lobby.textContent).toContain('Device offline');
    expect(lobby.textContent).toContain('Open');
    expect(within(lobby).getByTestId('warnings-object-link').getAttribute('href')).toBe('/device/context?id=dev-w1');
    const gate = screen.getByTestId('warnings-row-w2');
    expect(gate.textContent).toContain('2 downloads failed HTTP 404');
    expect(gate.textContent).toContain('By Ops Lee');
    expect(within(gate).queryByTestId('warnings-ack')).toBeNull();
    // No permission for ads: the ad's name is not a link.
    expect(within(screen.getByTestId('warnings-row-w3')).queryByTestId('warnings-object-link')).toBeNull();
    expect(screen.getByTestId('warnings-count-deviceOffline').textContent).toContain('1');
  });

  it('acknowledges after a confirmation', async () => {
    const { calls } = await openPage();
    fireEvent.click(within(screen.getByTestId('warnings-row-w1')).getByTestId('warnings-ack'));
    await screen.findByText(/resolves by itself/);
    expect(calls.some((c) => c.name === 'warningsAcknowledge')).toBe(false);
    fireEvent.click(screen.getByTestId('confirm-ok'));
    await waitFor(() => expect(calls.some((c) => c.name === 'warningsAcknowledge')).toBe(true));
    expect(calls.find((c) => c.name === 'warningsAcknowledge')?.data).toEqual({ ids: ['w1'] });
    await screen.findByText('1 warning acknowledged');
  });

  it('filters by a kind from its count', async () => {
    const { calls } = await openPage();
    fireEvent.click(screen.getByTestId('warnings-count-adExpiring'));
    await waitFor(() =>
      expect(
        calls.filter((c) => c.name === 'warningsList').some((c) => (c.data as { kind?: string }).kind === 'adExpiring'),
      ).toBe(true),
    );
  });
});
