import { ErrorCode, Perm, type RtbCampaign, type RtbDsp, type Slot, type TemplateRow } from '@marquee/protocol';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { prepareAntd } from '../src/app/AntdRoot';
import OrderListPage from '../src/features/sales/OrderListPage';
import SlotPage from '../src/features/sales/SlotPage';
import { type Answer, fakeServer, renderPages, setUpConsoleTests, shellAnswers } from './harness';

/**
 * Programmatic airtime's console pages (issue 29): the campaigns tab of /operate/order with its
 * dialog (amounts typed in yuan, sent as fen), and the auction log, DSPs and the slot's RTB
 * dialog on /operate/slot; against answers of the rtb contract.
 */
vi.setConfig({ testTimeout: 120_000 });
setUpConsoleTests({ asyncUtilTimeout: 20_000 });
beforeAll(async () => {
  await prepareAntd();
});

const campaign = (extra: Partial<RtbCampaign>): RtbCampaign => ({
  id: 'c-1',
  name: 'Spring tea',
  advertiserId: 'adv-1',
  advertiserName: 'Blue Tea',
  state: 'active',
  shownState: 'active',
  bidCpm: 1250,
  dailyBudget: null,
  totalBudget: 10_000,
  spent: 2_000,
  reserved: 500,
  frozen: 8_000,
  startDate: '2026-12-01',
  endDate: '2026-12-31',
  hours: [],
  weekdays: [],
  targets: { deviceIds: [], groupIds: [], tagIds: [], regionCodes: [] },
  pacing: 'even',
  adId: 'ad-1',
  adName: 'Tea ad',
  adReviewState: 'passed',
  materialIds: ['m-1'],
  layoutId: null,
  wins: 40,
  plays: 38,
  createdAt: '2026-11-28T01:00:00.000Z',
  updatedAt: '2026-11-28T01:00:00.000Z',
  ...extra,
});

const ok = (payload: unknown): Answer => ({ code: 0, payload });

const layout: TemplateRow = {
  id: 'lay-1',
  name: 'Tea board',
  width: 1920,
  height: 1080,
  ownerId: 'acc-1',
  ownerName: 'Ada Admin',
  deptId: 'd-1',
  deptName: 'Head office',
  hasPermission: true,
  updatedAt: '2026-11-01T00:00:00.000Z',
  isDefault: false,
  version: 1,
  thumb: null,
};

const orderAnswers: Record<string, (data: unknown) => Answer> = {
  ...shellAnswers,
  salesAdvertiserOptions: () => ok({ data: [{ id: 'adv-1', name: 'Blue Tea', loginName: 'bluetea' }] }),
  rtbCampaignList: () =>
    ok({
      total: 3,
      data: [
        campaign({}),
        campaign({ id: 'c-2', name: 'Night owls', state: 'paused', shownState: 'paused' }),
        campaign({ id: 'c-3', name: 'Old one', state: 'ended', shownState: 'ended' }),
      ],
      counts: { active: 1, paused: 1, ended: 1 },
    }),
  rtbTargetOptions: () =>
    ok({
      devices: [{ id: 'd-1', name: 'Lobby left', regionCodes: ['310000'] }],
      groups: [],
      tags: [],
      regions: [{ code: '310000', name: 'Shanghai' }],
      minFloorCpm: 500,
      maxFloorCpm: 3_000,
    }),
  templatePage: () => ok({ total: 1, data: [layout] }),
  rtbCampaignSave: (data) => ok(campaign({ ...(data as Partial<RtbCampaign>), id: 'c-9' })),
  rtbCampaignInfo: () =>
    ok({
      campaign: campaign({}),
      transfers: [{ id: 'rtb:c-1:hold:1', code: 'hold', amount: 10_000, at: '2026-11-28T01:00:00.000Z' }],
    }),
  rtbCampaignDelivery: () =>
    ok({
      timeZone: 'Asia/Shanghai',
      series: [{ at: '2026-12-01T00:00:00+08:00', wins: 40, plays: 38, spend: 2_000 }],
      totals: { wins: 40, plays: 38, spend: 2_000 },
    }),
  rtbCampaignEnd: (data) => ok(campaign({ id: (data as { id: string }).id, state: 'ended', shownState: 'ended' })),
};

const staff = [Perm.operate, Perm.operateOrder, Perm.template];

