import { ENDPOINT_LIST, type EndpointDef, ErrorCode } from '@marquee/protocol';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operationLogs } from '../src/db/schema/index.js';
import { createMonitorApplication } from '../src/modules/notice/service.js';
import { createStationLetter } from '../src/modules/stationLetter/service.js';
import { accessFixtures } from './fixtures/access.js';
import { adFixtures } from './fixtures/ads.js';
import { alarmFixtures } from './fixtures/alarms.js';
import { customFieldFixtures } from './fixtures/customFields.js';
import { deviceGroupFixtures } from './fixtures/deviceGroups.js';
import { deviceFixtures } from './fixtures/devices.js';
import { dictionaryFixtures } from './fixtures/dictionaries.js';
import { feedbackFixtures } from './fixtures/feedback.js';
import { financeFixtures } from './fixtures/finance.js';
import { flowFixtures } from './fixtures/flow.js';
import { geoFixtures } from './fixtures/geo.js';
import { helpFixtures } from './fixtures/help.js';
import { marketEndpointFixtures } from './fixtures/marketEndpoints.js';
import { materialFixtures } from './fixtures/materials.js';
import { monitoringFixtures } from './fixtures/monitoring.js';
import { oplogFixtures } from './fixtures/oplog.js';
import { orgFixtures } from './fixtures/org.js';
import { paymentFixtures } from './fixtures/payments.js';
import { posterFixtures } from './fixtures/posters.js';
import { providerFixtures } from './fixtures/providers.js';
import { qrcodeFixtures } from './fixtures/qrcode.js';
import { reportFixtures } from './fixtures/reports.js';
import { rtbFixtures } from './fixtures/rtb.js';
import { salesFixtures } from './fixtures/sales.js';
import { schedulingFixtures } from './fixtures/scheduling.js';
import { screenshotFixtures } from './fixtures/screenshots.js';
import { sharingFixtures } from './fixtures/sharing.js';
import { specialFixtures } from './fixtures/special.js';
import { spliceFixtures } from './fixtures/splice.js';
import { strategyFixtures } from './fixtures/strategies.js';
import { templateFixtures } from './fixtures/templates.js';
import { timeZoneFixtures } from './fixtures/timeZones.js';
import { upgradeFixtures } from './fixtures/upgrades.js';
import { warningsFixtures } from './fixtures/warnings.js';
import { watermarkFixtures } from './fixtures/watermark.js';
import {
  type ApiClient,
  BACKENDS,
  createEnterprise,
  createTestApp,
  createUser,
  TEST_LETTER,
  type TestApp,
  type TestEnterprise,
  type TestUser,
} from './helpers/index.js';

interface Caller {
  ent: TestEnterprise;
  user: TestUser;
  client: ApiClient;
}

/**
 * What each session endpoint needs: a happy-path payload (after setting up its data for
 * the caller), a payload failing its schema, and what a good answer looks like. A new
 * catalogue entry without a fixture fails the first test below.
 */
const fixtures: Record<
  string,
  {
    happy: (t: TestApp, caller: Caller) => Promise<unknown>;
    bad: unknown;
    expectAnswer?: (payload: unknown, caller: Caller) => void;
  }
> = {
  ...sharingFixtures,
  ...accessFixtures,
  ...oplogFixtures,
  ...orgFixtures,
  ...deviceFixtures,
  ...geoFixtures,
  ...strategyFixtures,
  ...screenshotFixtures,
  ...upgradeFixtures,
  ...deviceGroupFixtures,
  ...spliceFixtures,
  ...materialFixtures,
  ...templateFixtures,
  ...timeZoneFixtures,
  ...posterFixtures,
  ...adFixtures,
  ...schedulingFixtures,
  ...reportFixtures,
  ...paymentFixtures,
  ...providerFixtures,
  ...financeFixtures,
  ...marketEndpointFixtures,
  ...flowFixtures,
  ...salesFixtures,
  ...rtbFixtures,
  ...alarmFixtures,
  ...feedbackFixtures,
  ...specialFixtures,
  ...helpFixtures,
  ...dictionaryFixtures,
  ...customFieldFixtures,
  ...warningsFixtures,
  ...qrcodeFixtures,
  ...watermarkFixtures,
  ...monitoringFixtures,
  'auth.logout': { happy: async () => ({}), bad: { now: true }, expectAnswer: (p) => expect(p).toBeNull() },
  'auth.info': {
    happy: async () => ({}),
    bad: { id: 'x' },
    expectAnswer: (p, c) => expect(p).toMatchObject({ id: c.user.id, entId: c.ent.id }),
  },
  'notice.list': {
    happy: async () => ({ page: 1, size: 10, pushPlatform: 1 }),
    bad: { page: 0, size: 10, pushPlatform: 1 },
    expectAnswer: (p) => expect(p).toMatchObject({ total: expect.any(Number), data: expect.any(Array) }),
  },
  'notice.monitorApply': {
    happy: async (t, c) => {
      const monitorEnt = await createEnterprise(t.db);
      const monitor = await createUser(t.db, monitorEnt, { thirdMonitor: true });
      const { noticeId } = await createMonitorApplication(t.db, {
        entId: c.ent.id,
        applicantAccountId: monitor.id,
        title: 'Monitoring request',
        content: '<p>Please</p>',
      });
      return { noticeId, status: 1 };
    },
    bad: { noticeId: 'x', status: 2 },
    expectAnswer: (p) => expect(p).toBeNull(),
  },
  'stationLetter.list': {
    happy: async (t, c) => {
      await createStationLetter(t.db, { entId: c.ent.id, kind: TEST_LETTER, params: { text: 'Hello banner' } });
      return {};
    },
    bad: { page: 1 },
    expectAnswer: (p) => expect(p).toEqual(['Note: Hello banner']),
  },
  'dept.userList': {
    happy: async () => ({}),
    bad: { all: true },
    expectAnswer: (p, c) => expect(p).toEqual([{ value: c.ent.depts.root, label: 'Root' }]),
  },
  'auth.enterpriseOptions': {
    happy: async () => ({}),
    bad: { all: true },
    // A plain enterprise acts for no other: only its own.
    expectAnswer: (p, c) => expect(p).toEqual([{ value: c.ent.id, label: c.ent.name }]),
  },
  'auth.changeEnterprise': {
    happy: async (_t, c) => ({ entId: c.ent.id }),
    bad: { entId: 42 },
    expectAnswer: (p, c) => expect(p).toMatchObject({ entId: c.ent.id, entName: c.ent.name, homeEntId: c.ent.id }),
  },
  'home.stats': {
    happy: async () => ({ utcOffset: 480 }),
    bad: { utcOffset: 'east' },
    expectAnswer: (p) =>
      expect(p).toMatchObject({
        figures: { accounts: 1, departments: 4, templates: 0 },
        trends: { operations: expect.any(Array) },
      }),
  },
  'dept.change': {
    happy: async (_t, c) => ({ deptId: c.ent.depts.root }),
    bad: { deptId: 42 },
    expectAnswer: (p, c) => expect(p).toMatchObject({ deptId: c.ent.depts.root, deptName: 'Root' }),
  },
};

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

