import { Perm } from '@marquee/protocol';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { parseSymbols } from '../src/features/templates/SharesPluginPage';
import { useSession } from '../src/session/session';
import { fakeServer, loginResponse, renderApp, setUpConsoleTests, shellAnswers } from './harness';

vi.setConfig({ testTimeout: 60_000 });
setUpConsoleTests({ asyncUtilTimeout: 8000 });

const time = new Date().toISOString();

describe('share-price data source (/template/plugins/shares)', () => {
  it('splits symbols on commas of both widths, spaces and new lines, upper-cased, once each', () => {
    expect(parseSymbols('600519.sh, 0700.HK，aapl\nAAPL  ')).toEqual(['600519.SH', '0700.HK', 'AAPL']);
  });

  it('says which setting enables quotes and shows nothing without a provider; with one, previews the quotes', async () => {
    let provider: string | null = null;
    const calls = fakeServer({
      ...shellAnswers,
      sharesQuotes: (raw) => {
        const data = raw as { symbols: string[] };
        return {
          code: 0,
          payload: {
            provider,
            quotes: Object.fromEntries(
              data.symbols.map((s) => [
                s,
                provider && s === 'AAPL'
                  ? {
                      symbol: 'AAPL',
                      name: 'Apple',
                      price: 189.5,
                      change: 1.25,
                      changePercent: 0.66,
                      currency: 'USD',
                      time,
                      stale: false,
                    }
                  : null,
              ]),
            ),
          },
        };
      },
    });
    useSession.getState().setLogin(loginResponse({ permissionList: [Perm.template] }));
    const { tree } = renderApp('/template/plugins/shares');
    render(tree);
    // the page asks for its example symbols at once, so the provider's status shows on arrival
    expect((await screen.findByTestId('shares-provider', {}, { timeout: 25_000 })).textContent).toBe('None set up');
    expect(screen.getByText('No share-price provider is set up')).toBeTruthy();
    expect(screen.getByTestId('shares-none').textContent).toContain('SHARES_PROVIDER=http');
    expect(screen.getByTestId('shares-screen').querySelector('[data-shares="none"]')).not.toBeNull();
    expect(screen.getByTestId('shares-screen').querySelector('[data-component-id="preview"]')?.textContent).toBe('');
    expect(screen.queryByTestId('shares-quotes')).toBeNull();

    const input = screen.getByTestId('shares-symbols');
    fireEvent.change(input, { target: { value: 'AAPL, $BAD' } });
    expect(await screen.findByText('Not a valid symbol: $BAD')).toBeTruthy();
    expect((screen.getByTestId('shares-show') as HTMLButtonElement).disabled).toBe(true);

    provider = 'http';
    fireEvent.change(input, { target: { value: 'aapl, NOPE' } });
    fireEvent.click(screen.getByTestId('shares-show'));
    await waitFor(() => expect(screen.getByTestId('shares-provider').textContent).toBe('http'));
    expect(calls.filter((c) => c.name === 'sharesQuotes').at(-1)?.data).toEqual({ symbols: ['AAPL', 'NOPE'] });
    const screenBox = screen.getByTestId('shares-screen');
    await waitFor(() => expect(screenBox.querySelector('[data-symbol="AAPL"]')).not.toBeNull());
    expect(screenBox.querySelector('[data-symbol="NOPE"]')).toBeNull();
    expect(screenBox.textContent).toContain('189.50');
    expect(screen.getByText('189.50 USD')).toBeTruthy();
    expect(screen.getByText('+1.25 (+0.66%)')).toBeTruthy();
    expect(screen.getByText('The provider has no quote for this symbol')).toBeTruthy();
    expect(screen.queryByTestId('shares-none')).toBeNull();
  });
});
