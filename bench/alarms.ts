// One-key alarms (issue 30): from an alarm raised by a device to its contacts' messages queued
// with the sender. On PostgreSQL (BENCH_DATABASE_URL, default
// postgres://postgres@127.0.0.1:5432/postgres; a scratch database is created and dropped), the
// app built in this process and listening on a free port; BENCH_DEVICES kiosks (default 200) in
// one district, one alarm region over that district with 3 contacts (3 SMS and 1 e-mail per
// alarm) and the default sender (the development outbox, a database insert per message).
//
// The device's call answers after the event is stored and its contacts' messages are handed to
// the sender (modules/alarms/http.ts), so the call's latency is "raised to messages queued".
// 1. BENCH_SERIAL alarms (default 100), one after the other from different kiosks.
// 2. A burst: BENCH_BURST alarms (default 100) from as many kiosks at the same moment (a
//    district-wide incident).
// For each: latency p50/p95/max (aim: p95 at most 2 s), and the outbox counted (aim: 4
// messages per alarm). The server side's own figure: each event's last `notified` step minus
// its arrival, p95. Figures, never assertions.
//
//   npx tsx bench/alarms.ts   BENCH_DEVICES=200 BENCH_SERIAL=100 BENCH_BURST=100
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ALARMS_PATH } from '@marquee/protocol';
import { sql } from 'drizzle-orm';
import { alarmContacts, alarmRegions } from '../apps/server/src/db/schema/index.js';
import { sha256 } from '../apps/server/src/modules/devices/repository.js';
import { percentile } from './lib.js';
import { benchApp, load1, ms, operator, rowsOf, scratch, screens } from './sales-lib.js';

const DEVICES = Number(process.env.BENCH_DEVICES ?? 200);
const SERIAL = Number(process.env.BENCH_SERIAL ?? 100);
const BURST = Math.min(Number(process.env.BENCH_BURST ?? 100), DEVICES);
const DISTRICT = '310101';

const s = await scratch('alarms');
try {
  const { entId } = await operator(s.db, 0);
  const fleet = await screens(s.db, entId, DEVICES, 'kiosk');
  await s.db.execute(sql`
    update devices set district_code = ${DISTRICT}, address = 'Bus stop ' || split_part(id, '-', 2)
    where ent_id = ${entId}`);
  const ids = Array.from({ length: DEVICES }, (_, i) => fleet.ids(i + 1));
  for (const id of ids) {
    await s.db.execute(sql`update devices set secret_hash = ${sha256(`pw-${id}`)} where id = ${id}`);
  }
  const [region] = await s.db
    .insert(alarmRegions)
    .values({ entId, name: 'Huangpu', deviceIds: [], regionCodes: [DISTRICT] })
    .returning({ id: alarmRegions.id });
  await s.db.insert(alarmContacts).values([
    { regionId: region.id, entId, name: 'Guard Wang', phone: '13800000001', email: 'wang@example.com', sort: 0 },
    { regionId: region.id, entId, name: 'Guard Li', phone: '13800000002', email: null, sort: 1 },
    { regionId: region.id, entId, name: 'Duty office', phone: '13800000003', email: null, sort: 2 },
  ]);

  const { app } = await benchApp(s);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const port = (app.server.address() as AddressInfo).port;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

  /** One alarm from `deviceId`: the call's latency in ms and its envelope code. */
  const raise = (deviceId: string) =>
    new Promise<{ ms: number; code: number }>((resolve) => {
      const body = JSON.stringify({ id: randomUUID(), at: Date.now() });
      const t0 = performance.now();
      const req = http.request(
        {
          host: '127.0.0.1',
          port,
          path: ALARMS_PATH,
          method: 'POST',
          agent,
          headers: {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
            authorization: `Basic ${Buffer.from(`${deviceId}:pw-${deviceId}`).toString('base64')}`,
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c) => chunks.push(c));
          res.on('end', () => {
            let code = -1;
            try {
              code = Number(JSON.parse(Buffer.concat(chunks).toString()).code);
            } catch {}
            resolve({ ms: performance.now() - t0, code });
          });
        },
      );
      req.on('error', () => resolve({ ms: performance.now() - t0, code: -1 }));
      req.end(body);
    });

  const outboxCount = async () =>
    Number(rowsOf(await s.db.execute(sql`select count(*)::int as n from dev_outbox`))[0].n);
  const serverP95 = async (since: Date) => {
    const rows = rowsOf(
      await s.db.execute(sql`
        select extract(epoch from (max(st.at) - e.received_at)) * 1000 as ms
        from alarm_events e join alarm_steps st on st.event_id = e.id and st.kind = 'notified'
        where e.received_at >= ${since.toISOString()}::timestamptz
        group by e.id, e.received_at`),
    );
    return percentile(
      rows.map((r) => Number(r.ms)).sort((a, b) => a - b),
      95,
    );
  };
  const report = async (name: string, results: { ms: number; code: number }[], since: Date, before: number) => {
    const lat = results.map((r) => r.ms).sort((a, b) => a - b);
    const failed = results.filter((r) => r.code !== 0).length;
    const messages = (await outboxCount()) - before;
    console.log(
      `${name}: ${results.length} alarms, p50 ${ms(percentile(lat, 50))} ms, p95 ${ms(percentile(lat, 95))} ms, ` +
        `max ${ms(lat[lat.length - 1])} ms (aim p95 <= 2000 ms); answers not 0: ${failed}; ` +
        `outbox ${messages} messages (aim ${results.length * 4}); server side received -> last notified p95 ` +
        `${ms(await serverP95(since))} ms; load ${load1()}`,
    );
  };

  // Warm-up: the first call pays for connections and lazy modules.
  await raise(ids[0]);

  let since = new Date();
  let before = await outboxCount();
  const serial: { ms: number; code: number }[] = [];
  for (let i = 0; i < SERIAL; i++) serial.push(await raise(ids[(i + 1) % DEVICES]));
  await report('one after the other', serial, since, before);

  since = new Date();
  before = await outboxCount();
  const burst = await Promise.all(ids.slice(0, BURST).map((id) => raise(id)));
  await report(`a burst of ${BURST} at once`, burst, since, before);

  agent.destroy();
  await app.close();
} finally {
  await s.done();
}