function renderOrders(initial: string) {
  return renderPages(initial, { '/operate/order': <OrderListPage /> }, staff);
}

/** Opens an antd select and picks the option showing `text`. */
async function pick(testId: string, text: string) {
  const select = await screen.findByTestId(testId);
  fireEvent.mouseDown(select.querySelector('input') ?? select);
  const options = await screen.findAllByText(text, { selector: '.ant-select-item-option-content' });
  fireEvent.click(options[options.length - 1]);
}

const input = (testId: string) => {
  const el = screen.getByTestId(testId);
  return el.tagName === 'INPUT' ? el : (el.querySelector('input') as HTMLElement);
};

describe('/operate/order?tab=campaigns', () => {
  it('lists campaigns with their state counts and asks before ending one, naming the budget released', async () => {
    const calls = fakeServer(orderAnswers);
    renderOrders('/operate/order?tab=campaigns');
    const row = await screen.findByTestId('rtb-campaign-row-c-1');
    expect(screen.getByTestId('rtb-campaign-tab-active').textContent).toBe('Bidding 1');
    expect(screen.getByTestId('rtb-campaign-tab-paused').textContent).toBe('Paused 1');
    expect(screen.getByTestId('rtb-campaign-tab-all').textContent).toBe('All 3');
    expect(screen.getByTestId('rtb-campaign-tab-noAd').textContent).toBe('No approved ad 0');
    expect(row.textContent).toContain('¥12.50 / 1,000 imp.');
    expect(screen.getByTestId('rtb-campaign-budget-c-1').textContent).toContain('¥20.00 / ¥5.00 / ¥100.00');
    // Pause for the active one, resume for the paused one, nothing to end for the ended one.
    expect(screen.getByTestId('rtb-campaign-pause-c-1')).toBeTruthy();
    expect(screen.getByTestId('rtb-campaign-resume-c-2')).toBeTruthy();
    expect(screen.queryByTestId('rtb-campaign-end-c-3')).toBeNull();

    fireEvent.click(screen.getByTestId('rtb-campaign-end-c-1'));
    const confirm = await screen.findByText('End campaign "Spring tea" for good?');
    const pop = confirm.closest('.ant-popover') as HTMLElement;
    expect(pop.textContent).toContain('¥75.00 of unspent budget is released');
    expect(calls.some((c) => c.name === 'rtbCampaignEnd')).toBe(false);
    fireEvent.click(within(pop).getByTestId('confirm-ok'));
    await waitFor(() => expect(calls.find((c) => c.name === 'rtbCampaignEnd')?.data).toEqual({ id: 'c-1' }));
  });

  it('the detail drawer shows the delivery totals and the ledger transfers', async () => {
    const calls = fakeServer(orderAnswers);
    renderOrders('/operate/order?tab=campaigns');
    fireEvent.click(await screen.findByTestId('rtb-campaign-name-c-1'));
    const transfers = await screen.findByTestId('rtb-campaign-transfers');
    expect(transfers.textContent).toContain('rtb:c-1:hold:1');
    expect(transfers.textContent).toContain('Frozen');
    expect(transfers.textContent).toContain('¥100.00');
    const totals = await screen.findByTestId('rtb-delivery-totals');
    expect(totals.textContent).toContain('38');
    expect(totals.textContent).toContain('¥20.00');
    expect(calls.find((c) => c.name === 'rtbCampaignDelivery')?.data).toEqual({ id: 'c-1', by: 'day' });
  });

  it('the campaign dialog checks the bid range and daily <= total, and sends the amounts as fen', async () => {
    const calls = fakeServer(orderAnswers);
    renderOrders('/operate/order?tab=campaigns');
    fireEvent.click(await screen.findByTestId('rtb-campaign-new'));
    const form = await screen.findByTestId('rtb-campaign-form');
    // The slots' floors as a hint.
    await within(form).findByText(/floors range from ¥5\.00 to ¥30\.00/);

    fireEvent.change(input('rtb-campaign-name'), { target: { value: 'Winter tea' } });
    await pick('rtb-campaign-advertiser', 'Blue Tea (bluetea)');
    fireEvent.change(input('rtb-campaign-bid'), { target: { value: '10000.01' } });
    expect(await within(form).findByText('The bid is 0.01 to 10000 yuan per 1,000 impressions')).toBeTruthy();
    fireEvent.change(input('rtb-campaign-bid'), { target: { value: '3' } });
    expect(await within(form).findByTestId('rtb-campaign-below-floors')).toBeTruthy();
    fireEvent.change(input('rtb-campaign-bid'), { target: { value: '12.5' } });
    fireEvent.change(input('rtb-campaign-total'), { target: { value: '100' } });
    fireEvent.change(input('rtb-campaign-daily'), { target: { value: '200' } });
    expect(await within(form).findByText('The daily budget cannot exceed the total budget')).toBeTruthy();
    fireEvent.click(screen.getByRole('radio', { name: 'Layout' }));
    await pick('rtb-campaign-layout', 'Tea board');
    fireEvent.click(screen.getByTestId('rtb-campaign-submit'));
    await new Promise((r) => setTimeout(r, 300));
    expect(calls.some((c) => c.name === 'rtbCampaignSave')).toBe(false);

    fireEvent.change(input('rtb-campaign-daily'), { target: { value: '50.5' } });
    await waitFor(() => expect(within(form).queryByText('The daily budget cannot exceed the total budget')).toBeNull());
    fireEvent.click(screen.getByTestId('rtb-campaign-submit'));
    await waitFor(() => expect(calls.some((c) => c.name === 'rtbCampaignSave')).toBe(true));
    const sent = calls.find((c) => c.name === 'rtbCampaignSave')?.data as Record<string, unknown>;
    expect(sent).toMatchObject({
      advertiserId: 'adv-1',
      name: 'Winter tea',
      bidCpm: 1250,
      totalBudget: 10_000,
      dailyBudget: 5_050,
      hours: [],
      weekdays: [],
      pacing: 'even',
      targets: { deviceIds: [], groupIds: [], tagIds: [], regionCodes: [] },
      materialIds: [],
      layoutId: 'lay-1',
    });
    expect(sent.id).toBeUndefined();
  });

  it('shows the server refusal of a short balance in the dialog', async () => {
    fakeServer({
      ...orderAnswers,
      rtbCampaignSave: () => ({ code: ErrorCode.INSUFFICIENT_BALANCE, message: 'The available balance is not enough' }),
    });
    renderOrders('/operate/order?tab=campaigns');
    fireEvent.click(await screen.findByTestId('rtb-campaign-edit-c-1'));
    const form = await screen.findByTestId('rtb-campaign-form');
    await waitFor(() => expect((input('rtb-campaign-total') as HTMLInputElement).value).toBe('100.00'));
    fireEvent.click(screen.getByTestId('rtb-campaign-submit'));
    expect(await within(form.closest('.ant-modal') as HTMLElement).findByTestId('rtb-campaign-refusal')).toBeTruthy();
  });
});

