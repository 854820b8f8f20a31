import { ADVERTISER_ROLE_CODES, ALL_PERMISSION_CODES, BUILTIN_NAMES, Perm } from '@marquee/protocol';
import { hashPassword } from '../auth/passwords.js';
import type { Executor } from '../db/client.js';
import { createAccount } from '../modules/accounts/service.js';
import { insertDepartment } from '../modules/dept/repository.js';
import { insertEnterprise } from '../modules/enterprise/repository.js';
import { createMonitorApplication, createNotice } from '../modules/notice/service.js';
import { createRole } from '../modules/roles/repository.js';
import { seedAccess } from './access.js';
import { DEMO_PASSWORD } from './demoLogins.js';
import { seedOplogDemo } from './oplog.js';
import { seedOrgDemo } from './org.js';
import { seedTemplates } from './templates.js';

/** Department staff: devices, reports, own pages and help; no user, operate, market or allocation. */
export const DEPT_STAFF_CODES: readonly string[] = [
  Perm.device,
  Perm.deviceContext,
  Perm.deviceGroup,
  Perm.devicePlaylist,
  Perm.deviceScreenshot,
  Perm.deviceTags,
  Perm.report,
  Perm.reportDevice,
  Perm.reportAd,
  Perm.my,
  Perm.help,
  Perm.helpDownload,
  Perm.helpFile,
  Perm.deptSwitch,
  Perm.notice,
  Perm.subDeptList,
];

export const MONITOR_CODES: readonly string[] = [
  Perm.operate,
  Perm.operateAdMonitor,
  Perm.operateMonitorTask,
  Perm.report,
  Perm.reportAd,
  Perm.my,
  Perm.notice,
];

// A small inline picture, so the demo notices render images without network access.
const CHART_SVG =
  "data:image/svg+xml;utf8,<svg xmlns='http://www.w3.org/2000/svg' width='640' height='200'>" +
  "<rect width='640' height='200' fill='%23f0f5ff'/><rect x='40' y='120' width='80' height='60' fill='%231677ff'/>" +
  "<rect x='160' y='80' width='80' height='100' fill='%231677ff'/><rect x='280' y='50' width='80' height='130' fill='%231677ff'/>" +
  "<rect x='400' y='30' width='80' height='150' fill='%2352c41a'/><text x='40' y='30' font-size='20'>Plays per week</text></svg>";

const minutesAgo = (now: Date, minutes: number) => new Date(now.getTime() - minutes * 60_000);

type EnterpriseInput = Parameters<typeof insertEnterprise>[1];
type AccountInput = Omit<Parameters<typeof createAccount>[1], 'password' | 'passwordHash'>;

/**
 * An enterprise with its head department, its built-in administrator role (every permission,
 * department and below) and its administrator account: how every demo tenant starts.
 */
async function seedTenant(
  db: Executor,
  account: (input: AccountInput) => ReturnType<typeof createAccount>,
  input: {
    enterprise: EnterpriseInput;
    headDept: string;
    adminRole: 'platform_operator' | 'enterprise_admin';
    admin: Omit<AccountInput, 'entId' | 'deptIds' | 'roleIds' | 'isEntAdmin'>;
  },
) {
  const ent = await insertEnterprise(db, input.enterprise);
  const head = await insertDepartment(db, { entId: ent.id, name: input.headDept });
  const adminRole = await createRole(db, {
    entId: ent.id,
    name: BUILTIN_NAMES[input.adminRole]['en-US'],
    type: 'admin',
    dataScope: 'dept_and_below',
    permissionCodes: ALL_PERMISSION_CODES,
    builtin: true,
    builtinKey: input.adminRole,
  });
  const admin = await account({
    ...input.admin,
    entId: ent.id,
    isEntAdmin: true,
    deptIds: [head.id],
    roleIds: [adminRole.id],
  });
  return { ent, head, adminRole, admin };
}

