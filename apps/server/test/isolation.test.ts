import { ALL_PERMISSION_CODES, ENDPOINT_LIST, type EndpointDef, ErrorCode, RefType } from '@marquee/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Executor } from '../src/db/client.js';
import { allocations, type DataScope } from '../src/db/schema/index.js';
import { insertDepartment } from '../src/modules/dept/repository.js';
import { insertTemplate } from '../src/modules/templates/repository.js';
import { BACKENDS, createEnterprise, createTestApp, createUser, type TestApp } from './helpers/index.js';

/**
 * The isolation matrix (guide convention 3, issue 3): every catalogue endpoint with a `scope`
 * (EndpointDef.scope) is called, about one object, by callers who must not see it and by
 * callers who must. A new scoped endpoint joins with no test code; a new ref-type needs one
 * entry in FIXTURES below (how to create an object of it owned by an account in a department).
 */
interface Owner {
  entId: string;
  deptId: string;
  ownerId: string;
}
const FIXTURES: Record<string, (db: Executor, owner: Owner) => Promise<string>> = {
  [RefType.template]: async (db, o) =>
    (await insertTemplate(db, { entId: o.entId, deptId: o.deptId, ownerId: o.ownerId, name: 'Isolated template' })).id,
};

type Expect = 'visible' | 'hidden' | 'denied';
type Account = Awaited<ReturnType<typeof createUser>>;
interface CallerSpec {
  name: string;
  expect: Expect;
  /** Creates the caller in the world below; null means the object's owner. */
  make: (t: TestApp, w: World) => Promise<Account>;
}
interface World {
  ent: Awaited<ReturnType<typeof createEnterprise>>;
  /** root -> a -> a1 (the object's department), root -> b, root -> c -> c1 */
  c: string;
  c1: string;
  owner: Account;
  /** An account in c1 the object is shared with. */
  sharedAccount: Account;
}

const user =
  (scope: DataScope, dept: (w: World) => string, permissions: readonly string[] = ALL_PERMISSION_CODES) =>
  async (t: TestApp, w: World) =>
    createUser(t.db, w.ent, { dataScope: scope, deptIds: [dept(w)], permissions });

// The object lives in A1, owned by `owner`; it is shared with department C alone (type 2) and
// with one account in C1.
const CALLERS: readonly CallerSpec[] = [
  {
    name: 'another enterprise (administrator)',
    expect: 'hidden',
    make: async (t) => {
      const other = await createEnterprise(t.db);
      return createUser(t.db, other, { isEntAdmin: true });
    },
  },
  {
    name: 'sibling department B (dept and below)',
    expect: 'hidden',
    make: user('dept_and_below', (w) => w.ent.depts.b),
  },
  { name: 'self scope in A1 (not the owner)', expect: 'hidden', make: user('self', (w) => w.ent.depts.a1) },
  { name: 'dept only in A (parent)', expect: 'hidden', make: user('dept_only', (w) => w.ent.depts.a) },
  { name: 'dept only in A1', expect: 'visible', make: user('dept_only', (w) => w.ent.depts.a1) },
  { name: 'dept and below in A', expect: 'visible', make: user('dept_and_below', (w) => w.ent.depts.a) },
  { name: 'dept and below in A1', expect: 'visible', make: user('dept_and_below', (w) => w.ent.depts.a1) },
  { name: 'dept and below in root', expect: 'visible', make: user('dept_and_below', (w) => w.ent.depts.root) },
  {
    name: 'enterprise administrator',
    expect: 'visible',
    make: (t, w) => createUser(t.db, w.ent, { isEntAdmin: true, deptIds: [w.ent.depts.b] }),
  },
  { name: 'owner (self scope)', expect: 'visible', make: async (_t, w) => w.owner },
  { name: 'shared department C alone (self scope)', expect: 'visible', make: user('self', (w) => w.c) },
  { name: 'below shared department C (self scope)', expect: 'hidden', make: user('self', (w) => w.c1) },
  { name: 'shared account in C1', expect: 'visible', make: async (_t, w) => w.sharedAccount },
  {
    name: 'without the permission (dept and below in root)',
    expect: 'denied',
    make: user('dept_and_below', (w) => w.ent.depts.root, []),
  },
];

