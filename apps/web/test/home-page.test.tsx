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

  it('marks the sections and pages of modules not online yet', async () => {
    fakeServer({ ...shellAnswers });
    // A page of the route table not online yet (the spec's routes come online issue by issue).
    const offline = ROUTES.find((r) => !r.online && r.path.split('/').length === 3) as RouteDef;
    const section = `/${offline.path.split('/')[1]}`;
    useSession.getState().setLogin(
      loginResponse({
        permissionList: [Perm.report, Perm.template, offline.permission ?? Perm.template],
        folderMenuList: [
          { code: 'home', url: '/', icon: 'home' },
          {
            code: section.slice(1),
            url: section,
            icon: section.slice(1),
            children: [{ code: offline.title ?? '', url: offline.path }],
          },
          { code: 'skin', url: '/skin' },
        ],
      }),
    );
    const { tree } = renderApp('/');
    render(tree);
    const page = await screen.findByTestId('home-page', {}, { timeout: 25_000 });
    expect(within(page).getAllByText('Not online yet').length).toBeGreaterThan(0);
  });
});

describe('section pages (issue 31)', () => {
  it('/operate shows the figures of its own pages and its pages, not the other sections’ figures', async () => {
    fakeServer({
      ...shellAnswers,
      homeStats: () => ({
        code: 0,
        payload: { figures: { slots: 12, goodsListed: 4, warningsOpen: 2, devicesOnline: 30 }, trends: {} },
      }),
    });
    useSession.getState().setLogin(
      loginResponse({
        permissionList: [Perm.operate, Perm.operateSlot, Perm.operateGoods, Perm.operateWarning, Perm.device],
        folderMenuList: [
          { code: 'home', url: '/', icon: 'home' },
          {
            code: 'operate',
            url: '/operate',
            icon: 'operate',
            children: [
              { code: 'operateSlot', url: '/operate/slot' },
              { code: 'operateGoods', url: '/operate/goods' },
            ],
          },
        ],
      }),
    );
    const { tree } = renderApp('/operate');
    render(tree);
    const page = await screen.findByTestId('section-operate', {}, { timeout: 25_000 });
    expect((await within(page).findByTestId('home-figure-slots')).textContent).toContain('12');
    expect(within(page).getByTestId('home-figure-goodsListed').textContent).toContain('4');
    expect(within(page).getByTestId('home-figure-warningsOpen').textContent).toContain('2');
    expect(within(page).queryByTestId('home-figure-devicesOnline')).toBeNull();
    expect(within(page).getByTestId('home-figure-slots').closest('a')?.getAttribute('href')).toBe('/operate/slot');
    const pages = within(page).getByTestId('section-operate-pages');
    expect(within(pages).getByText('Ad slots').closest('a')?.getAttribute('href')).toBe('/operate/slot');
    expect(within(pages).getByText('Goods')).toBeTruthy();
  });

  it('/report says so when the reader has no figure of it', async () => {
    fakeServer({ ...shellAnswers, homeStats: () => ({ code: 0, payload: { figures: { slots: 3 }, trends: {} } }) });
    useSession.getState().setLogin(
      loginResponse({
        permissionList: [Perm.report, Perm.reportAd],
        folderMenuList: [
          { code: 'home', url: '/', icon: 'home' },
          { code: 'report', url: '/report', icon: 'report', children: [{ code: 'reportAd', url: '/report/ad' }] },
        ],
      }),
    );
    const { tree } = renderApp('/report');
    render(tree);
    const page = await screen.findByTestId('section-report', {}, { timeout: 25_000 });
    expect(await within(page).findByText('No figures of this section for your permissions')).toBeTruthy();
    expect(within(page).queryByTestId('home-figure-slots')).toBeNull();
  });
});
