import { CARD_ACTIONS, CARD_STATES, CARD_TRANSITIONS, type IotCard, Perm } from '@marquee/protocol';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import {
  actionsFor,
  allCanTake,
  batchActions,
  chartUnit,
  daysLeft,
  defaultRange,
  nearEnd,
  parseRange,
  rangeAllowed,
  STATE_COLORS,
  usedPercent,
} from '../src/features/flow/look';
import { useSession } from '../src/session/session';
import { type Answer, fakeServer, loginResponse, renderApp, setUpConsoleTests, shellAnswers } from './harness';

// The first visit compiles the lazy pages with antd's table, progress, statistic and date picker in the test run.
vi.setConfig({ testTimeout: 120_000 });
setUpConsoleTests({ asyncUtilTimeout: 20_000 });

const DAY = 86_400_000;

const card = (id: string, iccid: string, extra: Partial<IotCard> = {}): IotCard => ({
  id,
  iccid,
  operator: 'chinaMobile',
  state: 'stock',
  packageName: null,
  packageMb: null,
  usedMb: 0,
  leftMb: null,
  deviceId: null,
  deviceName: null,
  activatedAt: null,
  expiresAt: null,
  autoRenew: false,
  remark: '',
  createdAt: '2026-11-01T02:00:00.000Z',
  ...extra,
});

const soon = new Date(Date.now() + 5 * DAY + 3_600_000).toISOString();
const far = new Date(Date.now() + 200 * DAY).toISOString();

const cards = [
  card('c1', '89860012345678901234'),
  card('c2', '8986001234567890123A', {
    state: 'activated',
    operator: 'chinaUnicom',
    packageName: 'Monthly 1 GB',
    packageMb: 1024,
    usedMb: 972.8,
    leftMb: 51.2,
    deviceId: 'dev-1',
    deviceName: 'Lobby screen',
    activatedAt: '2026-11-01T02:00:00.000Z',
    expiresAt: soon,
    autoRenew: true,
  }),
  card('c3', '8986001234567890125', {
    state: 'activated',
    packageName: 'Monthly 2 GB',
    packageMb: 2048,
    usedMb: 100,
    leftMb: 1948,
    activatedAt: '2026-11-01T02:00:00.000Z',
    expiresAt: far,
  }),
  card('c4', '8986001234567890126'),
];

const flowAnswers: Record<string, (data: unknown) => Answer> = {
  ...shellAnswers,
  flowCardList: () => ({ code: 0, payload: { total: cards.length, data: cards } }),
  flowCardTransition: (data) => ({ code: 0, payload: { updated: (data as { ids: string[] }).ids.length } }),
  flowCardAdd: (data) => ({ code: 0, payload: card('c9', (data as { iccid: string }).iccid) }),
  flowCardBind: (data) => ({
    code: 0,
    payload: { ...cards[1], deviceId: (data as { deviceId: string | null }).deviceId },
  }),
  flowCardImport: () => ({
    code: 0,
    payload: {
      imported: 0,
      errors: [
        { row: 2, column: 'iccid', message: 'The ICCID has 19 or 20 letters or digits' },
        { row: 5, column: 'operator', message: 'Unknown operator "Moon Telecom"' },
      ],
    },
  }),
};

const operator = [Perm.operateFlow, Perm.device, Perm.deviceContext, Perm.applicationMarket];

async function openCards() {
  const calls = fakeServer(flowAnswers);
  useSession.getState().setLogin(loginResponse({ permissionList: operator }));
  const app = renderApp('/operate/flow');
  render(app.tree);
  await screen.findByTestId('flow-page', {}, { timeout: 60_000 });
  await screen.findByTestId('flow-row-89860012345678901234');
  return { calls, app };
}

