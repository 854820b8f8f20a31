import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { ENDPOINT_LIST, type EndpointDef, ErrorCode, endpoints, LOGOUT_CODES } from '@marquee/protocol';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../src/logger.js';
import { alarmObjects } from './fixtures/alarms.js';
import { customFieldObjects } from './fixtures/customFields.js';
import { dictionaryObjects } from './fixtures/dictionaries.js';
import { feedbackObjects } from './fixtures/feedback.js';
import { helpObjects } from './fixtures/help.js';
import { monitoringObjects } from './fixtures/monitoring.js';
import { qrcodeObjects } from './fixtures/qrcode.js';
import { rtbObjects } from './fixtures/rtb.js';
import {
  insertCoupon,
  insertGoods,
  insertSalesAdvertiser,
  insertScreens,
  insertSlot,
  salesDay,
  salesObjects,
} from './fixtures/sales.js';
import { specialObjects } from './fixtures/special.js';
import { upgradeObjects } from './fixtures/upgrades.js';
import { warningsObjects } from './fixtures/warnings.js';
import {
  type ApiClient,
  BACKENDS,
  createEnterprise,
  createTestApp,
  createUser,
  type TestApp,
  type TestEnterprise,
  type TestUser,
} from './helpers/index.js';
import { HOSTILE_STRINGS, payloads } from './helpers/payloads.js';

/**
 * The robustness test (issue 7): every endpoint of the catalogue, called with generated
 * payloads (wrong types, missing and extra fields, NUL, lone surrogates, 100,000 characters,
 * SQL and HTML fragments, deep nesting: helpers/payloads.ts) by an anonymous caller and by the
 * administrators of a platform operator and of an enterprise, on a fresh database. Never
 * SERVER_ERROR, never an HTTP 5xx, never a success for an anonymous caller on a session
 * endpoint. A new endpoint joins with no test code. FUZZ_RUNS (payloads per endpoint and
 * caller) and FUZZ_SEED reproduce or deepen a run.
 */

const RUNS = Number(process.env.FUZZ_RUNS ?? 8);
const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);

let ipCounter = 0;
/** A new client address: the fuzzer's failed logins must not throttle the callers that follow. */
function nextIp(): string {
  ipCounter += 1;
  return `10.${(ipCounter >> 16) & 255}.${(ipCounter >> 8) & 255}.${ipCounter & 255}`;
}

class ErrorLog extends Writable {
  readonly lines: string[] = [];
  override _write(chunk: Buffer, _encoding: string, done: () => void) {
    this.lines.push(chunk.toString());
    done();
  }
  /** The message of the last failure logged since `mark`. */
  since(mark: number): string {
    for (const line of this.lines.slice(mark).reverse()) {
      try {
        const entry = JSON.parse(line) as { msg?: string; err?: { message?: string; cause?: { message?: string } } };
        // A failed query's own message is the SQL; its cause says why (e.g. a NUL in text).
        const why = entry.err?.cause?.message ?? entry.err?.message;
        if (why) return `${entry.msg}: ${why}`.slice(0, 300);
      } catch {
        // not JSON
      }
    }
    return '';
  }
}

/** A caller that survives its own random calls (logout, pause, password reset): it comes back as a new administrator. */
class Administrator {
  client!: ApiClient;
  ent!: TestEnterprise;
  user!: TestUser;
  constructor(
    private readonly t: TestApp,
    readonly kind: 'provider' | 'enterprise',
  ) {}

  /** Ids of objects made for the enterprise (selling airtime's: slots, goods, orders...). */
  private objects: string[] = [];

  async start() {
    this.ent = await createEnterprise(this.t.db, { kind: this.kind });
    await this.newUser();
    if (this.kind === 'enterprise') {
      this.objects = [
        ...(await salesObjects(this.t, this.ent, this.user.id)),
        ...(await rtbObjects(this.t, this.ent, this.user.id)),
        ...(await alarmObjects(this.t, this.ent, this.user.id)),
        ...(await warningsObjects(this.t, this.ent)),
        ...(await qrcodeObjects(this.t, this.ent, this.user.id)),
        ...(await feedbackObjects(this.t, this.ent, this.user.id)),
        ...(await specialObjects(this.t, this.ent, this.user.id)),
        ...(await upgradeObjects(this.t, this.ent, this.user.id)),
        ...(await helpObjects(this.t, this.ent, this.user.id)),
        ...(await dictionaryObjects(this.t)),
        ...(await customFieldObjects(this.t, this.ent)),
        ...(await monitoringObjects(this.t, this.ent, this.user.id)),
      ];
    }
  }

