import {
  CONSOLE_APP,
  DEFAULT_TOKEN,
  type LoginResponse,
  SEQUENCE_PATTERN,
  SIGNED_QUERY_FIELDS,
  type SignedQueryField,
  signCall,
} from '@marquee/protocol';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, call, dispositionFilename, download, prepareCall, setFetch } from '../src/api/client';
import { setErrorToast } from '../src/api/notify';
import { initI18n, storeLocale } from '../src/i18n';
import { setNavigator } from '../src/session/navigation';
import { DEVICE_ID_KEY, deviceId, initialSessionState, useSession } from '../src/session/session';

interface Captured {
  url: URL;
  init: RequestInit;
}

const requests: Captured[] = [];
let answer: () => Response;

function json(body: unknown, init: ResponseInit = {}): Response {
  return new Response(JSON.stringify(body), { headers: { 'Content-Type': 'application/json' }, ...init });
}

const toasts: string[] = [];
const navigations: string[] = [];
const realLogout = useSession.getState().logout;

beforeAll(async () => {
  storeLocale('en-US');
  await initI18n('en-US');
});

beforeEach(() => {
  requests.length = 0;
  toasts.length = 0;
  navigations.length = 0;
  useSession.setState({ ...initialSessionState(), logout: realLogout });
  setErrorToast((m) => toasts.push(m));
  setNavigator((to) => navigations.push(to));
  setFetch(async (input, init) => {
    requests.push({ url: new URL(String(input), 'http://console.test'), init: init ?? {} });
    return answer();
  });
});

afterEach(() => {
  setErrorToast(null);
  setNavigator(null);
});

function queryOf(captured: Captured): Record<string, string> {
  return Object.fromEntries(captured.url.searchParams);
}

function payloadOf(captured: Captured): string {
  return new URLSearchParams(String(captured.init.body)).get('payload') ?? '';
}

describe('the signed call (spec section 7)', () => {
  it('posts the form body to the endpoint path with a query the protocol verifies', async () => {
    answer = () => json({ code: 0, message: '', payload: null });
    await call('monitorApply', { noticeId: '  n-1  ', status: 1 });
    expect(requests).toHaveLength(1);
    const [req] = requests;
    expect(req.url.pathname).toBe('/api/notice/monitorApply.shtm');
    expect(req.init.method).toBe('POST');
    const headers = req.init.headers as Record<string, string>;
    expect(headers['Content-Type']).toMatch(/^application\/x-www-form-urlencoded/);
    expect(headers['user-id']).toBe('86');
    expect(headers.Platform).toBe('2');

    const query = queryOf(req);
    const payload = payloadOf(req);
    expect(JSON.parse(payload)).toEqual({ noticeId: 'n-1', status: 1 });
    expect(query.appid).toBe(CONSOLE_APP.appid);
    expect(query.token).toBe(DEFAULT_TOKEN);
    expect(query.language).toBe('en-US');
    expect(query.origin).toBe('new');
    expect(query.uuid).toBe(deviceId());
    expect(query.version).toBe(`1.3${query.timestamp}`);
    expect(Math.abs(Number(query.timestamp) - Date.now())).toBeLessThan(5000);
    expect(query.traceKey).toMatch(/^[0-9a-f]{32}$/);
    const fields = Object.fromEntries(SIGNED_QUERY_FIELDS.map((f) => [f, query[f]])) as Record<
      SignedQueryField,
      string
    >;
    expect(query.sign).toBe(signCall(CONSOLE_APP.key, fields, payload));
  });

  it('trims strings deeply and signs exactly what it sends', () => {
    const { payload, query } = prepareCall('deptChange', { deptId: ' d-7 \n' });
    expect(payload).toBe('{"deptId":"d-7"}');
    const { sign, ...fields } = query;
    expect(sign).toBe(signCall(CONSOLE_APP.key, fields, payload));
  });

  it('uses a new sequence for every call, in the documented format', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) seen.add(prepareCall('logout', {}).query.sequence);
    expect(seen.size).toBe(200);
    for (const sequence of seen) expect(sequence).toMatch(SEQUENCE_PATTERN);
  });

  it('sends the session token and user id once logged in', () => {
    useSession.setState({ token: 'tok-123', userId: 'u-9' });
    const { query, init } = prepareCall('authInfo', {});
    expect(query.token).toBe('tok-123');
    expect(init.headers['user-id']).toBe('u-9');
  });

  it('keeps one device id in localStorage', () => {
    const id = deviceId();
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(localStorage.getItem(DEVICE_ID_KEY)).toBe(id);
    expect(deviceId()).toBe(id);
  });
});

