import { act, cleanup, render, screen } from '@testing-library/react';
import { theme } from 'antd';
import { I18nextProvider } from 'react-i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { isChunkLoadError, reloadOnceForChunkError } from '../src/app/chunkReload';
import { LoadingBar } from '../src/app/LoadingBar';
import { OfflineBanner } from '../src/app/OfflineBanner';
import { applySkinToBody, SKINS, skinClass, skinTheme, toSkin } from '../src/components/skins';
import { i18n, initI18n } from '../src/i18n';

beforeAll(async () => {
  await initI18n('en-US');
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('loading bar (spec section 9: throttle 200 ms, duration 5 s)', () => {
  it('shows only when loading lasts over 200 ms, then completes', () => {
    vi.useFakeTimers();
    const { container, rerender } = render(<LoadingBar active />);
    act(() => vi.advanceTimersByTime(199));
    expect(container.querySelector('.mq-loading-bar')).toBeNull();
    act(() => vi.advanceTimersByTime(2));
    expect(container.querySelector('.mq-loading-bar-running')).not.toBeNull();
    rerender(<LoadingBar active={false} />);
    expect(container.querySelector('.mq-loading-bar-done')).not.toBeNull();
    act(() => vi.advanceTimersByTime(400));
    expect(container.querySelector('.mq-loading-bar')).toBeNull();
  });

  it('never shows for a fast navigation', () => {
    vi.useFakeTimers();
    const { container, rerender } = render(<LoadingBar active />);
    act(() => vi.advanceTimersByTime(150));
    rerender(<LoadingBar active={false} />);
    act(() => vi.advanceTimersByTime(1000));
    expect(container.querySelector('.mq-loading-bar')).toBeNull();
  });

  it('gives up after 5 s', () => {
    vi.useFakeTimers();
    const { container } = render(<LoadingBar active />);
    act(() => vi.advanceTimersByTime(4999));
    expect(container.querySelector('.mq-loading-bar-running')).not.toBeNull();
    act(() => vi.advanceTimersByTime(2));
    expect(container.querySelector('.mq-loading-bar-done')).not.toBeNull();
    act(() => vi.advanceTimersByTime(400));
    expect(container.querySelector('.mq-loading-bar')).toBeNull();
  });
});

describe('chunk load failure (spec section 8)', () => {
  it('recognises the browsers’ chunk errors', () => {
    expect(isChunkLoadError(new TypeError('Failed to fetch dynamically imported module: /assets/x.js'))).toBe(true);
    expect(isChunkLoadError(new TypeError('Importing a module script failed.'))).toBe(true);
    expect(isChunkLoadError({ name: 'ChunkLoadError', message: 'Loading chunk 3 failed' })).toBe(true);
    expect(isChunkLoadError(new Error('Cannot read properties of undefined'))).toBe(false);
    expect(isChunkLoadError(null)).toBe(false);
  });

  it('reloads once, then lets the error page show', () => {
    sessionStorage.clear();
    const reload = vi.fn();
    expect(reloadOnceForChunkError(1_000, sessionStorage, reload)).toBe(true);
    expect(reloadOnceForChunkError(2_000, sessionStorage, reload)).toBe(false);
    expect(reload).toHaveBeenCalledTimes(1);
    // A later incident (a later deployment) may reload again.
    expect(reloadOnceForChunkError(100_000, sessionStorage, reload)).toBe(true);
    expect(reload).toHaveBeenCalledTimes(2);
  });
});

describe('skins (spec sections 1 and 9)', () => {
  it('gives every skin a theme and the body class theme-<n>', () => {
    for (const skin of SKINS) {
      const config = skinTheme(skin);
      expect(config.token?.colorPrimary).toMatch(/^#/);
      expect(config.algorithm).toBe(skin === 4 ? theme.darkAlgorithm : theme.defaultAlgorithm);
      applySkinToBody(skin);
      expect(document.body.className).toBe(skinClass(skin));
      expect(document.body.style.getPropertyValue('--mq-primary')).toBe(config.token?.colorPrimary);
    }
  });

  it('treats unknown values as the default skin 1', () => {
    expect(toSkin(undefined)).toBe(1);
    expect(toSkin('3')).toBe(3);
    expect(toSkin(0)).toBe(1);
  });
});

describe('offline banner (spec sections 1 and 8)', () => {
  it('appears on offline and goes on online', () => {
    const online = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(true);
    render(
      <I18nextProvider i18n={i18n}>
        <OfflineBanner />
      </I18nextProvider>,
    );
    expect(screen.queryByTestId('offline-banner')).toBeNull();
    online.mockReturnValue(false);
    act(() => {
      window.dispatchEvent(new Event('offline'));
    });
    expect(screen.getByTestId('offline-banner').textContent).toContain(
      'The network is not available. Please check your network Settings',
    );
    online.mockReturnValue(true);
    act(() => {
      window.dispatchEvent(new Event('online'));
    });
    expect(screen.queryByTestId('offline-banner')).toBeNull();
    online.mockRestore();
  });
});
