import { type EndpointDef, ErrorCode, endpoints } from '@marquee/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdvertiser } from '../src/modules/advertisers/service.js';
import {
  BACKENDS,
  createTestApp,
  createUser,
  TEST_PASSWORD,
  type TestApp,
  type TestEnterprise,
  uniqueName,
} from './helpers/index.js';

const STRONG = 'Adv@Pass2026';

describe.each(BACKENDS)('advertiser endpoints on %s', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(backend);
  });
  afterAll(() => t.close());

  const advertiserOf = (ent: TestEnterprise, deptId = ent.depts.a, loginName = uniqueName('adv')) =>
    createAdvertiser(t.db, {
      entId: ent.id,
      deptId,
      createdBy: null,
      loginName,
      password: TEST_PASSWORD,
      realName: `Advertiser ${loginName}`,
      phone: '13900001111',
    }).then((id) => ({ id, loginName }));

  // Payloads per endpoint: happy (given an advertiser and a staff id of the caller's tenant), bad.
  const cases: [EndpointDef, (adv: string, staff: string) => unknown, unknown][] = [
    [endpoints.advertiserList, () => ({ page: 1, size: 10 }), { page: 1, size: 1000 }],
    [endpoints.advertiserAllotList, () => ({ page: 1, size: 10 }), { staffId: 7 }],
    [
      endpoints.advertiserAdd,
      () => ({ loginName: uniqueName('new'), password: STRONG, realName: 'New One' }),
      { loginName: 'ab', password: STRONG, realName: 'x' },
    ],
    [
      endpoints.advertiserUpdate,
      (id) => ({ id, realName: 'Renamed', phone: '', email: '' }),
      { id: 'x', realName: '' },
    ],
    [endpoints.advertiserSetStatus, (id) => ({ id, status: 'paused' }), { id: 'x', status: 'off' }],
    [endpoints.advertiserDelete, (id) => ({ id }), { id: '' }],
    [endpoints.advertiserStaffOptions, () => ({}), { all: true }],
    [
      endpoints.advertiserAssign,
      (a, s) => ({ advertiserIds: [a], staffIds: [s] }),
      { advertiserIds: [], staffIds: [] },
    ],
    [endpoints.advertiserUnassign, (a, s) => ({ advertiserIds: [a], staffIds: [s] }), { advertiserIds: ['x'] }],
  ];

  describe.each(cases.map(([def, happy, bad]) => [def.name, def, happy, bad] as const))('%s', (_n, def, happy, bad) => {
    it('refuses no session, no permission and a bad payload; answers 0 on the happy path', async () => {
      const { ent, admin, client } = await t.tenant();
      const adv = await advertiserOf(ent);
      const payload = happy(adv.id, admin.id);
      expect((await t.client().call(def, payload, { token: null })).envelope.code).toBe(ErrorCode.TOKEN_INVALID);
      const noPerm = await t.loginAs(await createUser(t.db, ent, { permissions: [] }));
      expect((await noPerm.call(def, payload)).envelope.code).toBe(ErrorCode.NO_PERMISSION);
      expect((await client.call(def, bad)).envelope.code).toBe(ErrorCode.INVALID_PARAMS);
      const res = await client.call(def, payload);
      expect(res.envelope.code).toBe(0);
      expect(def.response.safeParse(res.envelope.payload).success).toBe(true);
    });

    if (def.mutation) {
      it("treats another tenant's advertiser as not found and refuses monitors", async () => {
        const mine = await t.tenant();
        const theirs = await t.tenant();
        const adv = await advertiserOf(theirs.ent);
        if (def !== endpoints.advertiserAdd) {
          const res = await mine.client.call(def, happy(adv.id, mine.admin.id));
          expect(res.envelope.code).toBe(ErrorCode.NOT_FOUND);
        }
        const monitor = await t.loginAs(await createUser(t.db, mine.ent, { thirdMonitor: true }));
        const ownAdv = await advertiserOf(mine.ent);
        expect((await monitor.call(def, happy(ownAdv.id, mine.admin.id))).envelope.code).toBe(ErrorCode.NO_PERMISSION);
      });
    }
  });

  it('adds an advertiser who can log in, lists it with filters, refuses a taken login and a weak password', async () => {
    const { ent, client } = await t.tenant();
    const loginName = uniqueName('acme');
    const added = await client.call(endpoints.advertiserAdd, {
      loginName,
      password: STRONG,
      realName: 'Acme Drinks',
      phone: '13912345678',
      email: 'ads@acme.example',
    });
    expect(added.envelope.code).toBe(0);
    await advertiserOf(ent);
    const list = await client.call(endpoints.advertiserList, { page: 1, size: 50, loginName: loginName.toUpperCase() });
    expect(list.envelope.payload.total).toBe(1);
    expect(list.envelope.payload.data[0]).toMatchObject({
      id: added.envelope.payload.id,
      loginName,
      realName: 'Acme Drinks',
      phone: '13912345678',
      status: 'enabled',
      deptName: 'Root',
    });
    expect(
      (await client.call(endpoints.advertiserList, { page: 1, size: 50, phone: '1234567' })).envelope.payload.total,
    ).toBe(1);
    expect((await client.call(endpoints.advertiserList, { page: 1, size: 50 })).envelope.payload.total).toBe(2);
    const me = await t.client().login(loginName, STRONG);
    expect(me.loginName).toBe(loginName);

    const again = await client.call(endpoints.advertiserAdd, { loginName, password: STRONG, realName: 'Again' });
    expect(again.envelope.code).toBe(ErrorCode.CONFLICT);
    const weak = await client.call(endpoints.advertiserAdd, {
      loginName: uniqueName('w'),
      password: 'abcdefghij',
      realName: 'W',
    });
    expect(weak.envelope.code).toBe(ErrorCode.INVALID_PARAMS);
    const logged = await client.call(endpoints.operationLogList, { page: 1, size: 10, module: 'advertiser' });
    expect(logged.envelope.payload.data[0]).toMatchObject({ action: 'add', targetId: added.envelope.payload.id });
    // A phone of five digits is refused with the phone rule's message (issue 25); seven are enough.
    for (const [phone, code] of [
      ['12345', ErrorCode.INVALID_PARAMS],
      ['+1 2345', ErrorCode.INVALID_PARAMS],
      ['1234567890123456', ErrorCode.INVALID_PARAMS],
      ['010-1234567', 0],
    ] as const) {
      const res = await client.call(
        endpoints.advertiserAdd,
        { loginName: uniqueName('p'), password: STRONG, realName: 'P', phone },
        { language: 'en-US' },
      );
      expect(res.envelope.code, phone).toBe(code);
      if (code !== 0) expect(res.envelope.message).toContain('7 to 15 digits');
    }
  });

  it('pausing ends the advertiser sessions with -10008 and refuses login; enabling lets it back in', async () => {
    const { ent, client } = await t.tenant();
    const adv = await advertiserOf(ent);
    const session = await t.loginAs({ id: adv.id, entId: ent.id, loginName: adv.loginName, password: TEST_PASSWORD });
    expect((await session.call(endpoints.authInfo)).envelope.code).toBe(0);
    expect((await client.call(endpoints.advertiserSetStatus, { id: adv.id, status: 'paused' })).envelope.code).toBe(0);
    expect((await session.call(endpoints.authInfo)).envelope.code).toBe(ErrorCode.SESSION_ENDED);
    const list = await client.call(endpoints.advertiserList, { page: 1, size: 10, status: 'paused' });
    expect(list.envelope.payload.data.map((a) => a.id)).toEqual([adv.id]);
    const relogin = await t.client().call(endpoints.login, { loginName: adv.loginName, password: TEST_PASSWORD });
    expect(relogin.envelope.code).toBe(ErrorCode.ACCOUNT_PAUSED);
    expect((await client.call(endpoints.advertiserSetStatus, { id: adv.id, status: 'enabled' })).envelope.code).toBe(0);
    await t.client().login(adv.loginName, TEST_PASSWORD);
  });

  it('deletes an advertiser and ends its sessions', async () => {
    const { ent, client } = await t.tenant();
    const adv = await advertiserOf(ent);
    const session = await t.loginAs({ id: adv.id, entId: ent.id, loginName: adv.loginName, password: TEST_PASSWORD });
    expect((await client.call(endpoints.advertiserDelete, { id: adv.id })).envelope.code).toBe(0);
    expect((await client.call(endpoints.advertiserList, { page: 1, size: 10 })).envelope.payload.total).toBe(0);
    expect([ErrorCode.SESSION_ENDED, ErrorCode.TOKEN_INVALID]).toContain(
      (await session.call(endpoints.authInfo)).envelope.code,
    );
    expect((await client.call(endpoints.advertiserDelete, { id: adv.id })).envelope.code).toBe(ErrorCode.NOT_FOUND);
  });

  it("limits a 'self'-scoped staff member to the advertisers assigned to it", async () => {
    const { ent, client } = await t.tenant();
    const advA = await advertiserOf(ent, ent.depts.a);
    const advB = await advertiserOf(ent, ent.depts.b);
    const seller = await createUser(t.db, ent, { deptIds: [ent.depts.a], dataScope: 'self' });
    const deptStaff = await createUser(t.db, ent, { deptIds: [ent.depts.a], dataScope: 'dept_and_below' });
    const sellerClient = await t.loginAs(seller);
    const deptClient = await t.loginAs(deptStaff);
    const ids = async (c: typeof client) =>
      (await c.call(endpoints.advertiserList, { page: 1, size: 50 })).envelope.payload.data.map((a) => a.id).sort();

    expect(await ids(sellerClient)).toEqual([]);
    expect(await ids(deptClient)).toEqual([advA.id]);

    const staff = await client.call(endpoints.advertiserStaffOptions, {});
    expect(staff.envelope.payload.map((s) => s.value)).toContain(seller.id);
    expect(staff.envelope.payload.map((s) => s.value)).not.toContain(advA.id);

    const assign = await client.call(endpoints.advertiserAssign, {
      advertiserIds: [advB.id],
      staffIds: [seller.id, deptStaff.id],
    });
    expect(assign.envelope.payload).toEqual({ assigned: 2 });
    expect(await ids(sellerClient)).toEqual([advB.id]);
    expect(await ids(deptClient)).toEqual([advA.id, advB.id].sort());
    // The seller cannot act on an advertiser it does not see.
    const blocked = await sellerClient.call(endpoints.advertiserSetStatus, { id: advA.id, status: 'paused' });
    expect([ErrorCode.NOT_FOUND, ErrorCode.NO_PERMISSION]).toContain(blocked.envelope.code);

    const allot = await client.call(endpoints.advertiserAllotList, { page: 1, size: 50, staffId: seller.id });
    expect(allot.envelope.payload.data.map((a) => a.id)).toEqual([advB.id]);
    expect(allot.envelope.payload.data[0].staff.map((s) => s.id).sort()).toEqual([seller.id, deptStaff.id].sort());

    // What the seller adds stays in its view (assigned to it).
    const own = await sellerClient.call(endpoints.advertiserAdd, {
      loginName: uniqueName('own'),
      password: STRONG,
      realName: 'Own',
    });
    expect(own.envelope.code).toBe(0);
    expect(await ids(sellerClient)).toEqual([advB.id, own.envelope.payload.id].sort());
    await client.call(endpoints.advertiserDelete, { id: own.envelope.payload.id });

    const un = await client.call(endpoints.advertiserUnassign, { advertiserIds: [advB.id], staffIds: [seller.id] });
    expect(un.envelope.payload).toEqual({ removed: 1 });
    expect(await ids(sellerClient)).toEqual([]);

    // An advertiser is not staff: assigning to one is refused.
    const wrong = await client.call(endpoints.advertiserAssign, { advertiserIds: [advB.id], staffIds: [advA.id] });
    expect(wrong.envelope.code).toBe(ErrorCode.NOT_FOUND);
  });
});
