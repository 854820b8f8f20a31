import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ENTERPRISE_ADMIN_CODES, endpoints, type Notice, Perm } from '@marquee/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enterprises } from '../src/db/schema/index.js';
import { DEMO_LOGINS, DEMO_PASSWORD, demoLoginLines, seedIfNeeded } from '../src/seed/index.js';
import { BACKENDS, createTestApp, type TestApp } from './helpers/index.js';

describe('demo logins: one list for the start-up banner and the README', () => {
  it('README shows the same table as the banner prints', () => {
    const readme = readFileSync(join(import.meta.dirname, '../../../README.md'), 'utf8');
    // The table under the header "| role | account | password |", up to the first line that is not a row.
    const table = readme.slice(readme.indexOf('| role | account | password |')).split('\n').slice(2);
    const rows = table
      .slice(
        0,
        table.findIndex((line) => !line.startsWith('|')),
      )
      .map((line) => line.split('|').map((cell) => cell.trim()))
      .map(([, role, account, password]) => ({ role, account, password }));
    expect(rows).toEqual(DEMO_LOGINS.map((l) => ({ ...l })));
    const banner = demoLoginLines();
    expect(banner).toHaveLength(DEMO_LOGINS.length + 1);
    for (const [i, login] of DEMO_LOGINS.entries())
      expect(banner[i + 1]).toMatch(new RegExp(`${login.account}\\s+${login.password}$`));
  });
});

describe.each(BACKENDS)('demo seed on %s', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(backend);
    await seedIfNeeded(t.db);
  });
  afterAll(() => t.close());

  it('runs once', async () => {
    const before = await t.db.select().from(enterprises);
    expect(await seedIfNeeded(t.db)).toBe(false);
    expect(await t.db.select().from(enterprises)).toHaveLength(before.length);
  });

  it('lets every demo login in with the demo password', async () => {
    expect(DEMO_LOGINS.map((l) => l.account)).toEqual([
      'operator',
      'entadmin',
      'deptstaff',
      'advertiser',
      'monitor',
      'otheradmin',
      'agentadmin',
      'adsales',
    ]);
    for (const login of DEMO_LOGINS) {
      expect(login.password).toBe(DEMO_PASSWORD);
      const info = await t.client().login(login.account, login.password);
      expect(info.weakPassword).toBe(false);
    }
  });

  it('gives each role its permissions and departments', async () => {
    const operator = await t.client().login('operator', DEMO_PASSWORD);
    expect(operator.isYXF).toBe(true);
    // The development outbox (provider-only) stays with the platform operator.
    expect(operator.permissionList).toContain(Perm.devOutbox);
    const admin = await t.client().login('entadmin', DEMO_PASSWORD);
    expect(admin.isYXF).toBe(false);
    expect(admin.permissionList).toEqual([...ENTERPRISE_ADMIN_CODES].sort());
    expect(admin.welcomeSpeech).not.toBe('');

    const staff = t.client();
    const staffInfo = await staff.login('deptstaff', DEMO_PASSWORD);
    expect(staffInfo.permissionList).toContain(Perm.deptSwitch);
    for (const code of [Perm.user, Perm.operate, Perm.applicationMarket, Perm.appMarket, Perm.dataAllocation]) {
      expect(staffInfo.permissionList).not.toContain(code);
    }
    const depts = await staff.call(endpoints.deptUserList);
    expect(depts.envelope.payload.map((d: { label: string }) => d.label)).toEqual(['East Region', 'South Region']);
    // Letters come from facts: the seeded pending monitor application, and nothing about
    // storage or devices, which do not exist yet.
    const staffLetters: string[] = (await staff.call(endpoints.stationLetterList)).envelope.payload;
    expect(staffLetters.every((l) => /monitor/i.test(l))).toBe(true);
    const adminClient = t.client();
    await adminClient.login('entadmin', DEMO_PASSWORD);
    expect((await adminClient.call(endpoints.stationLetterList)).envelope.payload).toEqual([
      'Citywide Ad Monitoring Ltd. asks to monitor your screens: agree or refuse in Notices',
    ]);

    const monitor = await t.client().login('monitor', DEMO_PASSWORD);
    expect(monitor.thirdMonitorUser).toBe(true);
  });

  it('shows the demo enterprise its notices with a pending monitor application', async () => {
    const admin = t.client();
    await admin.login('entadmin', DEMO_PASSWORD);
    const res = await admin.call(endpoints.noticeList, {});
    const list: Notice[] = res.envelope.payload.data;
    expect(list.length).toBeGreaterThanOrEqual(5);
    expect(list.find((n) => n.type === 'system')?.monitorStatus).toBe('pending');
    expect(list.some((n) => n.content.includes('<img'))).toBe(true);
    expect(list.every((n) => !n.content.includes('<script'))).toBe(true);

    const other = t.client();
    await other.login('otheradmin', DEMO_PASSWORD);
    const theirs: Notice[] = (await other.call(endpoints.noticeList, {})).envelope.payload.data;
    expect(theirs.some((n) => n.type === 'system')).toBe(false);
  });
});