const scoped = ENDPOINT_LIST.filter((def) => def.scope);

describe.each(BACKENDS)('isolation matrix on %s', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(backend);
  });
  afterAll(() => t.close());

  it('has a fixture for every scoped ref-type', () => {
    expect(scoped.length).toBeGreaterThan(0);
    for (const def of scoped) expect(FIXTURES[def.scope?.refType ?? ''], def.name).toBeTypeOf('function');
  });

  it('lets no caller see what their enterprise, data scope, sharing and permissions keep from them', async () => {
    const findings: string[] = [];
    let leaks = 0;
    let calls = 0;
    for (const def of scoped) {
      const world = await makeWorld(t, def);
      const objectId = world.objectId;
      for (const caller of CALLERS) {
        const account = await caller.make(t, world);
        const client = await t.loginAs(account);
        const res = await client.call(def, request(def, objectId));
        calls++;
        const seen =
          res.envelope.code === 0 &&
          (def.scope?.kind === 'detail' || JSON.stringify(res.envelope.payload).includes(objectId));
        const expected = caller.expect === 'denied' && !def.permission ? 'hidden' : caller.expect;
        if (seen && expected !== 'visible') {
          leaks++;
          findings.push(`LEAK ${def.name}: ${caller.name} sees ${objectId}`);
        } else if (!seen && expected === 'visible') {
          findings.push(`MISS ${def.name}: ${caller.name} does not see ${objectId} (code ${res.envelope.code})`);
        } else if (expected === 'denied' && res.envelope.code !== ErrorCode.NO_PERMISSION) {
          findings.push(`${def.name}: ${caller.name} answered ${res.envelope.code}, not NO_PERMISSION`);
        } else if (expected === 'hidden' && res.envelope.code !== 0 && res.envelope.code !== ErrorCode.NOT_FOUND) {
          findings.push(`${def.name}: ${caller.name} answered ${res.envelope.code}`);
        }
      }
    }
    console.log(`isolation (${backend}): ${scoped.length} endpoints x ${CALLERS.length} callers, ${leaks} leaks`);
    expect(calls).toBe(scoped.length * CALLERS.length);
    expect(findings).toEqual([]);
    expect(leaks).toBe(0);
  });
});

function request(def: EndpointDef, objectId: string): Record<string, unknown> {
  const fixed = def.scope?.with ?? {};
  return def.scope?.kind === 'detail' ? { ...fixed, [def.scope.idField ?? 'id']: objectId } : { ...fixed };
}

/** A fresh enterprise with the object of the endpoint's ref-type in A1 and its two shares. */
async function makeWorld(t: TestApp, def: EndpointDef): Promise<World & { objectId: string }> {
  const ent = await createEnterprise(t.db);
  const c = await insertDepartment(t.db, { entId: ent.id, parentId: ent.depts.root, name: 'Dept C' });
  const c1 = await insertDepartment(t.db, { entId: ent.id, parentId: c.id, name: 'Dept C1' });
  const owner = await createUser(t.db, ent, { dataScope: 'self', deptIds: [ent.depts.a1] });
  const sharedAccount = await createUser(t.db, ent, { dataScope: 'self', deptIds: [c1.id] });
  const refType = def.scope?.refType ?? '';
  const objectId = await FIXTURES[refType](t.db, { entId: ent.id, deptId: ent.depts.a1, ownerId: owner.id });
  await t.db.insert(allocations).values([
    { entId: ent.id, refType, refId: objectId, targetType: 1, targetId: c.id, deptDataType: 2 },
    { entId: ent.id, refType, refId: objectId, targetType: 2, targetId: sharedAccount.id, deptDataType: 2 },
  ]);
  return { ent, c: c.id, c1: c1.id, owner, sharedAccount, objectId };
}
