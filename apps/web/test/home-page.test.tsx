import { Perm, ROUTES, type RouteDef, TREND_DAYS } from '@marquee/protocol';
import { render, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { useSession } from '../src/session/session';
import { fakeServer, loginResponse, renderApp, setUpConsoleTests, shellAnswers } from './harness';

vi.setConfig({ testTimeout: 30_000 });
setUpConsoleTests({ asyncUtilTimeout: 8000 });

const trend = Array.from({ length: TREND_DAYS }, (_, i) => ({
  date: `2026-11-${String(10 + i).padStart(2, '0')}`,
  value: i % 3,
}));

describe('home page (issue 8)', () => {
  it("shows the server's figures as cards linking to their pages, the trend's total and the enterprise by name", async () => {
    const calls = fakeServer({
      ...shellAnswers,
      homeStats: () => ({
        code: 0,
        payload: { figures: { accounts: 3, departments: 2, templates: 5 }, trends: { operations: trend } },
      }),
    });
    useSession.getState().setLogin(
      loginResponse({
        entId: 'ent-uuid-1',
        entName: 'Ada Media',
        permissionList: [Perm.user, Perm.template, Perm.reportOperationLog],
      }),
    );
    const { tree } = renderApp('/');
    render(tree);
    expect((await screen.findByTestId('home-figure-accounts', {}, { timeout: 25_000 })).textContent).toContain('3');
    expect(screen.getByTestId('home-figure-templates').textContent).toContain('5');
    expect(screen.queryByTestId('home-figure-sharedWithMe')).toBeNull();
    // Templates may be opened; accounts (/user/company) may not: no link.
    expect(screen.getByTestId('home-figure-templates').closest('a')?.getAttribute('href')).toBe('/template');
    expect(screen.getByTestId('home-figure-accounts').closest('a')).toBeNull();
    const total = trend.reduce((sum, p) => sum + p.value, 0);
    expect(screen.getByText(`${total} in total`).closest('a')?.getAttribute('href')).toBe('/report/operationLog');
    expect(screen.getByTestId('home-enterprise').textContent).toContain('Ada Media');
    expect(screen.getByTestId('home-page').textContent).not.toContain('ent-uuid-1');
    const asked = calls.find((c) => c.name === 'homeStats')?.data as { utcOffset: number };
    expect(asked.utcOffset).toBe(0 - new Date().getTimezoneOffset());
  });

  it('shows no figure card and an empty trend when there is nothing to count', async () => {
    fakeServer({
      ...shellAnswers,
      homeStats: () => ({
        code: 0,
        payload: { figures: {}, trends: { operations: trend.map((p) => ({ ...p, value: 0 })) } },
      }),
    });
    useSession.getState().setLogin(loginResponse({ permissionList: [Perm.reportOperationLog] }));
    const { tree } = renderApp('/');
    render(tree);
    expect(
      await screen.findByText(`No operations in the last ${TREND_DAYS} days`, {}, { timeout: 25_000 }),
    ).toBeTruthy();
    expect(screen.queryAllByTestId(/^home-figure-/)).toHaveLength(0);
    expect(screen.queryAllByTestId(/^home-trend-chart-/)).toHaveLength(0);
  });

  it('marks a menu entry the console has no page for as not online', async () => {
    fakeServer({ ...shellAnswers });
    // Every route of the spec is online; a menu entry the server sends for a page this console
    // does not have (a newer server) is marked, not opened.
    const offline = { path: '/report/notYet', title: 'reportAd', permission: Perm.report } as RouteDef;
    const section = '/report';
    useSession.getState().setLogin(
      loginResponse({
        permissionList: [Perm.report, Perm.template],
        folderMenuList: [
          { code: 'home', url: '/', icon: 'home' },
          {
            code: 'report',
            url: section,
            icon: 'report',
            children: [{ code: offline.title ?? '', url: offline.path }],
          },
          { code: 'skin', url: '/skin' },
        ],
      }),
    );
    expect(ROUTES.every((r) => r.online)).toBe(true);
    const { tree } = renderApp('/');
    render(tree);
    const page = await screen.findByTestId('home-page', {}, { timeout: 25_000 });
    expect(within(page).getAllByText('Not online yet').length).toBeGreaterThan(0);
  });
});
