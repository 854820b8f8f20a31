import { type Advertiser, type DictionaryItem, Perm } from '@marquee/protocol';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { useSession } from '../src/session/session';
import { fakeServer, loginResponse, renderApp, setUpConsoleTests, shellAnswers } from './harness';

vi.setConfig({ testTimeout: 120_000 });
setUpConsoleTests({ asyncUtilTimeout: 8000 });

const advertiser: Advertiser = {
  id: 'adv-acme',
  loginName: 'acme_foods',
  realName: 'Acme Foods',
  phone: null,
  email: null,
  status: 'enabled',
  deptId: null,
  deptName: 'Head office',
  createdAt: '2026-01-01T00:00:00.000Z',
  // An industry the operator disabled since: the advertiser keeps it, the form still names it.
  industry: 'tobacco',
  staff: [],
};

const industries: DictionaryItem[] = [
  { code: 'retail', label: 'Retail (dict)', enabled: true },
  { code: 'finance', label: 'Finance (dict)', enabled: true },
  { code: 'tobacco', label: 'Tobacco (dict)', enabled: false },
  { code: 'gambling', label: 'Gambling (dict)', enabled: false },
];

describe('advertiser industry picker (issue 31)', () => {
  it('names the industry in the list, filters by it, offers the enabled ones and the advertiser’s own, and sends the pick', async () => {
    const calls = fakeServer({
      ...shellAnswers,
      dictionaryList: (data) => ({
        code: 0,
        payload: (data as { kind: string }).kind === 'industry' ? industries : [],
      }),
      advertiserList: () => ({ code: 0, payload: { total: 1, data: [advertiser] } }),
      advertiserUpdate: () => ({ code: 0, payload: null }),
    });
    useSession.getState().setLogin(loginResponse({ permissionList: [Perm.userAdv] }));
    render(renderApp('/user/adv?industry=tobacco').tree);
    const row = await screen.findByTestId('adv-row-acme_foods', {}, { timeout: 25_000 });
    // The URL's industry goes to the list's filter (a disabled one too: advertisers keep it).
    expect(calls.filter((c) => c.name === 'advertiserList').at(-1)?.data).toMatchObject({ industry: 'tobacco' });
    expect(screen.getByTestId('adv-filter-industry')).toBeTruthy();
    // The column names the code in the reader's language.
    await waitFor(() => expect(row.textContent).toContain('Tobacco (dict)'));

    fireEvent.click(screen.getByTestId('adv-edit-acme_foods'));
    const dialog = await screen.findByTestId('adv-dialog');
    const picker = within(dialog).getByTestId('adv-dialog-industry');
    await waitFor(() => expect(picker.textContent).toContain('Tobacco (dict)'));
    fireEvent.mouseDown(within(picker).getByRole('combobox'));
    await screen.findAllByText('Finance (dict)', { selector: '.ant-select-item-option-content' });
    // Another disabled industry is not offered.
    expect(screen.queryAllByText('Gambling (dict)', { selector: '.ant-select-item-option-content' })).toHaveLength(0);
    fireEvent.click(screen.getAllByText('Finance (dict)', { selector: '.ant-select-item-option-content' })[0]);
    fireEvent.click(screen.getByTestId('adv-dialog-submit'));
    await waitFor(() => expect(calls.some((c) => c.name === 'advertiserUpdate')).toBe(true));
    expect(calls.find((c) => c.name === 'advertiserUpdate')?.data).toMatchObject({
      id: 'adv-acme',
      realName: 'Acme Foods',
      industry: 'finance',
    });
  });
});
