import { Perm } from '@marquee/protocol';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { parseCities } from '../src/features/templates/WeatherPluginPage';
import { useSession } from '../src/session/session';
import { fakeServer, loginResponse, renderApp, setUpConsoleTests, shellAnswers } from './harness';

vi.setConfig({ testTimeout: 60_000 });
setUpConsoleTests({ asyncUtilTimeout: 8000 });

describe('weather data source (/template/plugins/weather)', () => {
  it('splits cities on commas of both widths, new lines and semicolons, once each', () => {
    expect(parseCities('Shanghai, 东京，Berlin\nShanghai;  ')).toEqual(['Shanghai', '东京', 'Berlin']);
  });

  it('says no provider is set up, or shows what the provider reports and which city it does not know', async () => {
    let provider: string | null = null;
    const calls = fakeServer({
      ...shellAnswers,
      weatherCurrent: () => ({
        code: 0,
        payload: {
          provider,
          readings: {
            Shanghai: provider
              ? { city: 'Shanghai', temperature: 12.4, condition: 'Clear', high: 15, low: 8, humidity: 61 }
              : null,
            Atlantis: null,
          },
        },
      }),
    });
    useSession.getState().setLogin(loginResponse({ permissionList: [Perm.template] }));
    const { tree } = renderApp('/template/plugins/weather');
    render(tree);
    const input = await screen.findByTestId('weather-cities', {}, { timeout: 25_000 });
    fireEvent.change(input, { target: { value: 'Shanghai, Atlantis' } });
    fireEvent.click(screen.getByTestId('weather-check'));
    expect((await screen.findByTestId('weather-provider')).textContent).toBe('None set up');
    expect(screen.getByText('No weather provider is set up')).toBeTruthy();
    expect(calls.find((c) => c.name === 'weatherCurrent')?.data).toEqual({ cities: ['Shanghai', 'Atlantis'] });

    provider = 'open-meteo';
    fireEvent.click(screen.getByTestId('weather-check'));
    await waitFor(() => expect(screen.getByTestId('weather-provider').textContent).toBe('open-meteo'));
    expect(await screen.findByText('12 °C · Clear')).toBeTruthy();
    expect(screen.getByText('8 ~ 15 °C')).toBeTruthy();
    expect(screen.getByText('The provider does not know this city')).toBeTruthy();
  });
});