  private async newUser() {
    this.user = await createUser(this.t.db, this.ent, { isEntAdmin: true });
    this.client = await this.t.loginAs(this.user, { ip: nextIp() });
  }

  /** Ids of real objects, so generated calls reach past NOT_FOUND. */
  known(): string[] {
    return [this.ent.id, this.user.id, ...Object.values(this.ent.depts), ...this.objects];
  }

  /** After a call that ended the session or the account: log in again, or start afresh. */
  async recover(code: number) {
    if (!LOGOUT_CODES.includes(code) && code !== ErrorCode.PASSWORD_CHANGE_REQUIRED) return;
    try {
      if (code === ErrorCode.PASSWORD_CHANGE_REQUIRED) throw new Error('password must change');
      await this.client.login(this.user.loginName, this.user.password);
    } catch {
      try {
        await this.newUser();
      } catch {
        await this.start();
      }
    }
  }
}

/** Mostly a plain call; sometimes hostile signed query fields (language, device uuid) the client can encode. */
const encodable = HOSTILE_STRINGS.filter((text) => {
  try {
    encodeURIComponent(text);
    return text.length > 0;
  } catch {
    return false;
  }
});
const envelopes = fc.oneof(
  { arbitrary: fc.constant({ language: 'en-US' }), weight: 6 },
  { arbitrary: fc.constantFrom(...encodable).map((language) => ({ language })), weight: 1 },
  { arbitrary: fc.constantFrom(...encodable).map((uuid) => ({ language: 'en-US', uuid })), weight: 1 },
);

interface Finding {
  endpoint: string;
  caller: string;
  problem: string;
  payload: string;
}

