import { ErrorCode, ROUTES } from '@marquee/protocol';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { decideNavigation } from '../src/session/guards';
import { useSession } from '../src/session/session';
import { fakeServer, loginResponse, renderApp, setUpConsoleTests, shellAnswers } from './harness';

vi.setConfig({ testTimeout: 30_000 });

// Lazy pages compile in the test run: the wait covers their first visit.
setUpConsoleTests({ asyncUtilTimeout: 6000, answers: shellAnswers });

async function openLogin(path = '/login') {
  const app = renderApp(path);
  render(app.tree);
  await screen.findByTestId('login-page');
  return app;
}

describe('verification-code login', () => {
  it('sends a code, counts down, and logs in with it', async () => {
    const calls = fakeServer({
      ...shellAnswers,
      codeSend: () => ({ code: 0, payload: { expiresIn: 300, resendIn: 60 } }),
      codeLogin: () => ({ code: 0, payload: loginResponse() }),
    });
    const { router } = await openLogin();
    fireEvent.click(screen.getByTestId('login-tab-phone'));
    fireEvent.click(screen.getByTestId('login-send-code'));
    expect(await screen.findByText('This field is required')).toBeTruthy();
    fireEvent.change(screen.getByTestId('login-phone'), { target: { value: '138 0000 0001' } });
    await act(async () => {
      fireEvent.click(screen.getByTestId('login-send-code'));
    });
    await waitFor(() => expect(screen.getByTestId('login-send-code').textContent).toMatch(/Again in \d+ s/));
    expect((screen.getByTestId('login-send-code') as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(screen.getByTestId('login-code'), { target: { value: '12a3456' } });
    expect((screen.getByTestId('login-code') as HTMLInputElement).value).toBe('123456');
    await act(async () => {
      fireEvent.click(screen.getByTestId('login-code-submit'));
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(
      calls.filter((c) => c.name !== 'stationLetterList' && c.name !== 'noticeList' && c.name !== 'deptUserList'),
    ).toEqual([
      { name: 'codeSend', data: { purpose: 'login', target: '138 0000 0001' } },
      { name: 'codeLogin', data: { target: '138 0000 0001', code: '123456' } },
    ]);
    expect(useSession.getState().token).toBe('tok-1');
  });

  it("says 'not registered, register first' with the register link", async () => {
    fakeServer({
      codeSend: () => ({ code: ErrorCode.NOT_REGISTERED, message: 'Not registered. Please register first' }),
    });
    await openLogin();
    fireEvent.click(screen.getByTestId('login-tab-phone'));
    fireEvent.change(screen.getByTestId('login-phone'), { target: { value: '13900000000' } });
    fireEvent.click(screen.getByTestId('login-send-code'));
    const error = await screen.findByTestId('login-phone-error');
    expect(error.textContent).toContain('Not registered. Please register first');
    expect(screen.getByTestId('login-phone-register').getAttribute('href')).toBe('/login/register');
  });
});

describe('password retrieval', () => {
  it('checks the fields with the shared rules, resets, and comes back to the account form', async () => {
    const calls = fakeServer({
      codeSend: () => ({ code: 0, payload: { expiresIn: 300, resendIn: 60 } }),
      passwordReset: () => ({ code: 0, payload: null }),
    });
    await openLogin();
    fireEvent.click(screen.getByTestId('login-forgot'));
    await screen.findByTestId('forgot-form');
    fireEvent.change(screen.getByTestId('forgot-target'), { target: { value: 'admin@example.com' } });
    await act(async () => {
      fireEvent.click(screen.getByTestId('forgot-send-code'));
    });
    fireEvent.change(screen.getByTestId('forgot-code'), { target: { value: '654321' } });
    fireEvent.change(screen.getByTestId('forgot-password'), { target: { value: 'weak' } });
    fireEvent.change(screen.getByTestId('forgot-confirm'), { target: { value: 'other' } });
    fireEvent.click(screen.getByTestId('forgot-submit'));
    expect((await screen.findAllByText('The password must have 10 to 15 characters')).length).toBe(1);
    expect(screen.getByText('The passwords do not match')).toBeTruthy();
    fireEvent.change(screen.getByTestId('forgot-password'), { target: { value: 'Strong#Pass12' } });
    fireEvent.change(screen.getByTestId('forgot-confirm'), { target: { value: 'Strong#Pass12' } });
    await act(async () => {
      fireEvent.click(screen.getByTestId('forgot-submit'));
    });
    expect((await screen.findByTestId('login-notice')).textContent).toContain('Your password was changed');
    expect(screen.getByTestId('login-account')).toBeTruthy();
    expect(calls.at(-1)).toEqual({
      name: 'passwordReset',
      data: {
        target: 'admin@example.com',
        code: '654321',
        password: 'Strong#Pass12',
        confirmPassword: 'Strong#Pass12',
      },
    });
  });
});

describe('scan login', () => {
  it('shows a QR code of the authorization URL, polls, and logs in when the scan is confirmed', async () => {
    let polls = 0;
    const calls = fakeServer({
      ...shellAnswers,
      oauthStart: () => ({
        code: 0,
        payload: { state: 'st.sig', authorizeUrl: 'https://open.example/authorize?state=st.sig', expiresIn: 300 },
      }),
      oauthPoll: () => ({ code: 0, payload: { status: ++polls < 2 ? 'pending' : 'ready' } }),
      oauthLogin: () => ({ code: 0, payload: loginResponse() }),
    });
    const { router } = await openLogin();
    fireEvent.click(screen.getByTestId('login-tab-wechat'));
    const qr = await screen.findByTestId('scan-qr');
    expect(qr.getAttribute('src')).toMatch(/^data:image\/svg\+xml/);
    expect(qr.getAttribute('data-url')).toBe('https://open.example/authorize?state=st.sig');
    await waitFor(() => expect(calls.map((c) => c.name)).toContain('oauthLogin'), { timeout: 8000 });
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(calls.filter((c) => c.name.startsWith('oauth')).map((c) => c.name)).toEqual([
      'oauthStart',
      'oauthPoll',
      'oauthPoll',
      'oauthLogin',
    ]);
  });

  it("says 'not registered, register first' when no account is bound", async () => {
    fakeServer({
      oauthStart: () => ({
        code: 0,
        payload: { state: 's.t', authorizeUrl: 'https://open.example/a', expiresIn: 300 },
      }),
      oauthPoll: () => ({ code: 0, payload: { status: 'unbound' } }),
    });
    await openLogin();
    fireEvent.click(screen.getByTestId('login-tab-dingtalk'));
    const message = await screen.findByTestId('scan-message', {}, { timeout: 8000 });
    expect(message.textContent).toContain('This WeChat or DingTalk account is not registered. Please register first');
    expect(screen.getByTestId('scan-register').getAttribute('href')).toBe('/login/register');
  });
});

describe('forced password change (updatePwd)', () => {
  const ctx = { loggedIn: true, permissions: [], locale: 'en-US' as const };
  it('keeps an account that must change its password on the change page', () => {
    expect(decideNavigation('/device', '', { ...ctx, updatePwd: true })).toEqual({
      action: 'redirect',
      to: '/changePassword',
    });
    expect(decideNavigation('/', '', { ...ctx, updatePwd: true })).toEqual({
      action: 'redirect',
      to: '/changePassword',
    });
    expect(decideNavigation('/changePassword', '', { ...ctx, updatePwd: true })).toMatchObject({ action: 'render' });
    expect(decideNavigation('/changePassword', '', { ...ctx, loggedIn: false })).toEqual({
      action: 'redirect',
      to: '/login',
    });
    expect(decideNavigation('/skin', '', { ...ctx, updatePwd: false })).toMatchObject({ action: 'render' });
  });

  it('goes to the change page after a login with updatePwd, and home after the change', async () => {
    fakeServer({
      ...shellAnswers,
      login: () => ({ code: 0, payload: loginResponse({ updatePwd: true }) }),
      changePassword: () => ({ code: 0, payload: null }),
      authInfo: () => ({ code: 0, payload: { ...loginResponse(), updatePwd: false } }),
    });
    const { router } = await openLogin();
    fireEvent.change(screen.getByTestId('login-account'), { target: { value: 'entadmin' } });
    fireEvent.change(screen.getByTestId('login-password'), { target: { value: 'Marquee@2026' } });
    await act(async () => {
      fireEvent.click(screen.getByTestId('login-submit'));
    });
    await screen.findByTestId('change-password-page');
    expect(router.state.location.pathname).toBe('/changePassword');
    await act(async () => {
      await router.navigate('/device');
    });
    expect(router.state.location.pathname).toBe('/changePassword');
    fireEvent.change(screen.getByTestId('change-old'), { target: { value: 'Marquee@2026' } });
    fireEvent.change(screen.getByTestId('change-password'), { target: { value: 'Strong#Pass12' } });
    fireEvent.change(screen.getByTestId('change-confirm'), { target: { value: 'Strong#Pass12' } });
    await act(async () => {
      fireEvent.click(screen.getByTestId('change-submit'));
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(useSession.getState().updatePwd).toBe(false);
  });
});

describe('registration', () => {
  it('registers a company with a code to the phone and logs the new administrator in', async () => {
    const calls = fakeServer({
      ...shellAnswers,
      codeSend: () => ({ code: 0, payload: { expiresIn: 300, resendIn: 60 } }),
      register: () => ({ code: 0, payload: loginResponse({ loginName: 'sunrise_admin' }) }),
    });
    const { router, tree } = renderApp('/login/register');
    render(tree);
    await screen.findByTestId('register-form');
    const fill = (id: string, value: string) => fireEvent.change(screen.getByTestId(id), { target: { value } });
    fill('register-company', '12345');
    fill('register-credit-code', '91310000MA1SUNRISE');
    fill('register-account', 'sunrise_admin');
    fill('register-password', 'Sunrise#2026x');
    fill('register-confirm', 'Sunrise#2026y');
    fill('register-phone', '13712345678');
    await act(async () => {
      fireEvent.click(screen.getByTestId('register-send-code'));
    });
    await waitFor(() => expect(screen.getByTestId('register-send-code').textContent).toMatch(/Again in \d+ s/));
    fill('register-code', '123456');
    await act(async () => {
      fireEvent.click(screen.getByTestId('register-submit'));
    });
    expect(
      await screen.findByText('The enterprise name has more than 4 characters and is not only digits'),
    ).toBeTruthy();
    expect(screen.getByText('The passwords do not match')).toBeTruthy();
    fill('register-company', 'Sunrise Screens Ltd');
    fill('register-confirm', 'Sunrise#2026x');
    await act(async () => {
      fireEvent.click(screen.getByTestId('register-submit'));
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(calls.find((c) => c.name === 'register')?.data).toEqual({
      companyName: 'Sunrise Screens Ltd',
      socialCreditCode: '91310000MA1SUNRISE',
      loginName: 'sunrise_admin',
      password: 'Sunrise#2026x',
      confirmPassword: 'Sunrise#2026x',
      phone: '13712345678',
      code: '123456',
    });
    expect(calls.find((c) => c.name === 'codeSend')?.data).toEqual({ purpose: 'register', target: '13712345678' });
  });

  it('registers through an invitation: shows the enterprise, accepts, and returns to login with the account', async () => {
    const calls = fakeServer({
      invitationInspect: () => ({
        code: 0,
        payload: {
          enterpriseName: 'Demo Media Co., Ltd.',
          deptName: 'East Region',
          roleName: null,
          expiresAt: '2030-01-01',
        },
      }),
      invitationAccept: () => ({ code: 0, payload: { loginName: 'iris_invitee' } }),
    });
    const { router, tree } = renderApp('/login/register?invite=tok.sig');
    render(tree);
    expect((await screen.findByTestId('invite-enterprise')).textContent).toBe('Demo Media Co., Ltd.');
    const fill = (id: string, value: string) => fireEvent.change(screen.getByTestId(id), { target: { value } });
    fill('invite-account', 'iris_invitee');
    fill('invite-real-name', 'Iris Invitee');
    fill('invite-password', 'Invitee#2026x');
    fill('invite-confirm', 'Invitee#2026x');
    await act(async () => {
      fireEvent.click(screen.getByTestId('invite-submit'));
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect((await screen.findByTestId('login-notice')).textContent).toContain('Your account was created');
    expect((screen.getByTestId('login-account') as HTMLInputElement).value).toBe('iris_invitee');
    expect(calls.find((c) => c.name === 'invitationAccept')?.data).toEqual({
      token: 'tok.sig',
      loginName: 'iris_invitee',
      realName: 'Iris Invitee',
      password: 'Invitee#2026x',
      phone: '',
    });
  });
});

describe('route table', () => {
  it('has the access pages online', () => {
    for (const path of ['/login/register', '/wechatLogin', '/dingTalkLogin', '/changePassword', '/my', '/dev/outbox']) {
      expect(ROUTES.find((r) => r.path === path)?.online, path).toBe(true);
    }
  });
});
