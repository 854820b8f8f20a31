import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setFetch } from '../src/api/client';
import { setNavigator } from '../src/session/navigation';
import { initialSessionState, restoreSessionState, SESSION_STORAGE_KEY, useSession } from '../src/session/session';
import { useTabs } from '../src/shell/tabs/store';

const navigations: string[] = [];
const realLogout = useSession.getState().logout;

beforeEach(() => {
  navigations.length = 0;
  setNavigator((to) => navigations.push(to));
  useSession.setState({ ...initialSessionState(), logout: realLogout });
  localStorage.clear();
});

afterEach(() => setNavigator(null));

describe('saved session (spec section 3)', () => {
  it('restores the saved state over the defaults, never a password', () => {
    const raw = JSON.stringify({
      token: 't',
      userName: 'Ada',
      skin: 4,
      password: 'leaked',
      permissionList: ['a'],
      openWxLogin: 'Y',
      remeberPWD: true,
      bogus: 1,
    });
    const s = restoreSessionState(raw, 'ja');
    expect(s).toMatchObject({ token: 't', userName: 'Ada', skin: 4, password: '', openWxLogin: 'Y', remeberPWD: true });
    expect(s.loginout).toBe(false);
    expect(s.locale).toBe('ja');
    expect(s.locales).toEqual(['zh-CN', 'en-US', 'ja']);
    expect('bogus' in s).toBe(false);
  });

  it('falls back to the defaults for broken or mistyped data', () => {
    expect(restoreSessionState('{not json', 'zh-CN')).toEqual(initialSessionState());
    const s = restoreSessionState(JSON.stringify({ skin: 9, token: 42, permissionList: 'x' }), 'zh-CN');
    expect(s.skin).toBe(1);
    expect(s.token).toBe('');
    expect(s.permissionList).toEqual([]);
    expect(s.loginout).toBe(true);
  });

  it('has the defaults of the spec', () => {
    const s = initialSessionState();
    expect(s.skin).toBe(1);
    expect(s.locale).toBe('zh-CN');
    expect(s.locales).toEqual(['zh-CN', 'en-US', 'ja']);
    expect(s.loginout).toBe(true);
  });

  it('is saved to localStorage on beforeunload, without the password', () => {
    useSession.setState({ token: 'tok', userName: 'Ada', password: 'secret' });
    window.dispatchEvent(new Event('beforeunload'));
    const saved = JSON.parse(localStorage.getItem(SESSION_STORAGE_KEY) ?? '{}');
    expect(saved.token).toBe('tok');
    expect(saved.userName).toBe('Ada');
    expect(saved.password).toBe('');
    expect(typeof saved.logout).toBe('undefined');
  });

  it('setSkin applies the theme class at once and keeps it', () => {
    useSession.getState().setSkin(3);
    expect(useSession.getState().skin).toBe(3);
    expect(document.body.classList.contains('theme-3')).toBe(true);
    useSession.getState().setSkin(7);
    expect(useSession.getState().skin).toBe(1);
    expect(document.body.classList.contains('theme-3')).toBe(false);
  });

  it("follows a skin chosen in another tab (the saved session's storage event)", () => {
    useSession.getState().setSkin(1);
    const other = JSON.stringify({ token: 'other-tab', skin: 4 });
    window.dispatchEvent(new StorageEvent('storage', { key: SESSION_STORAGE_KEY, newValue: other }));
    expect(useSession.getState().skin).toBe(4);
    expect(document.body.classList.contains('theme-4')).toBe(true);
    // Only the skin follows: the other tab's token is not taken over.
    expect(useSession.getState().token).not.toBe('other-tab');
    for (const ignored of [
      { key: 'something-else', newValue: JSON.stringify({ skin: 2 }) },
      { key: SESSION_STORAGE_KEY, newValue: '{not json' },
      { key: SESSION_STORAGE_KEY, newValue: null },
      { key: SESSION_STORAGE_KEY, newValue: JSON.stringify({ token: 'x' }) },
    ]) {
      window.dispatchEvent(new StorageEvent('storage', ignored));
      expect(useSession.getState().skin).toBe(4);
    }
  });
});

describe('logout (spec section 4)', () => {
  it('calls auth.logout once, clears the session, closes all tabs and goes to /login', async () => {
    const calls: string[] = [];
    let release: () => void = () => {};
    setFetch(async (input) => {
      calls.push(new URL(String(input), 'http://x').pathname);
      await new Promise<void>((resolve) => {
        release = resolve;
      });
      return new Response(JSON.stringify({ code: 0, message: '', payload: null }));
    });
    const delAllViews = vi.spyOn(useTabs.getState(), 'delAllViews');
    useSession.setState({ token: 'tok', userName: 'Ada', loginName: 'ada_admin', remeberPWD: false, loginout: false });
    const first = useSession.getState().logout();
    const second = useSession.getState().logout();
    expect(second).toBe(first);
    await vi.waitFor(() => expect(calls).toHaveLength(1));
    release();
    await first;
    expect(calls).toEqual(['/api/auth/logout.shtm']);
    const s = useSession.getState();
    expect(s).toMatchObject({ token: '', userName: '', loginName: '', loginout: true });
    expect(delAllViews).toHaveBeenCalled();
    expect(navigations).toEqual(['/login']);
  });

  it('still clears the local session when the logout call fails, and keeps a remembered account', async () => {
    setFetch(async () => {
      throw new TypeError('Failed to fetch');
    });
    useSession.setState({ token: 'tok', loginName: 'ada_admin', remeberPWD: true, loginout: false });
    await useSession.getState().logout();
    expect(useSession.getState()).toMatchObject({ token: '', loginName: 'ada_admin', loginout: true });
    expect(navigations).toEqual(['/login']);
    // The in-progress flag is cleared: a later logout runs again.
    await useSession.getState().logout();
    expect(navigations).toEqual(['/login', '/login']);
  });
});