describe.each(BACKENDS)('robustness of every endpoint on %s', (backend) => {
  let t: TestApp;
  const errors = new ErrorLog();
  beforeAll(async () => {
    t = await createTestApp(backend, { logger: createLogger('error', errors) });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('never answers SERVER_ERROR, an HTTP 5xx or an anonymous success on a session endpoint', async () => {
    const admins = [new Administrator(t, 'provider'), new Administrator(t, 'enterprise')];
    for (const admin of admins) await admin.start();
    const anonymous = t.client();
    const findings: Finding[] = [];
    let calls = 0;
    const codes = new Map<number, number>();

    const callOnce = async (
      def: EndpointDef,
      payload: unknown,
      caller: string,
      client: ApiClient,
      token: null | undefined,
      envelope: { language: string; uuid?: string },
    ) => {
      const mark = errors.lines.length;
      const res = await client.call(def, payload, {
        ...envelope,
        ...(token === null ? { token: null, ip: nextIp() } : {}),
      });
      calls += 1;
      const json = res.headers['content-type']?.toString().startsWith('application/json');
      const code = json ? res.envelope?.code : res.status === 200 ? 0 : undefined;
      const problem =
        res.status >= 500
          ? `HTTP ${res.status}`
          : code === ErrorCode.SERVER_ERROR
            ? `SERVER_ERROR ${errors.since(mark)}`
            : code === 0 && caller === 'anonymous' && def.auth === 'session'
              ? 'anonymous success'
              : null;
      if (problem) {
        const text = JSON.stringify(payload) ?? String(payload);
        findings.push({
          endpoint: def.name,
          caller,
          problem,
          payload: text.length > 300 ? `${text.slice(0, 300)}…` : text,
        });
      }
      codes.set(code ?? res.status, (codes.get(code ?? res.status) ?? 0) + 1);
      return code ?? 0;
    };

    for (const [index, def] of ENDPOINT_LIST.entries()) {
      const known = admins.flatMap((a) => a.known());
      const samples = fc.sample(fc.tuple(payloads(def.request, known), envelopes), {
        numRuns: RUNS * 3,
        seed: SEED + index,
      });
      for (const [i, [payload, envelope]] of samples.entries()) {
        if (i % 3 === 0) {
          await callOnce(def, payload, 'anonymous', anonymous, null, envelope);
        } else {
          const admin = admins[i % 3 === 1 ? 0 : 1];
          const code = await callOnce(def, payload, `${admin.kind} administrator`, admin.client, undefined, envelope);
          await admin.recover(code);
        }
      }
    }

    const serverErrors = findings.filter((f) => f.problem.startsWith('SERVER_ERROR')).length;
    console.log(
      `robustness on ${backend} (seed ${SEED}): ${ENDPOINT_LIST.length} endpoints, ${calls} payloads, ${serverErrors} server errors, ${findings.length - serverErrors} other findings`,
    );
    console.log(
      `  answers by code: ${[...codes]
        .sort((a, b) => b[1] - a[1])
        .map(([c, n]) => `${c}: ${n}`)
        .join(', ')}`,
    );
    for (const f of findings.slice(0, 30))
      console.log(`  ${f.endpoint} as ${f.caller}: ${f.problem}\n    ${f.payload}`);
    expect(findings).toEqual([]);
  }, 600_000);
});

/**
 * Selling airtime (issue 28): requests that pass the schema but ask for what cannot be sold —
 * another enterprise's slot, screen, coupon or account, unknown screens by the ten thousand,
 * a period from 2000 to 9999, rotations beyond the slot's, the largest prices over the
 * longest period (amounts past 2^53 fen) — answer a clear code within seconds: never
 * SERVER_ERROR, never an HTTP 5xx, never a hang.
 */
describe.each(BACKENDS)("selling airtime's well-formed but impossible requests on %s", (backend) => {
  let t: TestApp;
  const errors = new ErrorLog();
  beforeAll(async () => {
    t = await createTestApp(backend, { logger: createLogger('error', errors) });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers each with a clear code, quickly', async () => {
    const ent = await createEnterprise(t.db);
    const staff = await createUser(t.db, ent, { isEntAdmin: true });
    const client = await t.loginAs(staff);
    const other = await createEnterprise(t.db);
    const otherUser = await createUser(t.db, other);
    const screens = await insertScreens(t, ent, staff.id, 2);
    const [otherScreen] = await insertScreens(t, other, otherUser.id, 1);
    const slotId = await insertSlot(t.db, { entId: ent.id, deviceIds: screens, maxRotations: 10 });
    const dearSlot = await insertSlot(t.db, { entId: ent.id, deviceIds: screens, maxRotations: 60, price: 9_999_900 });
    const cpmSlot = await insertSlot(t.db, { entId: ent.id, deviceIds: screens, salesMethod: 'cpm', price: 500 });
    const otherSlot = await insertSlot(t.db, { entId: other.id, deviceIds: [otherScreen] });
    const goodsId = await insertGoods(t.db, {
      entId: ent.id,
      slotIds: [slotId],
      startDate: salesDay(t, 0),
      endDate: salesDay(t, 30),
    });
    const offShelf = await insertGoods(t.db, {
      entId: ent.id,
      slotIds: [slotId],
      startDate: salesDay(t, 0),
      endDate: salesDay(t, 30),
      state: 'offShelf',
    });
    const otherCoupon = await insertCoupon(t.db, {
      entId: other.id,
      validFrom: salesDay(t, 0),
      validTo: salesDay(t, 30),
    });
    const adv = await insertSalesAdvertiser(t, ent);
    const unknownScreens = Array.from({ length: 10_000 }, () => randomUUID());
    const day = salesDay(t, 1);
    const order = (o: Record<string, unknown>) => ({
      advertiserId: adv.id,
      slotId,
      startDate: day,
      endDate: day,
      lines: [{ slotId }],
      ...o,
    });
    const orders: [string, Record<string, unknown>][] = [
      ["another enterprise's slot", order({ slotId: otherSlot, lines: [{ slotId: otherSlot }] })],
      ['goods with a line of another slot', order({ slotId: undefined, goodsId, lines: [{ slotId: dearSlot }] })],
      ['goods off shelf', order({ slotId: undefined, goodsId: offShelf })],
      ['10,000 unknown screens', order({ lines: [{ slotId, deviceIds: unknownScreens }] })],
      ["another enterprise's screen", order({ lines: [{ slotId, deviceIds: [otherScreen] }] })],
      ['2000 to 9999', order({ startDate: '2000-01-01', endDate: '9999-12-31' })],
      ['a past day', order({ startDate: salesDay(t, -1), endDate: salesDay(t, -1) })],
      ['rotations beyond the slot', order({ lines: [{ slotId, rotations: 60 }] })],
      ['impressions on a CPT line', order({ lines: [{ slotId, impressionsK: 5 }] })],
      ['a CPM line without impressions', order({ slotId: cpmSlot, lines: [{ slotId: cpmSlot }] })],
      [
        'the dearest slot, every rotation, a year',
        order({ slotId: dearSlot, endDate: salesDay(t, 366), lines: [{ slotId: dearSlot, rotations: 60 }] }),
      ],
      [
        'the dearest slot over 2000 to 9999 (amount past 2^53 fen)',
        order({
          slotId: dearSlot,
          startDate: '2000-01-01',
          endDate: '9999-12-31',
          lines: [{ slotId: dearSlot, rotations: 60 }],
        }),
      ],
      ['an unknown coupon', order({ couponId: randomUUID() })],
      ["another enterprise's coupon", order({ couponId: otherCoupon })],
      ['the staff member as the advertiser', order({ advertiserId: staff.id })],
      ["another enterprise's account as the advertiser", order({ advertiserId: otherUser.id })],
      ['one slot twice', order({ lines: [{ slotId }, { slotId }] })],
    ];
    const calls: [EndpointDef, string, unknown][] = [
      ...orders.flatMap(([name, p]) => [
        [endpoints.salesQuote, name, p] as [EndpointDef, string, unknown],
        [endpoints.salesOrderCreate, name, p] as [EndpointDef, string, unknown],
      ]),
      [
        endpoints.salesAvailability,
        '2000 to 9999 by hour',
        { slotId, startDate: '2000-01-01', endDate: '9999-12-31', granularity: 'hour' },
      ],
      [endpoints.salesAvailability, '2000 to 9999 by day', { slotId, startDate: '2000-01-01', endDate: '9999-12-31' }],
      [
        endpoints.salesAvailability,
        '10,000 unknown screens',
        { slotId, deviceIds: unknownScreens, startDate: day, endDate: day },
      ],
      [endpoints.salesAvailability, "another enterprise's slot", { slotId: otherSlot, startDate: day, endDate: day }],
      [
        endpoints.salesSlotSave,
        "another enterprise's screen",
        {
          name: 'Hostile slot',
          width: 1920,
          height: 1080,
          durationSec: 15,
          salesMethod: 'cpt',
          cptPrice: 100,
          maxRotations: 5,
          targets: { deviceIds: [otherScreen] },
        },
      ],
      [
        endpoints.salesGoodsSave,
        "another enterprise's slot",
        { name: 'Hostile goods', kind: 'single', startDate: day, endDate: day, lines: [{ slotId: otherSlot }] },
      ],
      [
        endpoints.salesGoodsSave,
        '2000 to 9999',
        { name: 'Long goods', kind: 'single', startDate: '2000-01-01', endDate: '9999-12-31', lines: [{ slotId }] },
      ],
      [
        endpoints.salesPriceContractSave,
        'the staff member as the advertiser',
        { name: 'Hostile contract', advertiserId: staff.id, discount: 0.5, validFrom: day, validTo: day },
      ],
      [
        endpoints.salesPriceContractSave,
        "another enterprise's slot price",
        {
          name: 'Hostile prices',
          advertiserId: adv.id,
          discount: 0.5,
          slotPrices: [{ slotId: otherSlot, unitPrice: 1 }],
          validFrom: day,
          validTo: day,
        },
      ],
      [
        endpoints.salesCouponSave,
        'unknown goods',
        { name: 'Hostile coupon', discount: 0.5, limit: 1, validFrom: day, validTo: day, goodsIds: [randomUUID()] },
      ],
      [endpoints.salesContractCreate, "another enterprise's order", { kind: 'order', subjectId: randomUUID() }],
    ];
    // The largest order the schema allows: 10,000 screens x 60 rotations x 24 hours x 366 days at
    // 99,999 yuan (5.3e16 fen, past 2^53): refused, not rounded or overflowed.
    const many = await insertScreens(t, ent, staff.id, 10_000);
    const hugeSlot = await insertSlot(t.db, { entId: ent.id, deviceIds: many, maxRotations: 60, price: 9_999_900 });
    const huge = order({
      slotId: hugeSlot,
      startDate: salesDay(t, 1),
      endDate: salesDay(t, 366),
      lines: [{ slotId: hugeSlot, rotations: 60 }],
    });
    calls.push(
      [endpoints.salesQuote, 'the largest order', huge],
      [endpoints.salesOrderCreate, 'the largest order', huge],
    );
    const findings: string[] = [];
    for (const [def, name, payload] of calls) {
      const mark = errors.lines.length;
      const started = performance.now();
      const res = await client.call(def, payload);
      const ms = performance.now() - started;
      const code = res.envelope?.code;
      if (res.status >= 500 || code === ErrorCode.SERVER_ERROR) {
        findings.push(`${def.name} (${name}): ${res.status} ${code} ${errors.since(mark)}`);
      } else if (ms > 10_000) {
        findings.push(`${def.name} (${name}): answered ${code} after ${Math.round(ms)} ms`);
      }
    }
    expect(findings).toEqual([]);
  }, 300_000);
});