describe('the IoT card rules the pages read (look.ts)', () => {
  it('offers exactly the actions of CARD_TRANSITIONS, alone and for a batch', () => {
    for (const state of CARD_STATES)
      expect(actionsFor(state)).toEqual(CARD_ACTIONS.filter((a) => CARD_TRANSITIONS[a].from.includes(state)));
    expect(actionsFor('stock')).toEqual(['test', 'prepare', 'cancel']);
    expect(actionsFor('activated')).toEqual(['suspend', 'cancel']);
    expect(actionsFor('cancelled')).toEqual([]);
    expect(allCanTake(['stock', 'testable'], 'prepare')).toBe(true);
    expect(allCanTake(['stock', 'activated'], 'test')).toBe(false);
    expect(allCanTake([], 'cancel')).toBe(false);
    expect(batchActions(['stock', 'activated'])).toEqual(['cancel']);
    expect(new Set(Object.values(STATE_COLORS)).size).toBe(CARD_STATES.length);
  });

  it('warns from 90 % of the package, counts days to expiry and picks a chart unit', () => {
    expect(usedPercent(972.8, 1024)).toBe(95);
    expect(usedPercent(10, null)).toBeNull();
    expect(usedPercent(5000, 1024)).toBe(100);
    expect(nearEnd(89.9)).toBe(false);
    expect(nearEnd(90)).toBe(true);
    const now = Date.parse('2026-11-28T00:00:00Z');
    expect(daysLeft('2026-12-02T12:00:00Z', now)).toBe(5);
    expect(daysLeft('2026-11-27T00:00:00Z', now)).toBe(-1);
    expect(daysLeft(null, now)).toBeNull();
    expect(chartUnit(500)).toEqual({ unit: 'Bytes', divisor: 1 });
    expect(chartUnit(3 * 1024 * 1024 * 1024)).toEqual({ unit: 'GB', divisor: 1024 ** 3 });
  });

  it('reads the report range: the last 30 days by default, at most 366 days', () => {
    expect(defaultRange(new Date(2026, 10, 28, 15))).toEqual(['2026-10-30', '2026-11-28']);
    expect(rangeAllowed('2025-11-28', '2026-11-28')).toBe(true);
    expect(rangeAllowed('2025-11-27', '2026-11-28')).toBe(false);
    expect(rangeAllowed('2026-11-28', '2026-11-01')).toBe(false);
    expect(parseRange('2026-11-01~2026-11-10')).toEqual(['2026-11-01', '2026-11-10']);
    expect(parseRange('2020-01-01~2026-11-10')).toBeNull();
    expect(parseRange('junk')).toBeNull();
  });
});

