import { Perm, ROUTES, type RouteDef } from '@marquee/protocol';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import NotOnlinePage from '../src/features/common/NotOnlinePage';
import { storeLocale } from '../src/i18n';
import { useSession } from '../src/session/session';
import { pageModule, SHELL_PAGE_MODULES, shellPageLoader } from '../src/shell/pages';
import { fakeServer, loginResponse, renderApp, setUpConsoleTests, shellAnswers } from './harness';

// The first visit of each lazy page compiles it (antd included) inside the test run.
vi.setConfig({ testTimeout: 30_000 });

// Lazy pages compile in the test run: the wait covers their first visit.
setUpConsoleTests({ asyncUtilTimeout: 5000, answers: shellAnswers });

function signIn(permissionList: string[] = ['yxf_new_device', 'yxf_new_device_context']) {
  const res = loginResponse({ permissionList });
  useSession.getState().setLogin(res);
}

describe('routing with the real route table', () => {
  it('sends an unknown path to the 404 page with a link home', async () => {
    const { router, tree } = renderApp('/no/such/page');
    render(tree);
    expect(await screen.findByText('This page could not be found')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/404');
    expect(screen.getByText('Back to home').closest('a')?.getAttribute('href')).toBe('/');
  });

  it('sends a logged-out user to the login page', async () => {
    const { router, tree } = renderApp('/device');
    render(tree);
    await screen.findByTestId('login-page');
    expect(router.state.location.pathname).toBe('/login');
    expect(router.state.location.search).toBe(`?redirect=${encodeURIComponent('/device')}`);
  });

  it('has a page for every route of the shell: none falls back to "feature not online"', async () => {
    const missing = ROUTES.filter((r) => !r.plain && !(r.online && pageModule(SHELL_PAGE_MODULES, r.page))).map(
      (r) => r.path,
    );
    expect(missing).toEqual([]);
    // The fallback stays for a route a later release adds before its page: the not-online page.
    const fallback = await shellPageLoader({ path: '/later', title: 'help' } as RouteDef)();
    expect(fallback.default).toBe(NotOnlinePage);
  });

  it('follows an alias to its page inside the shell', async () => {
    signIn([Perm.report, Perm.reportQrcodeEvent]);
    const { router, tree } = renderApp('/qrcode_event');
    render(tree);
    await screen.findByTestId('qrcode-group');
    expect(router.state.location.pathname).toBe('/report/qrcodeEvent');
    expect(screen.getByTestId('main-layout')).toBeTruthy();
  });

  it('sends a route without permission to 404', async () => {
    signIn();
    const { router, tree } = renderApp('/user');
    render(tree);
    await screen.findByTestId('not-found');
    expect(router.state.location.pathname).toBe('/404');
  });

  it('shows the error page for /{status}', async () => {
    const { tree } = renderApp('/503');
    render(tree);
    const page = await screen.findByTestId('error-page');
    expect(page.getAttribute('data-status')).toBe('503');
    expect(page.textContent).toContain('Service unavailable');
  });

  it('redirects the fallback-locale prefix to the unprefixed path', async () => {
    storeLocale('zh-CN');
    try {
      const { router, tree } = renderApp('/zh-CN/login');
      render(tree);
      await screen.findByTestId('login-page');
      expect(router.state.location.pathname).toBe('/login');
    } finally {
      storeLocale('en-US');
    }
  });

  it('renders the home page from the session: greeting, account, sections', async () => {
    signIn();
    const { tree } = renderApp('/');
    render(tree);
    const home = await screen.findByTestId('home-page');
    expect(home.textContent).toContain('Ada Admin');
    expect(home.textContent).toContain('Head office');
    expect(home.textContent).toContain('entadmin');
    expect(home.textContent).toContain('Good to see you');
    const link = screen.getByRole('link', { name: 'Device details' });
    expect(link.getAttribute('href')).toBe('/device/context');
  });

  it('the skin page applies a skin at once and keeps it in the session', async () => {
    signIn([Perm.device]);
    const { tree } = renderApp('/skin');
    render(tree);
    const dark = await screen.findByTestId('skin-option-4');
    fireEvent.click(dark);
    expect(useSession.getState().skin).toBe(4);
    expect(document.body.classList.contains('theme-4')).toBe(true);
    await waitFor(() => expect(dark.getAttribute('aria-checked')).toBe('true'));
    // The chosen card says 'Current' once (issue 25: its title and its description both did).
    expect(dark.textContent?.match(/Current/g)).toHaveLength(1);
    expect(dark.textContent).toContain('Applied to every page');
    expect(screen.getByTestId('skin-option-1').textContent).toContain('Use this skin');
  });
});

describe('login page', () => {
  it('validates with the protocol rules in the user language', async () => {
    const { tree } = renderApp('/login');
    render(tree);
    await screen.findByTestId('login-page');
    fireEvent.change(screen.getByTestId('login-account'), { target: { value: 'ab' } });
    fireEvent.change(screen.getByTestId('login-password'), { target: { value: '123' } });
    fireEvent.click(screen.getByTestId('login-submit'));
    expect(
      await screen.findByText('The login account has 6 to 32 characters: letters, digits and underscores only'),
    ).toBeTruthy();
    expect(await screen.findByText('The password has at least 6 characters')).toBeTruthy();
  });

  it("shows the server's message when the login fails", async () => {
    const calls = fakeServer({ login: () => ({ code: -10006, message: 'Wrong account or password' }) });
    const { tree } = renderApp('/login');
    render(tree);
    await screen.findByTestId('login-page');
    fireEvent.change(screen.getByTestId('login-account'), { target: { value: 'entadmin' } });
    fireEvent.change(screen.getByTestId('login-password'), { target: { value: 'not-the-password' } });
    fireEvent.click(screen.getByTestId('login-submit'));
    const error = await screen.findByTestId('login-error');
    expect(error.textContent).toContain('Wrong account or password');
    expect(calls).toEqual([{ name: 'login', data: { loginName: 'entadmin', password: 'not-the-password' } }]);
    expect(useSession.getState().token).toBe('');
  });

  it('logs in, goes where the user was heading, and warns about a weak password', async () => {
    fakeServer({ ...shellAnswers, login: () => ({ code: 0, payload: loginResponse({ weakPassword: true }) }) });
    const { router, tree } = renderApp(`/login?redirect=${encodeURIComponent('/device/context')}`);
    render(tree);
    await screen.findByTestId('login-page');
    fireEvent.change(screen.getByTestId('login-account'), { target: { value: 'entadmin' } });
    fireEvent.change(screen.getByTestId('login-password'), { target: { value: 'Marquee@2026' } });
    await act(async () => {
      fireEvent.click(screen.getByTestId('login-submit'));
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/device/context'));
    expect(useSession.getState()).toMatchObject({ token: 'tok-1', loginout: false, userName: 'Ada Admin' });
    expect((await screen.findAllByText('Your password is weak')).length).toBeGreaterThan(0);
  });

  it("says 'feature not online' for a scan method the server has not configured", async () => {
    fakeServer({ oauthStart: () => ({ code: -10022, message: 'Feature not online' }) });
    const { tree } = renderApp('/login');
    render(tree);
    await screen.findByTestId('login-page');
    fireEvent.click(screen.getByRole('tab', { name: 'WeChat scan' }));
    expect(await screen.findByText('WeChat scan: feature not online')).toBeTruthy();
  });
});
