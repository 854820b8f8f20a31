import {
  CARD_ACTIONS,
  CARD_STATES,
  CARD_TRANSITIONS,
  type CardState,
  ErrorCode,
  endpoints,
  FLOW_REPORT_TOTAL_CAP,
  type IotCard,
  PLAYS_MAX_AGE_DAYS,
} from '@marquee/protocol';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  flowDays,
  flowEntDays,
  flowSamples,
  iotCards,
  marketItems,
  marketProducts,
} from '../../src/db/schema/index.js';
import { activateCards, cardsOf, lapseCards } from '../../src/modules/flow/effects.js';
import { pruneSamples } from '../../src/modules/flow/usage.js';
import { type ApiClient, BACKENDS, DAY, type TestApp, type TestEnterprise, type TestUser } from '../helpers/index.js';
import { codeOf, flowTestApp, insertCard, insertDevice, newIccid, ok, sample, upload } from './helpers.js';

const MB = 1_048_576;
type CardPage = { total: number; data: IotCard[] };
type Report = {
  total: number;
  capped: boolean;
  data: {
    day: string;
    cardId: string | null;
    iccid: string | null;
    deviceId: string;
    deviceName: string;
    bytes: number;
  }[];
  series: { day: string; bytes: number }[];
  totalBytes: number;
};

/** `YYYY-MM-DD` in UTC+8 of an instant. */
const utc8Day = (ms: number) => new Date(ms + 8 * 3_600_000).toISOString().slice(0, 10);

/**
 * IoT cards and their data (issue 27, modules/flow): the card registry of an enterprise, its
 * state machine, binding, the Excel import, the market's effects, the players' usage upload
 * (counted once per sample) and the consumption report.
 */
