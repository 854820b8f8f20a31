import { buildSignedCall, ErrorCode, endpoints, toQueryString } from '@marquee/protocol';
import { expect, test } from '@playwright/test';
import { apiCall, BASE_URL, loginApi } from '../fixtures/api.js';

test('history-mode fallback serves the console for a deep link, unknown API paths 404', async ({ request }) => {
  const page = await request.get(`${BASE_URL}/device/group`);
  expect(page.status()).toBe(200);
  expect(await page.text()).toContain('<div id="root">');
  const api = await request.get(`${BASE_URL}/api/nope.shtm`);
  expect(api.status()).toBe(404);
});

test('a signed login answers the session fields of the spec', async () => {
  const login = await loginApi('entadmin');
  for (const field of [
    'token',
    'thirdMonitorUser',
    'folderMenuList',
    'loginName',
    'id',
    'userId',
    'deptId',
    'deptName',
    'permissionList',
  ])
    expect(login).toHaveProperty(field);
});

test('a tampered payload is rejected with the bad-signature code', async ({ request }) => {
  const call = buildSignedCall(
    { loginName: 'entadmin', password: 'Marquee@2026' },
    {
      language: 'en-US',
      uuid: 'e2e',
      sequence: `tamper-${Date.now()}`,
      traceKey: 'tamper',
    },
  );
  const res = await request.post(`${BASE_URL}${endpoints.login.path}?${toQueryString(call.query)}`, {
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    data: call.body.replace('entadmin', 'operator'),
  });
  expect((await res.json()).code).toBe(ErrorCode.BAD_SIGNATURE);
});

test('logout revokes the token', async () => {
  const login = await loginApi('deptstaff');
  expect((await apiCall('noticeList', { page: 1, size: 10, pushPlatform: 1 }, { token: login.token })).code).toBe(0);
  expect((await apiCall('logout', {}, { token: login.token })).code).toBe(0);
  expect((await apiCall('noticeList', { page: 1, size: 10, pushPlatform: 1 }, { token: login.token })).code).toBe(
    ErrorCode.TOKEN_INVALID,
  );
});
