import { endpoints } from '@marquee/protocol';
import { callApi } from './lib.js';

const login = await callApi<{ token: string }>(18770, endpoints.login.path, {
  loginName: 'entadmin',
  password: 'Marquee@2026',
});
for (const status of [undefined, 'online', 'activating']) {
  const r = await callApi<{ total: number }>(
    18770,
    endpoints.deviceList.path,
    status ? { status } : {},
    login.payload.token,
  );
  console.log(status ?? 'all', r.payload?.total);
}
