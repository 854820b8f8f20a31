import { randomBytes } from 'node:crypto';
import { ALL_PERMISSION_CODES } from '@marquee/protocol';
import { type Algorithm, hash } from '@node-rs/argon2';
import type { Executor } from '../../src/db/client.js';
import type { AccountStatus, DataScope } from '../../src/db/schema/index.js';
import { createAccount } from '../../src/modules/accounts/service.js';
import { insertDepartment } from '../../src/modules/dept/repository.js';
import { insertEnterprise } from '../../src/modules/enterprise/repository.js';
import { createRole } from '../../src/modules/roles/repository.js';

/** Password of every factory account (strong: no weak-password warning). */
export const TEST_PASSWORD = 'Test@Pass2026';

/**
 * The factories' accounts store an argon2id hash of the lightest cost (1 MiB, 1 pass): a
 * login verifies a hash at the cost written in it, and the suite logs in a few thousand
 * times (about 1 ms each instead of 30-45 ms with the product's cost, auth/passwords.ts).
 * Accounts made through the API keep the product's cost.
 */
const FACTORY_HASH = { algorithm: 2 as Algorithm, memoryCost: 1024, timeCost: 1, parallelism: 1 };
// One hash per password for the whole file.
const hashes = new Map<string, Promise<string>>();
function hashOnce(password: string): Promise<string> {
  let hashed = hashes.get(password);
  if (!hashed) {
    hashed = hash(password, FACTORY_HASH);
    hashes.set(password, hashed);
  }
  return hashed;
}

export const uniqueName = (prefix: string) => `${prefix}_${randomBytes(5).toString('hex')}`;

export interface TestEnterprise {
  id: string;
  name: string;
  /** root -> a -> a1, root -> b */
  depts: { root: string; a: string; a1: string; b: string };
}

/**
 * A fresh enterprise with a small department tree; tests never share one. Its time zone is UTC
 * unless given (a test of zones says which), so a test's instants and days read alike.
 */
export async function createEnterprise(
  db: Executor,
  options: {
    kind?: 'provider' | 'enterprise' | 'agent';
    name?: string;
    welcomeSpeech?: string;
    timeZone?: string;
  } = {},
): Promise<TestEnterprise> {
  const name = options.name ?? uniqueName('Enterprise');
  const ent = await insertEnterprise(db, {
    kind: options.kind ?? 'enterprise',
    name,
    welcomeSpeech: options.welcomeSpeech ?? `Welcome to ${name}`,
    timeZone: options.timeZone ?? 'UTC',
  });
  const root = await insertDepartment(db, { entId: ent.id, name: 'Root' });
  const a = await insertDepartment(db, { entId: ent.id, parentId: root.id, name: 'Dept A' });
  const a1 = await insertDepartment(db, { entId: ent.id, parentId: a.id, name: 'Dept A1' });
  const b = await insertDepartment(db, { entId: ent.id, parentId: root.id, name: 'Dept B' });
  return { id: ent.id, name, depts: { root: root.id, a: a.id, a1: a1.id, b: b.id } };
}

export interface TestUser {
  id: string;
  entId: string;
  loginName: string;
  password: string;
}

/**
 * An account of `ent` with one role holding `permissions` (all codes by default; [] for
 * none), in `deptIds` (the first is current; default the root department).
 */
export async function createUser(
  db: Executor,
  ent: TestEnterprise,
  options: {
    permissions?: readonly string[];
    deptIds?: string[];
    dataScope?: DataScope;
    isEntAdmin?: boolean;
    status?: AccountStatus;
    thirdMonitor?: boolean;
    password?: string;
    loginName?: string;
  } = {},
): Promise<TestUser> {
  const password = options.password ?? TEST_PASSWORD;
  const permissions = options.permissions ?? ALL_PERMISSION_CODES;
  const roleIds: string[] = [];
  if (permissions.length > 0 || options.dataScope) {
    const role = await createRole(db, {
      entId: ent.id,
      name: uniqueName('role'),
      dataScope: options.dataScope ?? 'dept_and_below',
      permissionCodes: permissions,
    });
    roleIds.push(role.id);
  }
  const loginName = options.loginName ?? uniqueName('user');
  const account = await createAccount(db, {
    entId: ent.id,
    loginName,
    password,
    passwordHash: await hashOnce(password),
    isEntAdmin: options.isEntAdmin ?? false,
    status: options.status ?? 'enabled',
    thirdMonitor: options.thirdMonitor ?? false,
    deptIds: options.deptIds ?? [ent.depts.root],
    roleIds,
  });
  return { id: account.id, entId: ent.id, loginName, password };
}
