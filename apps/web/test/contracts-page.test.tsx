import { type Contract, Perm, type PriceContract } from '@marquee/protocol';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { prepareAntd } from '../src/app/AntdRoot';
import SignContractPage from '../src/features/contracts/SignContractPage';
import { i18n } from '../src/i18n';
import { fakeServer, renderPages, setUpConsoleTests, shellAnswers } from './harness';

/** /operate/signContract (issue 28): contracts with the sign dialog, and price contracts. */
vi.setConfig({ testTimeout: 120_000 });
setUpConsoleTests({ asyncUtilTimeout: 20_000 });
beforeAll(async () => {
  await prepareAntd();
});

const SHA = 'a'.repeat(64);
const contract: Contract = {
  id: 'k-1',
  no: 'C20261128000001',
  kind: 'order',
  subjectId: 'o-1',
  subjectNo: 'SO20261128000001',
  advertiserId: 'adv-1',
  advertiserName: 'Blue Tea',
  title: 'Airtime order SO20261128000001',
  state: 'signing',
  channel: 'internal',
  syncState: null,
  syncAttempts: 0,
  syncError: null,
  sha256: SHA,
  bytes: 24_576,
  signedBy: null,
  signedAt: null,
  createdBy: 'operator',
  createdAt: '2026-11-28T08:00:00.000Z',
  canSign: true,
};
const failedSync: Contract = {
  ...contract,
  id: 'k-2',
  no: 'C20261128000002',
  channel: 'esign',
  syncState: 'failed',
  syncAttempts: 3,
  syncError: 'HTTP 503',
  canSign: false,
};
const price: PriceContract = {
  id: 'p-1',
  number: 'PC000001',
  name: 'Blue Tea 2027',
  advertiserId: 'adv-1',
  advertiserName: 'Blue Tea',
  discount: 0.85,
  slotPrices: [{ slotId: 's-1', slotName: 'Lobby loop', unitPrice: 1000 }],
  validFrom: '2027-01-01',
  validTo: '2027-12-31',
  enabled: true,
  active: false,
  contractId: null,
  contractState: null,
  createdAt: '2026-11-28T08:00:00.000Z',
};

function renderAt(initial: string, permissions: string[]) {
  return renderPages(initial, { '/operate/signContract': <SignContractPage /> }, permissions, { userName: 'Ada Lin' });
}

