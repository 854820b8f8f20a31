import { Perm } from '@marquee/protocol';
import { and, eq } from 'drizzle-orm';
import { hashPassword } from '../auth/passwords.js';
import type { Executor } from '../db/client.js';
import { accounts, departments } from '../db/schema/index.js';
import { addAccountRoles } from '../modules/accounts/repository.js';
import { createAccount } from '../modules/accounts/service.js';
import { addAssignments, insertAdvertiser } from '../modules/advertisers/repository.js';
import { createAdvertiser } from '../modules/advertisers/service.js';
import { createRole } from '../modules/roles/repository.js';
import { insertOperationLog } from '../protocol/auditLog.js';
import { DEMO_PASSWORD } from './demoLogins.js';

const PASSWORD = DEMO_PASSWORD;

/**
 * Demo data of the operation log and advertiser pages: the demo advertiser plus five more,
 * a staff account 'adsales' with data scope 'self' who sees only the advertisers assigned to
 * it, the log reader role for 'deptstaff', and a few days of operation-log history.
 */
export async function seedOplogDemo(db: Executor, now: Date): Promise<void> {
  const byLogin = async (loginName: string) => {
    const [row] = await db
      .select({ id: accounts.id, entId: accounts.entId, deptId: accounts.currentDeptId })
      .from(accounts)
      .where(eq(accounts.loginName, loginName));
    return row;
  };
  const admin = await byLogin('entadmin');
  const staff = await byLogin('deptstaff');
  const advertiser = await byLogin('advertiser');
  if (!admin || !staff || !advertiser) return;
  const entId = admin.entId;
  const dept = async (name: string) => {
    const [row] = await db
      .select({ id: departments.id })
      .from(departments)
      .where(and(eq(departments.entId, entId), eq(departments.name, name)));
    return row.id;
  };
  const east = await dept('East Region');
  const south = await dept('South Region');
  const shanghai = await dept('Shanghai Store');
  const passwordHash = await hashPassword(PASSWORD);

  await insertAdvertiser(db, { accountId: advertiser.id, entId, createdBy: admin.id, createdAt: daysAgo(now, 30) });
  const more = [
    { loginName: 'adv_sunrise', realName: 'Sunrise Coffee', phone: '13900000011', deptId: east },
    { loginName: 'adv_greenleaf', realName: 'Greenleaf Tea House', phone: '13900000012', deptId: shanghai },
    { loginName: 'adv_citymotors', realName: 'City Motors', phone: '13900000013', deptId: south },
    { loginName: 'adv_bluewave', realName: 'Bluewave Telecom', phone: '13900000014', deptId: south },
    { loginName: 'adv_pixelgames', realName: 'Pixel Games Studio', phone: '13900000015', deptId: east },
  ];
  const ids: Record<string, string> = {};
  for (const a of more) {
    ids[a.loginName] = await createAdvertiser(db, {
      ...a,
      entId,
      password: PASSWORD,
      passwordHash,
      email: `${a.loginName}@example.com`,
      createdBy: admin.id,
    });
  }

  // A sales account that only sees the advertisers assigned to it (data scope 'self').
  const salesRole = await createRole(db, {
    entId,
    name: 'Advertiser sales',
    type: 'staff',
    deptId: south,
    dataScope: 'self',
    permissionCodes: [Perm.user, Perm.userAdv, Perm.report, Perm.reportOperationLog, Perm.my, Perm.help, Perm.notice],
  });
  const sales = await createAccount(db, {
    entId,
    loginName: 'adsales',
    realName: 'Zhao Min',
    phone: '13800000005',
    password: PASSWORD,
    passwordHash,
    deptIds: [south],
    roleIds: [salesRole.id],
  });
  // Department staff may read the operation log of their department.
  const logRole = await createRole(db, {
    entId,
    name: 'Operation log reader',
    type: 'staff',
    dataScope: 'dept_only',
    permissionCodes: [Perm.report, Perm.reportOperationLog],
  });
  await addAccountRoles(db, entId, staff.id, [logRole.id]);

  await addAssignments(db, entId, [ids.adv_citymotors, ids.adv_bluewave], [sales.id]);
  await addAssignments(db, entId, [advertiser.id, ids.adv_sunrise], [staff.id]);

  // A few days of history so the log page has something to show.
  const history: [string, string, string, string, string | undefined, string, number][] = [
    ['entadmin', 'auth', 'login', 'account', admin.id, 'entadmin', 60 * 24 * 3],
    ['entadmin', 'advertiser', 'add', 'account', ids.adv_sunrise, 'adv_sunrise', 60 * 24 * 3 - 5],
    ['entadmin', 'advertiser', 'add', 'account', ids.adv_greenleaf, 'adv_greenleaf', 60 * 24 * 3 - 6],
    ['entadmin', 'advertiser', 'assign', 'account', ids.adv_citymotors, 'adv_citymotors', 60 * 24 * 3 - 9],
    ['deptstaff', 'auth', 'login', 'account', staff.id, 'deptstaff', 60 * 24 * 2],
    ['deptstaff', 'dept', 'change', 'department', south, 'South Region', 60 * 24 * 2 - 3],
    ['deptstaff', 'dept', 'change', 'department', east, 'East Region', 60 * 24 * 2 - 40],
    ['advertiser', 'auth', 'login', 'account', advertiser.id, 'advertiser', 60 * 24],
    [
      'entadmin',
      'notice',
      'monitorApply.agree',
      'monitor_application',
      undefined,
      'Citywide Ad Monitoring asks to monitor your screens',
      60 * 20,
    ],
    ['entadmin', 'advertiser', 'pause', 'account', ids.adv_pixelgames, 'adv_pixelgames', 60 * 8],
    ['entadmin', 'advertiser', 'enable', 'account', ids.adv_pixelgames, 'adv_pixelgames', 60 * 7],
    ['deptstaff', 'auth', 'logout', 'session', undefined, 'deptstaff', 60 * 2],
  ];
  const actors: Record<string, { id: string }> = { entadmin: admin, deptstaff: staff, advertiser };
  for (const [i, [login, module, action, targetType, targetId, targetName, minutes]] of history.entries()) {
    await insertOperationLog(db, {
      entId,
      accountId: actors[login].id,
      loginName: login,
      module,
      action,
      targetType,
      targetId,
      targetName,
      ip: `10.0.${i % 3}.${20 + i}`,
      traceKey: `seed-${i}`,
      endpoint: `${module}.${action}`,
      result: i === 6 ? 'failure' : 'success',
      createdAt: new Date(now.getTime() - minutes * 60_000),
    });
  }
}

function daysAgo(now: Date, days: number): Date {
  return new Date(now.getTime() - days * 86_400_000);
}