const dsp: RtbDsp = {
  id: 'dsp-1',
  name: 'Acme DSP',
  endpoint: 'https://bid.acme.test/openrtb',
  seat: 'seat-7',
  timeoutMs: 200,
  enabled: true,
  requests24h: 1200,
  bids24h: 300,
  timeouts24h: 12,
  invalid24h: 1,
  wins24h: 40,
  createdAt: '2026-11-01T00:00:00.000Z',
  updatedAt: '2026-11-01T00:00:00.000Z',
};

const slot: Slot = {
  id: 's-1',
  number: '100000001',
  name: 'Lobby loop',
  screenSize: '55"',
  width: 1920,
  height: 1080,
  durationSec: 15,
  salesMethod: 'cpm',
  cptPrice: null,
  cpmPrice: 3000,
  maxRotations: 4,
  rtbEnabled: true,
  rtbFloor: 1000,
  rtbFallbackAdId: null,
  rtbFallbackAdName: null,
  venueType: 'retail.malls',
  targets: { deviceIds: ['d-1'], groupIds: [], tagIds: [], spliceIds: [] },
  layoutId: null,
  layoutName: null,
  regionId: null,
  screens: 1,
  longOfflineScreens: 0,
  inUse: false,
  createdAt: '2026-11-01T00:00:00.000Z',
  updatedAt: '2026-11-01T00:00:00.000Z',
};