describe('answer codes (spec section 8)', () => {
  it('code 0 resolves with the payload', async () => {
    answer = () => json({ code: 0, message: 'ok', payload: ['letter one', 'letter two'] });
    await expect(call('stationLetterList', {})).resolves.toEqual(['letter one', 'letter two']);
    expect(toasts).toEqual([]);
  });

  it('-11004 and -10008 end the session and go to /login', async () => {
    for (const code of [-11004, -10008]) {
      const logout = vi.fn(async () => {});
      useSession.setState({ token: 'tok', logout });
      answer = () => json({ code, message: 'expired', payload: null });
      const error = await call('authInfo', {}).catch((e) => e);
      expect(error).toBeInstanceOf(ApiError);
      expect(error.code).toBe(code);
      expect(logout).toHaveBeenCalledTimes(1);
      expect(toasts).toEqual([]);
    }
  });

  it('logout on -11004 clears the session and navigates to /login', async () => {
    useSession.setState({ token: 'tok', userName: 'Ada', permissionList: ['a'] });
    answer = () => json({ code: -11004, message: 'expired', payload: null });
    await call('authInfo', {}).catch(() => {});
    // The logout call itself answers -11004 too: it must not loop.
    await vi.waitFor(() => expect(navigations).toContain('/login'));
    const s = useSession.getState();
    expect(s.token).toBe('');
    expect(s.userName).toBe('');
    expect(s.permissionList).toEqual([]);
    expect(s.loginout).toBe(true);
    expect(requests.map((r) => r.url.pathname)).toEqual(['/api/auth/info.shtm', '/api/auth/logout.shtm']);
  });

  it('other codes toast the server message and reject with ApiError', async () => {
    answer = () => json({ code: -10403, message: 'No permission, please contact business staff', payload: null });
    const error = await call('deptUserList', {}).catch((e) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: -10403, message: 'No permission, please contact business staff' });
    expect(toasts).toEqual(['No permission, please contact business staff']);
  });

  it("says 'Server Error【code】' when the server gives no message", async () => {
    answer = () => json({ code: -10500, message: '', payload: null });
    const error = await call('noticeList', { page: 1, size: 10, pushPlatform: 1 }).catch((e) => e);
    expect(error.message).toBe('Server Error【-10500】');
    expect(toasts).toEqual(['Server Error【-10500】']);
  });

  it('silent calls do not toast', async () => {
    answer = () => json({ code: -10006, message: 'Wrong account or password', payload: null });
    const error = await call('login', { loginName: 'someone', password: 'secret1' }, { silent: true }).catch((e) => e);
    expect(error.message).toBe('Wrong account or password');
    expect(toasts).toEqual([]);
  });

  it('HTTP status 400 or above goes to /{status}', async () => {
    answer = () => new Response('bad gateway', { status: 502 });
    const error = await call('authInfo', {}).catch((e) => e);
    expect(error).toMatchObject({ code: 502, kind: 'http' });
    expect(navigations).toEqual(['/502']);
  });

  it('a network failure toasts', async () => {
    setFetch(async () => {
      throw new TypeError('Failed to fetch');
    });
    const error = await call('authInfo', {}).catch((e) => e);
    expect(error).toMatchObject({ kind: 'network' });
    expect(toasts).toHaveLength(1);
  });

  it('setLogin stores what the login answer says', async () => {
    const res: LoginResponse = {
      id: 'acc-1',
      userId: 'u-1',
      entId: 'e-1',
      entName: 'Ada Media',
      homeEntId: 'e-1',
      userName: 'Ada',
      loginName: 'entadmin',
      deptId: 'd-1',
      deptName: 'HQ',
      welcomeSpeech: 'hello',
      logo: '',
      isYXF: false,
      openWxLogin: 'N',
      thirdMonitorUser: false,
      updatePwd: false,
      permissionList: ['yxf_new_device'],
      folderMenuList: [{ code: 'home', url: '/' }],
      token: 'tok-1',
      expiresIn: 3600,
      weakPassword: false,
    };
    answer = () => json({ code: 0, message: '', payload: res });
    const got = await call('login', { loginName: ' entadmin ', password: 'Marquee@2026' });
    expect(JSON.parse(payloadOf(requests[0]))).toEqual({ loginName: 'entadmin', password: 'Marquee@2026' });
    useSession.getState().setLogin(got);
    const s = useSession.getState();
    expect(s).toMatchObject({ token: 'tok-1', userId: 'u-1', loginout: false, deptName: 'HQ', password: '' });
    expect(s.navMenuList).toEqual([{ code: 'home', url: '/' }]);
    expect(s.can('yxf_new_device')).toBe(true);
    expect(s.can('yxf_new_user')).toBe(false);
    expect(s.can(undefined)).toBe(true);
  });
});

describe('downloads', () => {
  it('reads the file name from Content-Disposition', () => {
    expect(dispositionFilename('attachment; filename="report.xlsx"')).toBe('report.xlsx');
    expect(dispositionFilename("attachment; filename*=UTF-8''%E6%8A%A5%E8%A1%A8.xlsx")).toBe('报表.xlsx');
    expect(dispositionFilename('attachment; filename=plain.csv')).toBe('plain.csv');
    expect(dispositionFilename(null)).toBeUndefined();
  });

  it('saves the blob under the server name', async () => {
    const created: string[] = [];
    const clicked: string[] = [];
    URL.createObjectURL = vi.fn(() => 'blob:test');
    URL.revokeObjectURL = vi.fn();
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this.download);
    });
    answer = () =>
      new Response('a,b\n1,2', {
        headers: { 'Content-Type': 'text/csv', 'Content-Disposition': 'attachment; filename="devices.csv"' },
      });
    await expect(download('stationLetterList', {})).resolves.toBe('devices.csv');
    expect(clicked).toEqual(['devices.csv']);
    expect(created).toEqual([]);
    click.mockRestore();
  });

  it('a JSON answer to a download is an error: same toast', async () => {
    answer = () => json({ code: -10404, message: 'The requested data does not exist', payload: null });
    const error = await download('stationLetterList', {}).catch((e) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(toasts).toEqual(['The requested data does not exist']);
  });
});