describe('/operate/signContract', () => {
  it('opens filtered by the URL keyword, signs the document whose SHA-256 it shows, and retries a failed sync', async () => {
    await i18n.changeLanguage('en-US');
    const calls = fakeServer({
      ...shellAnswers,
      salesContractList: () => ({ code: 0, payload: { total: 2, data: [contract, failedSync] } }),
      salesContractSign: () => ({
        code: 0,
        payload: { ...contract, state: 'signed', signedBy: 'Ada Lin', signedAt: '2026-11-28T09:00:00.000Z' },
      }),
      salesContractSync: () => ({ code: 0, payload: { ...failedSync, syncState: 'synchronized' } }),
    });
    renderAt('/operate/signContract?keyword=SO20261128000001', [Perm.operateSignContract, Perm.salesManage]);
    const row = await screen.findByTestId('contract-row-k-1');
    expect(calls.find((c) => c.name === 'salesContractList')?.data).toMatchObject({ keyword: 'SO20261128000001' });
    expect(row.textContent).toContain('Airtime order');
    expect(row.textContent).toContain('24.0 KB');
    // A failed e-signature sync shows its attempts; an internal contract is signed here.
    expect(screen.getByTestId('contract-row-k-2').textContent).toContain('3 attempts');
    expect(screen.queryByTestId('contract-sign-k-2')).toBeNull();

    fireEvent.click(screen.getByTestId('contract-sign-k-1'));
    expect((await screen.findByTestId('contract-sign-hash')).textContent).toContain(SHA);
    // Signing without confirming the reading is refused by the form, nothing is sent.
    fireEvent.click(screen.getByTestId('contract-sign-submit'));
    expect(await screen.findByText('Confirm that you have read the contract before signing.')).toBeTruthy();
    expect(calls.some((c) => c.name === 'salesContractSign')).toBe(false);
    expect(screen.getByText(/I, Ada Lin, have read this contract/)).toBeTruthy();
    fireEvent.click(screen.getByTestId('contract-sign-agree'));
    fireEvent.click(screen.getByTestId('contract-sign-submit'));
    await waitFor(() =>
      expect(calls.find((c) => c.name === 'salesContractSign')?.data).toEqual({ id: 'k-1', sha256: SHA }),
    );

    fireEvent.click(screen.getByTestId('contract-sync-k-2'));
    fireEvent.click(await screen.findByTestId('confirm-ok'));
    await waitFor(() => expect(calls.find((c) => c.name === 'salesContractSync')?.data).toEqual({ id: 'k-2' }));
  });

  it('lists price contracts on their tab, adds one with a slot price in yuan, and offers e-signature only when configured', async () => {
    await i18n.changeLanguage('en-US');
    const calls = fakeServer({
      ...shellAnswers,
      salesPriceContractList: () => ({ code: 0, payload: { total: 1, data: [price] } }),
      salesAdvertiserOptions: () => ({
        code: 0,
        payload: { data: [{ id: 'adv-1', name: 'Blue Tea', loginName: 'bluetea' }] },
      }),
      salesSlotOptions: () => ({
        code: 0,
        payload: {
          data: [{ id: 's-1', name: 'Lobby loop', salesMethod: 'cpt', unitPrice: 1250, maxRotations: 4, screens: 2 }],
        },
      }),
      salesPriceContractSave: () => ({ code: 0, payload: { ...price, id: 'p-2', name: 'Blue Tea spring' } }),
      salesSettings: () => ({
        code: 0,
        payload: { holdMinutes: 30, impressionsPerPlayPct: 100, defaultRemedy: 'credit', esignConfigured: false },
      }),
    });
    renderAt('/operate/signContract?tab=prices', [Perm.operateSignContract, Perm.salesManage]);
    const row = await screen.findByTestId('price-row-p-1');
    expect(row.textContent).toContain('0.85 (15% off)');
    expect(row.textContent).toContain('1 slot');
    expect(row.textContent).toContain('Out of period');

    // The contract of a price contract: e-signature is shown, disabled, with the reason.
    fireEvent.click(screen.getByTestId('price-draw-p-1'));
    const esign = await screen.findByTestId('contract-draw-esign');
    await waitFor(() => expect(screen.getByText(/no e-signature provider is configured/)).toBeTruthy());
    expect((esign.closest('label') as HTMLElement).className).toContain('disabled');
    fireEvent.click(
      within(screen.getByTestId('contract-draw-form').closest('.ant-modal') as HTMLElement).getByText('Cancel'),
    );

    fireEvent.click(screen.getByTestId('price-add'));
    fireEvent.change(await screen.findByTestId('price-name'), { target: { value: 'Blue Tea spring' } });
    const advertiser = screen.getByTestId('price-advertiser');
    fireEvent.mouseDown(advertiser.querySelector('input') ?? advertiser);
    fireEvent.click(await screen.findByText('Blue Tea (bluetea)'));
    fireEvent.click(screen.getByTestId('price-add-slot'));
    const slot = await screen.findByTestId('price-slot-0');
    fireEvent.mouseDown(slot.querySelector('input') ?? slot);
    fireEvent.click(await screen.findByText(/Lobby loop · CPT/));
    // Three decimals are refused before anything is sent.
    fireEvent.change(screen.getByTestId('price-slot-price-0'), { target: { value: '9.999' } });
    fireEvent.click(screen.getByTestId('price-submit'));
    expect(await screen.findByText('At most 2 decimal places')).toBeTruthy();
    fireEvent.change(screen.getByTestId('price-slot-price-0'), { target: { value: '9.90' } });
    fireEvent.click(screen.getByTestId('price-submit'));
    await waitFor(() => expect(calls.some((c) => c.name === 'salesPriceContractSave')).toBe(true));
    expect(calls.find((c) => c.name === 'salesPriceContractSave')?.data).toMatchObject({
      name: 'Blue Tea spring',
      advertiserId: 'adv-1',
      discount: 0.9,
      enabled: true,
      slotPrices: [{ slotId: 's-1', unitPrice: 990 }],
    });
  });
});