const auction = {
  id: 'a-1',
  slotId: 's-1',
  slotName: 'Lobby loop',
  deviceId: 'd-1',
  deviceName: 'Lobby left',
  turnAt: '2026-11-28T08:00:00.000Z',
  durationSec: 15,
  decidedAt: '2026-11-28T07:56:00.000Z',
  floorCpm: 1000,
  qty: 1.5,
  qtySource: 'multiplier',
  bidders: 4,
  bids: 2,
  timeouts: 1,
  state: 'won',
  winnerKind: 'campaign',
  winnerName: 'Spring tea',
  adId: 'ad-1',
  clearingCpm: 1001,
  price: 2,
  billedAt: null,
};

const slotAnswers: Record<string, (data: unknown) => Answer> = {
  ...shellAnswers,
  salesSlotList: () => ok({ total: 1, data: [slot] }),
  rtbFallbackOptions: () => ok({ data: [{ id: 'ad-9', name: 'House ad' }] }),
  salesSlotRtb: (data) => ok({ ...slot, ...(data as Partial<Slot>) }),
  rtbAuctionList: () => ok({ total: 1, data: [auction] }),
  rtbAuctionInfo: () =>
    ok({
      auction,
      bids: [
        { kind: 'campaign', bidder: 'Spring tea', bidderId: 'c-1', cpm: 1250, outcome: 'won', ms: null, note: null },
        { kind: 'dsp', bidder: 'Acme DSP', bidderId: 'dsp-1', cpm: null, outcome: 'timeout', ms: 200, note: null },
        {
          kind: 'dsp',
          bidder: 'Bolt',
          bidderId: 'dsp-2',
          cpm: null,
          outcome: 'invalid',
          ms: 35,
          note: 'seatbid missing',
        },
        {
          kind: 'campaign',
          bidder: 'Night owls',
          bidderId: 'c-2',
          cpm: 900,
          outcome: 'belowFloor',
          ms: null,
          note: null,
        },
        {
          kind: 'campaign',
          bidder: 'New tea',
          bidderId: 'c-4',
          cpm: 2000,
          outcome: 'creativePending',
          ms: null,
          note: null,
        },
      ],
    }),
  rtbDspList: () => ok({ data: [dsp] }),
  rtbDspSave: (data) => ok({ ...dsp, ...(data as Partial<RtbDsp>), id: 'dsp-9' }),
};

function renderSlots(initial: string, permissions: string[]) {
  return renderPages(initial, { '/operate/slot': <SlotPage /> }, permissions);
}

