/**
 * The demo logins: the one list the start-up banner prints and the README's table shows
 * (apps/server/test/seed.test.ts fails when they differ and logs each one in).
 */

/** The password of every demo account. */
export const DEMO_PASSWORD = 'Marquee@2026';

export interface DemoLogin {
  /** Who the account is, as the banner and the README say it. */
  role: string;
  account: string;
  password: string;
}

export const DEMO_LOGINS: readonly DemoLogin[] = [
  { role: 'platform operator', account: 'operator', password: DEMO_PASSWORD },
  { role: 'enterprise administrator', account: 'entadmin', password: DEMO_PASSWORD },
  { role: 'department staff', account: 'deptstaff', password: DEMO_PASSWORD },
  { role: 'advertiser', account: 'advertiser', password: DEMO_PASSWORD },
  { role: 'third-party monitor', account: 'monitor', password: DEMO_PASSWORD },
  { role: 'administrator of a second enterprise', account: 'otheradmin', password: DEMO_PASSWORD },
  { role: 'administrator of an agency', account: 'agentadmin', password: DEMO_PASSWORD },
  {
    role: 'sales staff who sees only the advertisers assigned to them',
    account: 'adsales',
    password: DEMO_PASSWORD,
  },
];

/** The banner's table of the demo logins, one line each. */
export function demoLoginLines(): string[] {
  const width = Math.max('Role'.length, ...DEMO_LOGINS.map((l) => l.role.length));
  const accountWidth = Math.max('Account'.length, ...DEMO_LOGINS.map((l) => l.account.length));
  return [
    `  ${'Role'.padEnd(width)}  ${'Account'.padEnd(accountWidth)}  Password`,
    ...DEMO_LOGINS.map((l) => `  ${l.role.padEnd(width)}  ${l.account.padEnd(accountWidth)}  ${l.password}`),
  ];
}