describe('/operate/flow (IoT data cards)', () => {
  it('lists the cards with their state, use, expiry and device, and offers each state its own actions', async () => {
    const { calls } = await openCards();
    expect(calls.find((c) => c.name === 'flowCardList')?.data).toEqual({ page: 1, size: 50 });

    const stock = screen.getByTestId('flow-row-89860012345678901234');
    expect(stock.textContent).toContain('In stock');
    expect(stock.textContent).toContain('China Mobile');
    expect(stock.textContent).toContain('No data package');
    expect(stock.textContent).toContain('Not bound');
    expect(within(stock).getByTestId('flow-iccid').className).toContain('mq-flow-mono');
    expect(within(stock).getByTestId('flow-state-action-test')).toBeTruthy();
    expect(within(stock).getByTestId('flow-state-action-prepare')).toBeTruthy();
    expect(within(stock).getByTestId('flow-state-action-cancel')).toBeTruthy();
    expect(within(stock).queryByTestId('flow-state-action-suspend')).toBeNull();
    expect(within(stock).queryByTestId('flow-state-action-resume')).toBeNull();
    expect(within(stock).getByTestId('flow-bind').textContent).toContain('Bind device');

    const active = screen.getByTestId('flow-row-8986001234567890123A');
    expect(active.textContent).toContain('Active');
    expect(active.textContent).toContain('1 GB / month');
    expect(active.textContent).toContain('972.8 MB used · 51.2 MB left');
    expect(within(active).getByTestId('flow-usage').getAttribute('data-warning')).toBe('true');
    expect(within(active).getByTestId('flow-expires-soon').textContent).toBe('Expires in 6 days');
    expect(within(active).getByTestId('flow-device-link').getAttribute('href')).toBe('/device/context?id=dev-1');
    expect(within(active).getByTestId('flow-auto-renew').textContent).toBe('On');
    expect(within(active).getByTestId('flow-bind').textContent).toContain('Change device');
    expect(within(active).getByTestId('flow-unbind')).toBeTruthy();
    expect(within(active).getByTestId('flow-state-action-suspend')).toBeTruthy();
    expect(within(active).queryByTestId('flow-state-action-test')).toBeNull();

    const plenty = screen.getByTestId('flow-row-8986001234567890125');
    expect(within(plenty).getByTestId('flow-usage').getAttribute('data-warning')).toBe('false');
    expect(within(plenty).queryByTestId('flow-expires-soon')).toBeNull();

    // A state action sends the card and the action; the toast names both.
    fireEvent.click(within(stock).getByTestId('flow-state-action-test'));
    await waitFor(() => expect(calls.some((c) => c.name === 'flowCardTransition')).toBe(true));
    expect(calls.find((c) => c.name === 'flowCardTransition')?.data).toEqual({ ids: ['c1'], action: 'test' });
    await screen.findByText('Start test: 1 card updated');

    // Cancel asks first and says it is final.
    fireEvent.click(within(active).getByTestId('flow-state-action-cancel'));
    await screen.findByText(/Cancelling is final/);
    expect(calls.filter((c) => c.name === 'flowCardTransition')).toHaveLength(1);
    fireEvent.click(screen.getByTestId('confirm-ok'));
    await waitFor(() => expect(calls.filter((c) => c.name === 'flowCardTransition')).toHaveLength(2));
    expect(calls.filter((c) => c.name === 'flowCardTransition')[1].data).toEqual({ ids: ['c2'], action: 'cancel' });
  });

  it('acts on the selected cards: only the actions every one of them can take', async () => {
    const { calls } = await openCards();
    fireEvent.click(screen.getByTestId('flow-select-89860012345678901234'));
    fireEvent.click(screen.getByTestId('flow-select-8986001234567890126'));
    const bar = await screen.findByTestId('flow-batch');
    expect(bar.textContent).toContain('2 selected');
    expect(screen.getByTestId('flow-batch-test')).toHaveProperty('disabled', false);
    expect(screen.getByTestId('flow-batch-suspend')).toHaveProperty('disabled', true);
    fireEvent.click(screen.getByTestId('flow-batch-prepare'));
    await waitFor(() => expect(calls.some((c) => c.name === 'flowCardTransition')).toBe(true));
    expect(calls.find((c) => c.name === 'flowCardTransition')?.data).toEqual({ ids: ['c1', 'c4'], action: 'prepare' });
    await waitFor(() => expect(screen.queryByTestId('flow-batch')).toBeNull());

    // A stock card and an active one share only 'cancel'.
    fireEvent.click(screen.getByTestId('flow-select-89860012345678901234'));
    fireEvent.click(screen.getByTestId('flow-select-8986001234567890123A'));
    await screen.findByTestId('flow-batch');
    expect(screen.getByTestId('flow-batch-prepare')).toHaveProperty('disabled', true);
    expect(screen.getByTestId('flow-batch-cancel')).toHaveProperty('disabled', false);
  });

  it('checks the traffic range (0 to 99999 MB) before searching, then sends the filters', async () => {
    const { calls, app } = await openCards();
    const min = screen.getByTestId('flowCards-filter-leftMin');
    const max = screen.getByTestId('flowCards-filter-leftMax');
    fireEvent.change(max, { target: { value: '100000' } });
    fireEvent.click(screen.getByTestId('flow-search'));
    await screen.findByText('Traffic is between 0 and 99999 MB');
    expect(calls.filter((c) => c.name === 'flowCardList')).toHaveLength(1);

    fireEvent.change(min, { target: { value: '500' } });
    fireEvent.change(max, { target: { value: '100' } });
    fireEvent.click(screen.getByTestId('flow-search'));
    await screen.findByText('The upper bound must not be below the lower one');

    fireEvent.change(max, { target: { value: '2000' } });
    fireEvent.click(screen.getByTestId('flow-search'));
    await waitFor(() =>
      expect(calls.filter((c) => c.name === 'flowCardList').at(-1)?.data).toEqual({
        page: 1,
        size: 50,
        leftMin: 500,
        leftMax: 2000,
      }),
    );
    expect(app.router.state.location.search).toContain('leftMin=500');
  });

  it('adds a card with the ICCID rule shown while typing', async () => {
    const { calls } = await openCards();
    fireEvent.click(screen.getByTestId('flow-add'));
    const input = await screen.findByTestId('flow-iccid-input');
    fireEvent.change(input, { target: { value: '8986-0012' } });
    await waitFor(() =>
      expect(screen.getByTestId('flow-iccid-hint').textContent).toBe('19 or 20 letters or digits: 9 characters typed'),
    );
    expect(screen.getByTestId('flow-iccid-hint').getAttribute('data-valid')).toBe('false');
    await screen.findByText('The ICCID has 19 or 20 letters or digits');
    fireEvent.click(screen.getByTestId('flow-card-submit'));
    await new Promise((r) => setTimeout(r, 200));
    expect(calls.some((c) => c.name === 'flowCardAdd')).toBe(false);

    fireEvent.change(input, { target: { value: '89860099998888777766' } });
    await waitFor(() => expect(screen.getByTestId('flow-iccid-hint').getAttribute('data-valid')).toBe('true'));
    fireEvent.click(screen.getByTestId('flow-card-submit'));
    await waitFor(() => expect(calls.some((c) => c.name === 'flowCardAdd')).toBe(true));
    expect(calls.find((c) => c.name === 'flowCardAdd')?.data).toEqual({
      iccid: '89860099998888777766',
      operator: 'chinaMobile',
      remark: '',
    });
    await screen.findByText('Card added to stock');
  });

  it('imports a sheet and lists every row error (nothing imported)', async () => {
    const { calls } = await openCards();
    fireEvent.click(screen.getByTestId('flow-import'));
    await screen.findByTestId('flow-import-template');
    expect(screen.getByTestId('flow-import-submit')).toHaveProperty('disabled', true);
    const input = document.querySelector('.ant-modal input[type=file]') as HTMLInputElement;
    const sheet = new File([new Uint8Array([0x50, 0x4b, 3, 4, 1, 2, 3])], 'cards.xlsx', {
      type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    });
    fireEvent.change(input, { target: { files: [sheet] } });
    await waitFor(() => expect(screen.getByTestId('flow-import-submit')).toHaveProperty('disabled', false));
    fireEvent.click(screen.getByTestId('flow-import-submit'));
    const report = await screen.findByTestId('flow-import-errors');
    expect(report.textContent).toContain('2 errors: no card was imported');
    const rows = within(report).getAllByRole('row').slice(1);
    expect(rows.map((r) => r.textContent)).toEqual([
      '2ICCIDThe ICCID has 19 or 20 letters or digits',
      '5OperatorUnknown operator "Moon Telecom"',
    ]);
    expect(calls.find((c) => c.name === 'flowCardImport')?.data).toMatchObject({ fileName: 'cards.xlsx' });
  });

  it('unbinds a device after asking, and links to the market for data packages', async () => {
    const { calls, app } = await openCards();
    const active = screen.getByTestId('flow-row-8986001234567890123A');
    fireEvent.click(within(active).getByTestId('flow-unbind'));
    await screen.findByText(/Lobby screen will no longer use this card's data/);
    fireEvent.click(screen.getByTestId('confirm-ok'));
    await waitFor(() => expect(calls.some((c) => c.name === 'flowCardBind')).toBe(true));
    expect(calls.find((c) => c.name === 'flowCardBind')?.data).toEqual({ id: 'c2', deviceId: null });

    fireEvent.click(screen.getByTestId('flow-buy'));
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/shop/detail'));
    expect(app.router.state.location.search).toBe('?kind=dataCard');
  });
});

describe('/report/flowConsumption (data consumption)', () => {
  const report = (capped: boolean) => ({
    code: 0,
    payload: {
      total: capped ? 10_000 : 2,
      capped,
      data: [
        {
          day: '2026-11-27',
          cardId: 'c2',
          iccid: '8986001234567890123A',
          deviceId: 'dev-1',
          deviceName: 'Lobby screen',
          bytes: 5 * 1024 * 1024,
        },
        { day: '2026-11-26', cardId: null, iccid: null, deviceId: 'dev-2', deviceName: 'Gate', bytes: 1536 },
      ],
      series: [
        { day: '2026-11-26', bytes: 1536 },
        { day: '2026-11-27', bytes: 5 * 1024 * 1024 },
      ],
      totalBytes: 5 * 1024 * 1024 + 1536,
    },
  });

  async function openReport(capped: boolean) {
    const calls = fakeServer({
      ...flowAnswers,
      flowUsageReport: () => report(capped),
      flowUsageExportStart: () => ({
        code: 0,
        payload: { exportId: 'x1', status: 'running', processed: 0, total: 2, fileName: null },
      }),
      flowUsageExportStatus: () => ({
        code: 0,
        payload: { exportId: 'x1', status: 'running', processed: 1, total: 2, fileName: null },
      }),
    });
    useSession.getState().setLogin(loginResponse({ permissionList: [Perm.sourceConsumption, Perm.device] }));
    const app = renderApp('/report/flowConsumption');
    render(app.tree);
    await screen.findByTestId('flow-report-page', {}, { timeout: 60_000 });
    return { calls, app };
  }

  it('reads the last 30 days by default and shows the total, the chart and the rows', async () => {
    const { calls } = await openReport(false);
    const rows = await screen.findAllByTestId('flow-report-row');
    expect(rows).toHaveLength(2);
    expect(rows[0].textContent).toContain('8986001234567890123A');
    expect(rows[0].textContent).toContain('5 MB');
    expect(rows[1].textContent).toContain('No card');
    expect(rows[1].textContent).toContain('1.5 KB');
    const [from, to] = defaultRange(new Date());
    expect(calls.find((c) => c.name === 'flowUsageReport')?.data).toEqual({ page: 1, size: 20, from, to });
    expect(screen.getByTestId('flow-report-total').textContent).toContain('5 MB');
    expect(screen.getByTestId('flow-report-peak').textContent).toContain('2026-11-27');
    expect(await screen.findByTestId('flow-chart')).toBeTruthy();
    expect(screen.getByText('2 rows')).toBeTruthy();

    fireEvent.click(screen.getByText('Bars'));
    await waitFor(() => expect(screen.getByTestId('flow-chart').getAttribute('data-kind')).toBe('bar'));
  });

  it("says 'more than 10,000' when the count is capped, and exports the same filters", async () => {
    const { calls } = await openReport(true);
    await screen.findAllByTestId('flow-report-row');
    expect(screen.getByText('More than 10,000 rows')).toBeTruthy();
    fireEvent.change(screen.getByTestId('flow-report-filter-keyword'), { target: { value: 'Lobby' } });
    fireEvent.click(screen.getByTestId('flow-report-search'));
    await waitFor(() =>
      expect(calls.filter((c) => c.name === 'flowUsageReport').at(-1)?.data).toMatchObject({ keyword: 'Lobby' }),
    );
    fireEvent.click(screen.getByTestId('flow-export'));
    await waitFor(() => expect(calls.some((c) => c.name === 'flowUsageExportStart')).toBe(true));
    const [from, to] = defaultRange(new Date());
    expect(calls.find((c) => c.name === 'flowUsageExportStart')?.data).toEqual({ from, to, keyword: 'Lobby' });
    await waitFor(() =>
      expect(screen.getByTestId('flow-export-progress').textContent).toContain('Writing 1 of 2 rows'),
    );
  });
});
