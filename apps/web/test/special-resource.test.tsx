import { Perm } from '@marquee/protocol';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { useSession } from '../src/session/session';
import { fakeServer, loginResponse, renderApp, setUpConsoleTests, shellAnswers } from './harness';

vi.setConfig({ testTimeout: 60_000 });
setUpConsoleTests({ asyncUtilTimeout: 8000 });

const resource = {
  id: 'r1',
  title: 'Bund landmark screen',
  description: 'The facade on the Bund',
  kind: 'landmark',
  targets: { deviceIds: [], groupIds: [], tagIds: [], spliceIds: [] },
  startDate: '2026-10-01',
  endDate: '2026-10-07',
  price: 123456700,
  capacity: 1,
  state: 'listed',
  photos: [{ id: 'p1', url: 'https://files.example/p1.png' }],
  accepted: 0,
  open: 1,
  createdAt: '2026-09-01T00:00:00.000Z',
  updatedAt: '2026-09-01T00:00:00.000Z',
};

const inquiry = {
  id: 'q1',
  resourceId: 'r1',
  resourceTitle: 'Bund landmark screen',
  startDate: '2026-10-02',
  endDate: '2026-10-03',
  message: 'Two days for a launch',
  state: 'quoted',
  quotedPrice: 35000000,
  answer: 'Includes production',
  answeredAt: '2026-09-02T00:00:00.000Z',
  inquirerName: 'Bright Drinks',
  entName: 'Demo Media',
  createdAt: '2026-09-01T08:00:00.000Z',
};

describe('special resources (/special/resource)', () => {
  it('shows an advertiser the listed resources as cards, and lets it accept a quote after confirming', async () => {
    const calls = fakeServer({
      ...shellAnswers,
      specialListed: () => ({ code: 0, payload: { total: 1, data: [resource] } }),
      specialMyInquiries: () => ({ code: 0, payload: { total: 1, data: [inquiry] } }),
      specialInquiryRespond: () => ({ code: 0, payload: { state: 'accepted' } }),
    });
    useSession.getState().setLogin(loginResponse({ permissionList: [Perm.specialResource] }));
    const { tree } = renderApp('/special/resource');
    render(tree);
    const card = await screen.findByTestId('special-card-r1', {}, { timeout: 25_000 });
    expect(card.textContent).toContain('Bund landmark screen');
    expect(card.textContent).toContain('Landmark screen');
    expect(card.textContent).toContain('1,234,567.00');
    expect(card.querySelector('img')?.getAttribute('src')).toBe('https://files.example/p1.png');
    expect(screen.getByTestId('special-inquire-r1')).toBeTruthy();
    // the operator's tabs are not there
    expect(screen.queryByTestId('special-tab-resources')).toBeNull();

    fireEvent.click(screen.getByTestId('special-tab-mine'));
    await screen.findByTestId('special-mine');
    const row = await screen.findByTestId('special-inquiry-q1', {}, { timeout: 20_000 });
    expect(within(row).getByTestId('special-inquiry-state').textContent).toBe('Quoted');
    expect(row.textContent).toContain('350,000.00');
    fireEvent.click(within(row).getByTestId('special-accept-q1'));
    // a confirmation first
    fireEvent.click(await screen.findByRole('button', { name: 'OK' }));
    await waitFor(() =>
      expect(calls.find((c) => c.name === 'specialInquiryRespond')?.data).toEqual({ id: 'q1', action: 'accept' }),
    );
  });

  it('gives the operator its resources and inquiries, and refuses a price with three decimals', async () => {
    const calls = fakeServer({
      ...shellAnswers,
      specialResourceList: () => ({ code: 0, payload: { total: 1, data: [resource] } }),
      specialInquiryList: () => ({
        code: 0,
        payload: { total: 1, data: [{ ...inquiry, state: 'open', quotedPrice: null, answer: '' }] },
      }),
      specialInquiryAnswer: () => ({ code: 0, payload: { state: 'quoted' } }),
    });
    useSession
      .getState()
      .setLogin(loginResponse({ permissionList: [Perm.specialResource, Perm.specialResourceManage] }));
    const { tree } = renderApp('/special/resource');
    render(tree);
    expect(await screen.findByTestId('special-resource-edit-r1', {}, { timeout: 25_000 })).toBeTruthy();
    expect(screen.getByText('0 / 1')).toBeTruthy();

    fireEvent.click(screen.getByTestId('special-tab-inquiries'));
    const row = await screen.findByTestId('special-inquiry-q1');
    expect(row.textContent).toContain('Bright Drinks · Demo Media');
    fireEvent.click(within(row).getByTestId('special-quote-q1'));
    const price = await screen.findByTestId('special-answer-price');
    fireEvent.change(price, { target: { value: '350000.005' } });
    fireEvent.click(screen.getByTestId('special-answer-submit'));
    expect(await screen.findByText('At most 2 decimal places')).toBeTruthy();
    expect(calls.find((c) => c.name === 'specialInquiryAnswer')).toBeUndefined();
    fireEvent.change(price, { target: { value: '350000.5' } });
    fireEvent.click(screen.getByTestId('special-answer-submit'));
    await waitFor(() =>
      expect(calls.find((c) => c.name === 'specialInquiryAnswer')?.data).toEqual({
        id: 'q1',
        action: 'quote',
        price: 35000050,
        answer: '',
      }),
    );
  });
});
