import { Perm, type PromotionPlan } from '@marquee/protocol';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { useSession } from '../src/session/session';
import { fakeServer, loginResponse, renderApp, setUpConsoleTests, shellAnswers } from './harness';

vi.setConfig({ testTimeout: 120_000 });
setUpConsoleTests({ asyncUtilTimeout: 8000 });

const plan = (name: string, extra: Partial<PromotionPlan> = {}): PromotionPlan => ({
  id: `p-${name}`,
  name,
  budget: null,
  startDate: null,
  endDate: null,
  isDefault: false,
  adCount: 0,
  ownerName: 'Ann',
  deptName: 'Head office',
  hasPermission: true,
  createdAt: '2026-01-01T00:00:00.000Z',
  ...extra,
});

describe('promotion plans (/advert/plan)', () => {
  it('lists plans, locks the default one, adds a plan and deletes one after asking', async () => {
    const calls = fakeServer({
      ...shellAnswers,
      planList: () => ({
        code: 0,
        payload: {
          total: 2,
          data: [plan('Default plan', { isDefault: true, adCount: 3 }), plan('Spring', { budget: 1200.5 })],
        },
      }),
      planSave: () => ({ code: 0, payload: { id: 'p-new' } }),
      planDelete: () => ({ code: 0, payload: null }),
    });
    useSession.getState().setLogin(loginResponse({ permissionList: [Perm.adv, Perm.advPlan] }));
    render(renderApp('/advert/plan').tree);
    const row = await screen.findByTestId('plan-row-Default plan', {}, { timeout: 25_000 });
    expect(within(row).getByTestId('plan-default-tag').textContent).toBe('Default');
    expect((screen.getByTestId('plan-edit-Default plan') as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByTestId('plan-delete-Default plan') as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByTestId('plan-row-Spring').textContent).toContain('1,200.50');

    fireEvent.click(screen.getByTestId('plan-add'));
    fireEvent.click(await screen.findByTestId('plan-dialog-submit'));
    expect(await screen.findByText('This field is required')).toBeTruthy();
    fireEvent.change(screen.getByTestId('plan-dialog-name'), { target: { value: ' Summer ' } });
    fireEvent.change(screen.getByTestId('plan-dialog-budget'), { target: { value: '99.5' } });
    fireEvent.click(screen.getByTestId('plan-dialog-submit'));
    await waitFor(() =>
      expect(calls.find((c) => c.name === 'planSave')?.data).toEqual({
        name: 'Summer',
        budget: 99.5,
        startDate: null,
        endDate: null,
      }),
    );

    fireEvent.click(screen.getByTestId('plan-delete-Spring'));
    fireEvent.click(await screen.findByTestId('confirm-ok'));
    await waitFor(() => expect(calls.find((c) => c.name === 'planDelete')?.data).toEqual({ id: 'p-Spring' }));
  });
});