describe('/operate/slot', () => {
  it('the RTB dialog sends the fallback ad and the venue type', async () => {
    const calls = fakeServer(slotAnswers);
    renderSlots('/operate/slot', [Perm.operateSlot, Perm.salesManage]);
    fireEvent.click(await screen.findByTestId('sales-slot-rtb-s-1'));
    const form = await screen.findByTestId('sales-rtb-form');
    expect(within(form).getByText('Shopping malls')).toBeTruthy();
    await pick('sales-rtb-fallback', 'House ad');
    await pick('sales-rtb-venue', 'Airports');
    fireEvent.click(screen.getByTestId('sales-rtb-submit'));
    await waitFor(() => expect(calls.some((c) => c.name === 'salesSlotRtb')).toBe(true));
    expect(calls.find((c) => c.name === 'salesSlotRtb')?.data).toEqual({
      id: 's-1',
      rtbEnabled: true,
      rtbFloor: 1000,
      rtbFallbackAdId: 'ad-9',
      venueType: 'transit.airports',
    });
  });

  it('the auction log opens an auction with its bids and a readable outcome for each', async () => {
    fakeServer(slotAnswers);
    renderSlots('/operate/slot?tab=auctions', [Perm.operateSlot]);
    const row = await screen.findByTestId('rtb-auction-row-a-1');
    expect(row.textContent).toContain('4 / 2 / 1');
    expect(row.textContent).toContain('Won, awaiting proof');
    fireEvent.click(screen.getByTestId('rtb-auction-open-a-1'));
    const bids = await screen.findByTestId('rtb-auction-bids');
    const outcomeOf = (bidderId: string) => within(bids).getByTestId(`rtb-bid-${bidderId}`).textContent;
    await waitFor(() => expect(outcomeOf('c-1')).toContain('Won'));
    expect(outcomeOf('c-1')).toContain('¥12.50 / 1,000 imp.');
    expect(outcomeOf('dsp-1')).toContain('Timed out');
    expect(outcomeOf('dsp-1')).toContain('200 ms');
    expect(outcomeOf('dsp-2')).toContain('Invalid answer');
    expect(outcomeOf('dsp-2')).toContain('seatbid missing');
    expect(outcomeOf('c-2')).toContain('Below floor');
    expect(outcomeOf('c-4')).toContain('Ad awaiting review');
  });

  it('the DSP dialog checks the endpoint URL and the time limit; without salesManage the list is read-only', async () => {
    const calls = fakeServer(slotAnswers);
    renderSlots('/operate/slot?tab=dsps', [Perm.operateSlot, Perm.salesManage]);
    await screen.findByTestId('rtb-dsp-row-dsp-1');
    fireEvent.click(screen.getByTestId('rtb-dsp-add'));
    const form = await screen.findByTestId('rtb-dsp-form');
    expect((input('rtb-dsp-timeout') as HTMLInputElement).value).toBe('200');
    fireEvent.change(input('rtb-dsp-name'), { target: { value: 'Bolt' } });
    fireEvent.change(input('rtb-dsp-endpoint'), { target: { value: 'ftp://bolt.test/bid' } });
    expect(await within(form).findByText(/starting with http:\/\/ or https:\/\//)).toBeTruthy();
    fireEvent.change(input('rtb-dsp-timeout'), { target: { value: '5' } });
    expect(await within(form).findByText('The time limit is 10 to 1000 ms')).toBeTruthy();
    fireEvent.click(screen.getByTestId('rtb-dsp-submit'));
    await new Promise((r) => setTimeout(r, 300));
    expect(calls.some((c) => c.name === 'rtbDspSave')).toBe(false);

    fireEvent.change(input('rtb-dsp-endpoint'), { target: { value: 'https://bolt.test:8443/bid' } });
    fireEvent.change(input('rtb-dsp-timeout'), { target: { value: '300' } });
    fireEvent.click(screen.getByTestId('rtb-dsp-submit'));
    await waitFor(() => expect(calls.some((c) => c.name === 'rtbDspSave')).toBe(true));
    expect(calls.find((c) => c.name === 'rtbDspSave')?.data).toEqual({
      name: 'Bolt',
      endpoint: 'https://bolt.test:8443/bid',
      seat: '',
      timeoutMs: 300,
      enabled: true,
    });
  });

  it('the fill-rate report shows its rows with the totals row, by slot unless asked otherwise', async () => {
    const row = (key: string, name: string, auctions: number, wins: number) => ({
      key,
      name,
      auctions,
      bids: auctions,
      wins,
      billed: wins,
      fillRate: auctions ? wins / auctions : 0,
      avgClearingCpm: wins ? 1_200 : null,
      revenue: wins * 2,
    });
    const calls = fakeServer({
      ...slotAnswers,
      rtbFillReport: () =>
        ok({
          timeZone: 'Asia/Shanghai',
          rows: [row('s-1', 'Lobby loop', 8, 6), row('s-2', 'Cellar', 2, 0)],
          totals: row('', '', 10, 6),
        }),
    });
    renderSlots('/operate/slot?tab=fill', [Perm.operateSlot]);
    const totals = await screen.findByTestId('rtb-fill-totals');
    expect(totals.textContent).toContain('60.0%');
    expect(totals.textContent).toContain('¥0.12');
    expect(screen.getByTestId('rtb-fill-table').textContent).toContain('75.0%');
    expect(calls.find((c) => c.name === 'rtbFillReport')?.data).toEqual({ by: 'slot' });
    // The hours of day are the enterprise's: the card says which zone.
    expect(screen.getByText('Fill rate (Asia/Shanghai)')).toBeTruthy();
  });

  it('shows the DSPs read-only without salesManage', async () => {
    fakeServer(slotAnswers);
    renderSlots('/operate/slot?tab=dsps', [Perm.operateSlot]);
    await screen.findByTestId('rtb-dsp-row-dsp-1');
    expect(screen.queryByTestId('rtb-dsp-add')).toBeNull();
    expect(screen.queryByTestId('rtb-dsp-edit-dsp-1')).toBeNull();
    expect((screen.getByTestId('rtb-dsp-enabled-dsp-1') as HTMLButtonElement).disabled).toBe(true);
  });
});