/** Creates the demo tenants, accounts and notices. Run once, inside the seed transaction. */
export async function seedDemo(db: Executor, now = new Date()): Promise<void> {
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const account = (input: AccountInput) => createAccount(db, { ...input, password: DEMO_PASSWORD, passwordHash });

  // The platform provider and its operator.
  await seedTenant(db, account, {
    enterprise: {
      kind: 'provider',
      name: 'Marquee Platform',
      socialCreditCode: '91310000MA1PROVID',
      welcomeSpeech: 'Welcome to the Marquee operations console',
    },
    headDept: 'Operations',
    adminRole: 'platform_operator',
    admin: { loginName: 'operator', realName: 'Platform Operator' },
  });

  // The demo enterprise: three-level department tree and one account per role.
  const {
    ent: demo,
    head: hq,
    admin: entadmin,
  } = await seedTenant(db, account, {
    enterprise: {
      kind: 'enterprise',
      name: 'Demo Media Co., Ltd.',
      socialCreditCode: '91310000MA1DEMO001',
      welcomeSpeech: 'Welcome back to Demo Media: every screen, one console.',
    },
    headDept: 'Headquarters',
    adminRole: 'enterprise_admin',
    admin: {
      loginName: 'entadmin',
      realName: 'Demo Administrator',
      phone: '13800000001',
      email: 'admin@demo-media.example',
    },
  });
  const east = await insertDepartment(db, { entId: demo.id, parentId: hq.id, name: 'East Region', sort: 1 });
  const south = await insertDepartment(db, { entId: demo.id, parentId: hq.id, name: 'South Region', sort: 2 });
  await insertDepartment(db, { entId: demo.id, parentId: east.id, name: 'Shanghai Store', sort: 1 });
  await insertDepartment(db, { entId: demo.id, parentId: east.id, name: 'Hangzhou Store', sort: 2 });
  await insertDepartment(db, { entId: demo.id, parentId: south.id, name: 'Shenzhen Store', sort: 1 });

  const staffRole = await createRole(db, {
    entId: demo.id,
    name: 'Department staff',
    type: 'staff',
    deptId: hq.id,
    dataScope: 'dept_and_below',
    permissionCodes: DEPT_STAFF_CODES,
  });
  const advertiserRole = await createRole(db, {
    entId: demo.id,
    name: BUILTIN_NAMES.advertiser['en-US'],
    type: 'advertiser',
    dataScope: 'self',
    permissionCodes: ADVERTISER_ROLE_CODES,
    builtinKey: 'advertiser',
  });
  await account({
    entId: demo.id,
    loginName: 'deptstaff',
    realName: 'Lin Wei',
    phone: '13800000002',
    deptIds: [east.id, south.id],
    roleIds: [staffRole.id],
  });
  await account({
    entId: demo.id,
    loginName: 'advertiser',
    realName: 'Bright Drinks Marketing',
    accountType: 'individual',
    deptIds: [east.id],
    roleIds: [advertiserRole.id],
  });

  // A third-party monitoring company whose user asks to monitor Demo Media.
  const monitorEnt = await insertEnterprise(db, {
    kind: 'enterprise',
    name: 'Citywide Ad Monitoring Ltd.',
    socialCreditCode: '91310000MA1MONIT01',
    welcomeSpeech: 'Independent proof of play for outdoor media',
  });
  const monitorDept = await insertDepartment(db, { entId: monitorEnt.id, name: 'Monitoring' });
  const monitorRole = await createRole(db, {
    entId: monitorEnt.id,
    name: 'Third-party monitor',
    type: 'monitor',
    dataScope: 'self',
    permissionCodes: MONITOR_CODES,
  });
  const monitor = await account({
    entId: monitorEnt.id,
    loginName: 'monitor',
    realName: 'Citywide Monitor',
    thirdMonitor: true,
    deptIds: [monitorDept.id],
    roleIds: [monitorRole.id],
  });

  // Another enterprise, to show that tenants do not see each other.
  const { ent: other } = await seedTenant(db, account, {
    enterprise: {
      kind: 'enterprise',
      name: 'Other Outdoor Media Ltd.',
      socialCreditCode: '91440300MA5OTHER01',
      welcomeSpeech: 'Other Outdoor Media console',
    },
    headDept: 'Head Office',
    adminRole: 'enterprise_admin',
    admin: { loginName: 'otheradmin', realName: 'Other Administrator' },
  });

  // Notices: platform-wide from the provider, the demo enterprise's own, one system notice.
  await createNotice(db, {
    entId: null,
    title: 'Marquee 2026.1 is live',
    content:
      '<h3>What is new</h3><ul><li>Faster screenshot history</li><li>Department switching in the header</li>' +
      `<li>Weekly play charts</li></ul><p><img src="${CHART_SVG}" alt="Plays per week"></p>`,
    createdBy: null,
    createdAt: minutesAgo(now, 60 * 24 * 6),
  });
  await createNotice(db, {
    entId: null,
    title: 'Scheduled maintenance on Sunday 02:00-04:00',
    content: '<p>Devices keep playing their schedules; the console is read-only during the window.</p>',
    createdAt: minutesAgo(now, 60 * 24 * 3),
  });
  await createNotice(db, {
    entId: demo.id,
    title: 'New ad review rules from next month',
    content:
      '<p>Ads with <strong>medical or financial claims</strong> now need a licence scan.</p>' +
      '<p>Review takes 1 to 3 days.</p>',
    createdBy: entadmin.id,
    createdAt: minutesAgo(now, 60 * 24),
  });
  await createNotice(db, {
    entId: demo.id,
    title: 'Quarterly screen inspection report',
    // The script is removed on write: stored notice HTML is always sanitised.
    content: `<p>All 48 screens passed inspection.</p><p><img src="${CHART_SVG}" alt="Inspection chart"></p><script>alert(1)</script>`,
    createdBy: entadmin.id,
    createdAt: minutesAgo(now, 90),
  });
  await createMonitorApplication(db, {
    entId: demo.id,
    applicantAccountId: monitor.id,
    title: 'Citywide Ad Monitoring asks to monitor your screens',
    content:
      '<p><strong>Citywide Ad Monitoring Ltd.</strong> would like to verify proof of play on your screens ' +
      'for its advertiser clients. Agree to let its monitor account see your play reports.</p>',
    createdAt: minutesAgo(now, 30),
  });
  await createNotice(db, {
    entId: other.id,
    title: 'Welcome to Marquee',
    content: '<p>Your enterprise console is ready.</p>',
    createdAt: minutesAgo(now, 60),
  });

  // No station letters: the system writes them from facts (modules/stationLetter/rules.ts).
  await seedTemplates(db, demo.id, now);
  await seedOrgDemo(db, now);
  await seedOplogDemo(db, now);
  await seedAccess(db);
}