describe.each(BACKENDS)('IoT cards and data usage on %s', (backend) => {
  let t: TestApp;
  let ent: TestEnterprise;
  let admin: TestUser;
  let client: ApiClient;
  let other: ApiClient;
  let otherEnt: TestEnterprise;

  beforeAll(async () => {
    // Mid-month UTC+8, so a sample an hour back falls in this month.
    t = await flowTestApp(backend);
    t.clock.set(Date.parse('2026-11-15T04:00:00Z'));
    ({ ent, admin, client } = await t.tenant());
    ({ client: other, ent: otherEnt } = await t.tenant());
  });
  afterAll(async () => {
    await t?.close();
  });

  describe('cards', () => {
    it('adds a card upper-cased in stock; the same ICCID again (any case, any enterprise) is CONFLICT', async () => {
      const iccid = newIccid().toLowerCase();
      const card = await ok<IotCard>(client, endpoints.flowCardAdd, { iccid, operator: 'chinaUnicom', remark: 'r1' });
      expect(card).toMatchObject({
        iccid: iccid.toUpperCase(),
        operator: 'chinaUnicom',
        state: 'stock',
        packageMb: null,
        usedMb: 0,
        leftMb: null,
        deviceId: null,
        autoRenew: false,
        remark: 'r1',
      });
      expect(await codeOf(client, endpoints.flowCardAdd, { iccid: iccid.toUpperCase(), operator: 'other' })).toBe(
        ErrorCode.CONFLICT,
      );
      expect(await codeOf(other, endpoints.flowCardAdd, { iccid, operator: 'other' })).toBe(ErrorCode.CONFLICT);
      expect(await codeOf(client, endpoints.flowCardAdd, { iccid: 'short', operator: 'other' })).toBe(
        ErrorCode.INVALID_PARAMS,
      );
      const updated = await ok<IotCard>(client, endpoints.flowCardUpdate, {
        id: card.id,
        operator: 'chinaTelecom',
        remark: 'r2',
      });
      expect(updated).toMatchObject({ operator: 'chinaTelecom', remark: 'r2' });
    });

    it("keeps another enterprise's cards out of sight (list, info, update, bind, transition: NOT_FOUND)", async () => {
      const mine = await insertCard(t, ent.id);
      const list = await ok<CardPage>(other, endpoints.flowCardList, { size: 100 });
      expect(list.data.map((c) => c.id)).not.toContain(mine);
      expect(await codeOf(other, endpoints.flowCardInfo, { id: mine })).toBe(ErrorCode.NOT_FOUND);
      expect(await codeOf(other, endpoints.flowCardUpdate, { id: mine, operator: 'other', remark: '' })).toBe(
        ErrorCode.NOT_FOUND,
      );
      expect(await codeOf(other, endpoints.flowCardBind, { id: mine, deviceId: null })).toBe(ErrorCode.NOT_FOUND);
      expect(await codeOf(other, endpoints.flowCardTransition, { ids: [mine], action: 'test' })).toBe(
        ErrorCode.NOT_FOUND,
      );
      const [row] = await t.db.select({ state: iotCards.state }).from(iotCards).where(eq(iotCards.id, mine));
      expect(row.state).toBe('stock');
    });

    it('state machine: every action from every state follows CARD_TRANSITIONS, nothing else', async () => {
      const table: { action: string; from: CardState; allowed: boolean; to: CardState }[] = [];
      for (const action of CARD_ACTIONS) {
        for (const from of CARD_STATES) {
          const rule = CARD_TRANSITIONS[action];
          const allowed = rule.from.includes(from);
          const device = await insertDevice(t, ent, admin.id);
          const id = await insertCard(t, ent.id, { state: from, deviceId: device.id });
          const code = await codeOf(client, endpoints.flowCardTransition, { ids: [id], action });
          const [row] = await t.db
            .select({ state: iotCards.state, deviceId: iotCards.deviceId })
            .from(iotCards)
            .where(eq(iotCards.id, id));
          table.push({ action, from, allowed: code === 0, to: row.state });
          expect(code, `${action} from ${from}`).toBe(allowed ? 0 : ErrorCode.CARD_STATE);
          expect(row.state, `${action} from ${from}`).toBe(allowed ? rule.to : from);
          // Cancelling unbinds; nothing else touches the device.
          expect(row.deviceId).toBe(allowed && action === 'cancel' ? null : device.id);
        }
      }
      expect(table).toHaveLength(CARD_ACTIONS.length * CARD_STATES.length);
    });

    it('a batch with any card the action cannot take changes none of them (CARD_STATE names it)', async () => {
      const a = await insertCard(t, ent.id, { state: 'activated' });
      const b = await insertCard(t, ent.id, { state: 'stock' });
      const res = await client.call(endpoints.flowCardTransition, { ids: [a, b], action: 'suspend' });
      expect(res.envelope.code).toBe(ErrorCode.CARD_STATE);
      const rows = await t.db.select({ id: iotCards.id, state: iotCards.state }).from(iotCards);
      expect(rows.find((r) => r.id === a)?.state).toBe('activated');
      expect(rows.find((r) => r.id === b)?.state).toBe('stock');
      expect(await ok(client, endpoints.flowCardTransition, { ids: [a], action: 'suspend' })).toEqual({ updated: 1 });
    });

    it('binds to a manageable device; one card per device (CONFLICT); cancelled cards bind to nothing', async () => {
      const device = await insertDevice(t, ent, admin.id, 'Bound screen');
      const c1 = await insertCard(t, ent.id);
      const c2 = await insertCard(t, ent.id);
      const cancelled = await insertCard(t, ent.id, { state: 'cancelled' });
      const bound = await ok<IotCard>(client, endpoints.flowCardBind, { id: c1, deviceId: device.id });
      expect(bound).toMatchObject({ deviceId: device.id, deviceName: 'Bound screen' });
      // Binding the same card again is fine; another card to the same device is not.
      await ok(client, endpoints.flowCardBind, { id: c1, deviceId: device.id });
      expect(await codeOf(client, endpoints.flowCardBind, { id: c2, deviceId: device.id })).toBe(ErrorCode.CONFLICT);
      expect(await codeOf(client, endpoints.flowCardBind, { id: cancelled, deviceId: device.id })).toBe(
        ErrorCode.CARD_STATE,
      );
      // Another enterprise's device is not one the caller may manage.
      const foreign = await insertDevice(t, otherEnt, admin.id);
      expect(await codeOf(client, endpoints.flowCardBind, { id: c2, deviceId: foreign.id })).toBe(ErrorCode.NOT_FOUND);
      // Unbinding frees the device for the other card.
      expect(await ok<IotCard>(client, endpoints.flowCardBind, { id: c1, deviceId: null })).toMatchObject({
        deviceId: null,
      });
      expect(await ok<IotCard>(client, endpoints.flowCardBind, { id: c2, deviceId: device.id })).toMatchObject({
        deviceId: device.id,
      });
      const filtered = await ok<CardPage>(client, endpoints.flowCardList, { deviceId: device.id });
      expect(filtered.data.map((c) => c.id)).toEqual([c2]);
    });
  });

  describe('import', () => {
    async function sheet(rows: (string | number)[][], headers = ['ICCID', 'Operator', 'Remark']): Promise<string> {
      const { default: ExcelJS } = await import('exceljs');
      const wb = new ExcelJS.Workbook();
      const ws = wb.addWorksheet('Cards');
      ws.addRow(headers);
      for (const r of rows) ws.addRow(r);
      return Buffer.from(await wb.xlsx.writeBuffer()).toString('base64');
    }
    const count = async () =>
      Number(
        (
          (await t.db.execute(sql`select count(*)::int as n from iot_cards where ent_id = ${ent.id}`)) as unknown as {
            rows: { n: number }[];
          }
        ).rows[0].n,
      );

    it('the template downloads as an .xlsx in the caller language', async () => {
      const res = await client.call(endpoints.flowCardImportTemplate, {});
      expect(res.status).toBe(200);
      expect(String(res.headers['content-type'])).toContain('spreadsheetml');
      expect(res.rawPayload.subarray(0, 2).toString()).toBe('PK');
    });

    it('lists every error (bad ICCID, duplicate in sheet, registered already, operator) and writes nothing', async () => {
      const taken = newIccid();
      await insertCard(t, otherEnt.id, { iccid: taken });
      const dup = newIccid();
      const before = await count();
      const res = await ok<{ imported: number; errors: { row: number; column: string | null; message: string }[] }>(
        client,
        endpoints.flowCardImport,
        {
          fileName: 'cards.xlsx',
          file: await sheet([
            [newIccid(), 'China Mobile', 'fine'],
            ['12345', 'China Mobile', ''],
            [dup, 'chinaUnicom', ''],
            [dup.toLowerCase(), 'China Unicom', ''],
            [taken, 'Other', ''],
            [newIccid(), 'Vodafone', ''],
          ]),
        },
      );
      expect(res.imported).toBe(0);
      expect(res.errors.map((e) => [e.row, e.column])).toEqual([
        [3, 'iccid'],
        [5, 'iccid'],
        [6, 'iccid'],
        [7, 'operator'],
      ]);
      expect(res.errors[1].message).toContain('row 4');
      expect(await count()).toBe(before);
    });

    it('imports a clean sheet (operators by word in any language) in stock', async () => {
      const a = newIccid();
      const b = newIccid();
      const res = await ok<{ imported: number; errors: unknown[] }>(client, endpoints.flowCardImport, {
        fileName: 'cards.xlsx',
        file: await sheet(
          [
            [a.toLowerCase(), '中国移动', 'first'],
            [b, 'chinaTelecom', ''],
          ],
          ['ICCID', '运营商', '备注'],
        ),
      });
      expect(res).toEqual({ imported: 2, errors: [] });
      const rows = await t.db
        .select({ iccid: iotCards.iccid, operator: iotCards.operator, state: iotCards.state })
        .from(iotCards)
        .where(and(eq(iotCards.entId, ent.id), sql`${iotCards.iccid} in (${a}, ${b})`));
      expect(rows.sort((x, y) => x.iccid.localeCompare(y.iccid))).toEqual(
        [
          { iccid: a, operator: 'chinaMobile', state: 'stock' },
          { iccid: b, operator: 'chinaTelecom', state: 'stock' },
        ].sort((x, y) => x.iccid.localeCompare(y.iccid)),
      );
    });
  });

  describe("the market's effects", () => {
    it('activates from activatable states, keeps the first activation, lapses, and reads cards of an order', async () => {
      const now = new Date(t.clock.now());
      const first = new Date(now.getTime() - 30 * DAY);
      const active = await insertCard(t, ent.id, { state: 'activated', activatedAt: first, expiresAt: now });
      const lapsed = await insertCard(t, ent.id, { state: 'lapsed', activatedAt: first });
      const fresh = await insertCard(t, ent.id, { state: 'stock' });
      const suspended = await insertCard(t, ent.id, { state: 'suspended', activatedAt: first });
      const expiresAt = new Date(now.getTime() + 30 * DAY);
      await activateCards(
        t.db,
        [active, lapsed, fresh, suspended].map((id) => ({ id, expiresAt })),
        { name: '10 GB', mb: 10_240 },
        now,
      );
      const rows = await cardsOf(t.db, ent.id, [active, lapsed, fresh, suspended]);
      const by = new Map(rows.map((r) => [r.id, r]));
      expect(by.get(active)?.state).toBe('activated');
      expect(by.get(lapsed)?.state).toBe('activated');
      expect(by.get(fresh)?.state).toBe('activated');
      expect(by.get(suspended)?.state).toBe('suspended');
      const full = await t.db.select().from(iotCards).where(sql`${iotCards.id} in (${active}, ${lapsed}, ${fresh})`);
      const f = new Map(full.map((r) => [r.id, r]));
      expect(f.get(active)?.activatedAt?.getTime()).toBe(first.getTime());
      expect(f.get(lapsed)?.activatedAt?.getTime()).toBe(now.getTime());
      expect(f.get(fresh)?.activatedAt?.getTime()).toBe(now.getTime());
      expect(f.get(fresh)).toMatchObject({ packageName: '10 GB', packageMb: 10_240 });
      expect(f.get(fresh)?.expiresAt?.getTime()).toBe(expiresAt.getTime());
      expect(await cardsOf(t.db, otherEnt.id, [active])).toEqual([]);
      await lapseCards(t.db, [active, suspended, fresh], now);
      const after = new Map((await cardsOf(t.db, ent.id, [active, suspended, fresh])).map((r) => [r.id, r.state]));
      expect([after.get(active), after.get(suspended), after.get(fresh)]).toEqual(['lapsed', 'lapsed', 'lapsed']);
    });
  });

  describe('usage', () => {
    it('counts a batch once; a retry with a mixed batch adds only the new samples; rolls up per card and UTC+8 day', async () => {
      const device = await insertDevice(t, ent, admin.id, 'Usage screen');
      const card = await insertCard(t, ent.id, { state: 'activated', packageMb: 100, deviceId: device.id });
      const now = t.clock.now();
      const batch = [sample(now - 3_600_000, 10 * MB), sample(now - 1_800_000, 20 * MB, { txBytes: 5 * MB })];
      const first = await upload(t, device, batch);
      expect(first.code).toBe(0);
      expect(first.payload).toEqual({ accepted: batch.map((s) => s.id), duplicate: [], rejected: [] });
      const again = await upload(t, device, batch);
      expect(again.payload).toEqual({ accepted: [], duplicate: batch.map((s) => s.id), rejected: [] });
      const extra = sample(now - 600_000, 15 * MB);
      const mixed = await upload(t, device, [batch[0], extra]);
      expect(mixed.payload).toEqual({ accepted: [extra.id], duplicate: [batch[0].id], rejected: [] });
      const rows = await t.db.select().from(flowDays).where(eq(flowDays.deviceId, device.id));
      expect(rows).toEqual([{ entId: ent.id, day: utc8Day(now), deviceId: device.id, cardId: card, bytes: 50 * MB }]);
      const info = await ok<IotCard>(client, endpoints.flowCardInfo, { id: card });
      expect(info).toMatchObject({ usedMb: 50, leftMb: 50 });
      // The traffic filter reads what is left.
      const within = await ok<CardPage>(client, endpoints.flowCardList, { leftMin: 49, leftMax: 51, size: 100 });
      expect(within.data.map((c) => c.id)).toContain(card);
      const outside = await ok<CardPage>(client, endpoints.flowCardList, { leftMin: 51, size: 100 });
      expect(outside.data.map((c) => c.id)).not.toContain(card);
      // Cards without a package are left out when a bound is given.
      expect(outside.data.every((c) => c.packageMb !== null)).toBe(true);
    });

    it('rejects a sample id another device used (it is not counted twice) and starts out of range', async () => {
      const a = await insertDevice(t, ent, admin.id, 'A');
      const b = await insertDevice(t, ent, admin.id, 'B');
      const now = t.clock.now();
      const s = sample(now - 60_000, 1000);
      expect((await upload(t, a, [s])).payload?.accepted).toEqual([s.id]);
      const old = sample(now - (PLAYS_MAX_AGE_DAYS + 1) * DAY, 1000);
      const future = sample(now + 2 * DAY, 1000);
      const res = await upload(t, b, [s, old, future]);
      expect(res.payload).toEqual({ accepted: [], duplicate: [], rejected: [old.id, future.id, s.id] });
      const bRows = await t.db.select().from(flowDays).where(eq(flowDays.deviceId, b.id));
      expect(bRows).toEqual([]);
    });

    it('puts a sample on the card its ICCID names (own enterprise only), else the bound card, else none', async () => {
      const device = await insertDevice(t, ent, admin.id, 'Dual SIM');
      const bound = await insertCard(t, ent.id, { deviceId: device.id });
      const namedIccid = newIccid();
      const named = await insertCard(t, ent.id, { iccid: namedIccid });
      const foreignIccid = newIccid();
      await insertCard(t, otherEnt.id, { iccid: foreignIccid });
      const now = t.clock.now();
      await upload(t, device, [
        sample(now - 60_000, 100, { iccid: namedIccid.toLowerCase() }),
        sample(now - 60_000, 200, { iccid: foreignIccid }),
        sample(now - 60_000, 400),
      ]);
      const lonely = await insertDevice(t, ent, admin.id, 'No SIM');
      await upload(t, lonely, [sample(now - 60_000, 800)]);
      const rows = await t.db
        .select({ deviceId: flowDays.deviceId, cardId: flowDays.cardId, bytes: flowDays.bytes })
        .from(flowDays)
        .where(sql`${flowDays.deviceId} in (${device.id}, ${lonely.id})`);
      expect(rows.sort((x, y) => x.bytes - y.bytes)).toEqual([
        { deviceId: device.id, cardId: named, bytes: 100 },
        { deviceId: device.id, cardId: bound, bytes: 600 },
        { deviceId: lonely.id, cardId: '', bytes: 800 },
      ]);
    });

    it('answers DEVICE_AUTH_FAILED to a wrong password and INVALID_PARAMS to a bad body', async () => {
      const device = await insertDevice(t, ent, admin.id);
      expect((await upload(t, { ...device, password: 'wrong' }, [sample(t.clock.now(), 1)])).code).toBe(
        ErrorCode.DEVICE_AUTH_FAILED,
      );
      expect((await upload(t, device, [])).code).toBe(ErrorCode.INVALID_PARAMS);
    });

    it('the prune job drops samples past PLAYS_MAX_AGE_DAYS + 2 days', async () => {
      const device = await insertDevice(t, ent, admin.id);
      const now = t.clock.now();
      const s = sample(now - (PLAYS_MAX_AGE_DAYS - 1) * DAY, 1);
      await upload(t, device, [s]);
      expect(await pruneSamples(t.db, now)).toBe(0);
      expect(await pruneSamples(t.db, now + 4 * DAY)).toBeGreaterThanOrEqual(1);
      const left = await t.db.select().from(flowSamples).where(eq(flowSamples.id, s.id));
      expect(left).toEqual([]);
    });
  });

  describe('report', () => {
    let report: TestEnterprise;
    let reader: ApiClient;
    let devA: { id: string; password: string };
    let devB: { id: string; password: string };
    let cardA: string;
    const day0 = Date.parse('2026-11-10T02:00:00Z');

    beforeAll(async () => {
      const tenant = await t.tenant();
      report = tenant.ent;
      reader = tenant.client;
      devA = await insertDevice(t, report, tenant.admin.id, 'Alpha');
      devB = await insertDevice(t, report, tenant.admin.id, 'Beta');
      cardA = await insertCard(t, report.id, { deviceId: devA.id });
      // Three days of A (1 MB a day), two of B (2 MB), and B on the evening of day 0 UTC = day 1 UTC+8.
      await upload(
        t,
        devA,
        [0, 1, 2].map((d) => sample(day0 + d * DAY, MB)),
      );
      await upload(t, devB, [sample(day0, 2 * MB), sample(day0 + 2 * DAY, 2 * MB), sample(day0 + 17 * 3_600_000, 7)]);
    });

    it('rows newest day first then heaviest use first, every day in the series, the total', async () => {
      const res = await ok<Report>(reader, endpoints.flowUsageReport, { from: '2026-11-09', to: '2026-11-13' });
      expect(res.data.map((r) => [r.day, r.deviceName, r.bytes])).toEqual([
        ['2026-11-12', 'Beta', 2 * MB],
        ['2026-11-12', 'Alpha', MB],
        ['2026-11-11', 'Alpha', MB],
        ['2026-11-11', 'Beta', 7],
        ['2026-11-10', 'Beta', 2 * MB],
        ['2026-11-10', 'Alpha', MB],
      ]);
      expect(res.data[1]).toMatchObject({ cardId: cardA, deviceId: devA.id });
      expect(res.data[0]).toMatchObject({ cardId: null, iccid: null });
      expect(res.series).toEqual([
        { day: '2026-11-09', bytes: 0 },
        { day: '2026-11-10', bytes: 3 * MB },
        { day: '2026-11-11', bytes: MB + 7 },
        { day: '2026-11-12', bytes: 3 * MB },
        { day: '2026-11-13', bytes: 0 },
      ]);
      expect(res).toMatchObject({ total: 6, capped: false, totalBytes: 7 * MB + 7 });
      const page2 = await ok<Report>(reader, endpoints.flowUsageReport, {
        from: '2026-11-09',
        to: '2026-11-13',
        page: 2,
        size: 10,
      });
      expect(page2).toMatchObject({ data: [], total: 6 });
    });

    it('filters by device, card and keyword; the series then sums the filtered rows', async () => {
      const byDevice = await ok<Report>(reader, endpoints.flowUsageReport, {
        from: '2026-11-10',
        to: '2026-11-12',
        deviceId: devB.id,
      });
      expect(byDevice.data.every((r) => r.deviceId === devB.id)).toBe(true);
      expect(byDevice.totalBytes).toBe(4 * MB + 7);
      const byCard = await ok<Report>(reader, endpoints.flowUsageReport, {
        from: '2026-11-10',
        to: '2026-11-12',
        cardId: cardA,
      });
      expect(byCard.series.map((s) => s.bytes)).toEqual([MB, MB, MB]);
      const byKeyword = await ok<Report>(reader, endpoints.flowUsageReport, {
        from: '2026-11-10',
        to: '2026-11-12',
        keyword: 'bet',
      });
      expect(byKeyword.total).toBe(3);
      // Another enterprise sees none of it.
      const foreign = await ok<Report>(other, endpoints.flowUsageReport, { from: '2026-11-10', to: '2026-11-12' });
      expect(foreign.data.filter((r) => r.deviceId === devA.id || r.deviceId === devB.id)).toEqual([]);
    });

    it('refuses a reversed or too long range with a clear message', async () => {
      const reversed = await reader.call(endpoints.flowUsageReport, { from: '2026-11-12', to: '2026-11-10' });
      expect(reversed.envelope.code).toBe(ErrorCode.INVALID_PARAMS);
      expect(reversed.envelope.message).toContain('end date');
      const long = await reader.call(endpoints.flowUsageReport, { from: '2025-01-01', to: '2026-11-10' });
      expect(long.envelope.code).toBe(ErrorCode.INVALID_PARAMS);
      expect(long.envelope.message).toContain('366');
      await ok(reader, endpoints.flowUsageReport, { from: '2025-11-10', to: '2026-11-10' });
    });

    it('counts the total up to FLOW_REPORT_TOTAL_CAP, then says capped', async () => {
      const tenant = await t.tenant();
      await t.db.execute(sql`
        insert into flow_days (ent_id, day, device_id, card_id, bytes)
        select ${tenant.ent.id}, date '2026-11-01', 'dev-' || g, '', 1
        from generate_series(1, ${FLOW_REPORT_TOTAL_CAP + 5}) g`);
      const res = await ok<Report>(tenant.client, endpoints.flowUsageReport, { from: '2026-11-01', to: '2026-11-01' });
      expect(res).toMatchObject({ total: FLOW_REPORT_TOTAL_CAP, capped: true });
      expect(res.data[0].deviceName).toBe('');
    });

    it('exports the report to Excel through the export job', async () => {
      const started = await ok<{ exportId: string; status: string }>(reader, endpoints.flowUsageExportStart, {
        from: '2026-11-09',
        to: '2026-11-13',
      });
      expect(started.exportId).toBeTruthy();
      const { runExport } = await import('../../src/modules/operationLog/exportJob.js');
      await runExport(t.services, started.exportId, t.app.log, true);
      const status = await ok<{ status: string; total: number }>(reader, endpoints.flowUsageExportStatus, {
        exportId: started.exportId,
      });
      expect(status).toMatchObject({ status: 'done', total: 6 });
      const file = await reader.call(endpoints.flowUsageExportDownload, { exportId: started.exportId });
      expect(file.status).toBe(200);
      const { default: ExcelJS } = await import('exceljs');
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load(file.rawPayload as unknown as ArrayBuffer);
      const values = wb.worksheets[0].getSheetValues().filter(Boolean) as unknown[][];
      expect(values.length).toBe(7);
      // The report's order: the day's heaviest first (Beta has no card: an empty ICCID cell).
      expect(values[1].slice(1, 5)).toEqual(['2026-11-12', undefined, 'Beta', '2.00']);
      expect(values[2].slice(1)).toEqual(['2026-11-12', expect.any(String), 'Alpha', '1.00']);
      // Another account of the enterprise cannot read it.
      expect(await codeOf(other, endpoints.flowUsageExportStatus, { exportId: started.exportId })).toBe(
        ErrorCode.NOT_FOUND,
      );
    });
  });

  it('the letter names activated cards near their package end and cards expiring soon', async () => {
    const tenant = await t.tenant();
    const device = await insertDevice(t, tenant.ent, tenant.admin.id);
    const now = t.clock.now();
    const nearIccid = newIccid();
    await insertCard(t, tenant.ent.id, {
      iccid: nearIccid,
      state: 'activated',
      packageMb: 10,
      deviceId: device.id,
      expiresAt: new Date(now + 60 * DAY),
    });
    await insertCard(t, tenant.ent.id, { state: 'activated', packageMb: 1000, expiresAt: new Date(now + 3 * DAY) });
    await insertCard(t, tenant.ent.id, { state: 'activated', packageMb: 1000, expiresAt: new Date(now + 60 * DAY) });
    const before = await ok<string[]>(tenant.client, endpoints.stationLetterList);
    expect(before).toHaveLength(1);
    expect(before[0]).not.toContain(nearIccid);
    expect(before[0]).not.toContain('90%');
    await upload(t, device, [sample(now - 60_000, 9 * MB + MB / 2)]);
    const letters = await ok<string[]>(tenant.client, endpoints.stationLetterList);
    expect(letters).toHaveLength(1);
    expect(letters[0]).toContain('1 IoT card has used 90%');
    expect(letters[0]).toContain('1 IoT card package expires within 15 days');
    expect(letters[0]).toContain(nearIccid);
  });

  it('autoRenew reads the market item of the card', async () => {
    const card = await insertCard(t, ent.id, { state: 'activated', packageMb: 10 });
    const [product] = await t.db
      .insert(marketProducts)
      .values({ kind: 'dataCard', name: '10 MB', prices: [{ months: 1, price: 100 }], dataMbPerMonth: 10 })
      .returning({ id: marketProducts.id });
    const now = new Date(t.clock.now());
    await t.db.insert(marketItems).values({
      entId: ent.id,
      kind: 'dataCard',
      subjectId: card,
      productId: product.id,
      months: 1,
      startsAt: now,
      expiresAt: new Date(now.getTime() + 30 * DAY),
      autoRenew: true,
    });
    expect(await ok<IotCard>(client, endpoints.flowCardInfo, { id: card })).toMatchObject({ autoRenew: true });
    expect(await t.db.select().from(flowEntDays).where(eq(flowEntDays.entId, otherEnt.id))).toEqual([]);
  });
});