const sessionEndpoints = ENDPOINT_LIST.filter((def) => def.auth === 'session');

describe.each(BACKENDS)('every session endpoint on %s', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(backend);
  });
  afterAll(() => t.close());

  async function caller(permissions?: readonly string[]): Promise<Caller> {
    const ent = await createEnterprise(t.db);
    const user = await createUser(t.db, ent, { permissions });
    return { ent, user, client: await t.loginAs(user) };
  }

  it('has a fixture for each of them', () => {
    expect(Object.keys(fixtures).sort()).toEqual(sessionEndpoints.map((d) => d.name).sort());
  });

  describe.each(sessionEndpoints.map((def) => [def.name, def] as [string, EndpointDef]))('%s', (_name, def) => {
    const fixture = fixtures[def.name];

    it('answers TOKEN_INVALID without a session', async () => {
      const c = await caller();
      const payload = await fixture.happy(t, c);
      const anonymous = t.client();
      for (const token of [null, 'x'.repeat(43)]) {
        const res = await anonymous.call(def, payload, { token });
        expect(res.envelope.code).toBe(ErrorCode.TOKEN_INVALID);
      }
    });

    // A numeric code counts as held (spec section 6), so it never answers NO_PERMISSION.
    if (def.permission && !/^\d+$/.test(def.permission)) {
      it(`answers NO_PERMISSION without ${def.permission}`, async () => {
        const c = await caller([]);
        const payload = await fixture.happy(t, c);
        const res = await c.client.call(def, payload);
        expect(res.envelope.code).toBe(ErrorCode.NO_PERMISSION);
      });
    }

    it('answers INVALID_PARAMS for a payload failing its schema', async () => {
      const c = await caller();
      expect((await c.client.call(def, fixture.bad)).envelope.code).toBe(ErrorCode.INVALID_PARAMS);
      expect((await c.client.call(def, [])).envelope.code).toBe(ErrorCode.INVALID_PARAMS);
    });

    it('answers 0 on the happy path', async () => {
      const c = await caller();
      const payload = await fixture.happy(t, c);
      const res = await c.client.call(def, payload);
      if (def.download) {
        // A download answers the file itself, not the envelope.
        expect(res.status).toBe(200);
        expect(String(res.headers['content-disposition'])).toMatch(/^attachment;/);
        return;
      }
      expect(res.envelope.code).toBe(0);
      expect(def.response.safeParse(res.envelope.payload).success).toBe(true);
      fixture.expectAnswer?.(res.envelope.payload, c);
    });

    if (def.mutation) {
      // Issue 8: the log names what changed as a person reads it, kept in the entry itself.
      it('writes one operation-log entry naming its target as a person reads it', async () => {
        const c = await caller();
        const payload = await fixture.happy(t, c);
        expect((await c.client.call(def, payload)).envelope.code).toBe(0);
        const rows = await t.db
          .select()
          .from(operationLogs)
          .where(and(eq(operationLogs.endpoint, def.name), eq(operationLogs.accountId, c.user.id)));
        expect(rows).toHaveLength(1);
        const [row] = rows;
        expect(row.targetType).toBeTruthy();
        expect(row.targetName?.trim()).toBeTruthy();
        expect(row.targetName).not.toMatch(UUID);
        expect(row.targetName).not.toBe(row.targetId);
      });
    }
  });
});
