// Issue 25: what a console client learns about creations cut by a kill. 80 signed
// deviceGroup.create calls are sent at once, the server is killed (SIGKILL) while they run
// and started again on the same database, and every call whose answer was lost is sent again
// under its sequence, as the web client does (docs/protocol.md "Retries"). Prints how many
// committed without an answer, what their retries answered, and the groups that exist.
//   npx tsx bench/kill-retry.ts   (BENCH_DATABASE_URL: a scratch database is created and
//   dropped; BENCH_KILL_AFTER_MS=300: when to kill, after the calls are sent)
import { join } from 'node:path';
import { buildSignedCall, endpoints, type LoginResponse, toQueryString } from '@marquee/protocol';
import { callApi, post, root, scratchDatabase, startServer, stop } from './lib.js';

const CALLS = 80;
const KILL_AFTER_MS = Number(process.env.BENCH_KILL_AFTER_MS ?? 300);
const scratch = await scratchDatabase('mq_kill');
const env = { DATABASE_URL: scratch.url, LOG_LEVEL: 'error' };
const dataDir = join(root, '.tmp/bench-kill-retry');
const { default: pg } = await import('pg');
const db = new pg.Client({ connectionString: scratch.url });
let server = await startServer({ dataDir, fresh: true, env });
try {
  await db.connect();
  const login = await callApi<LoginResponse>(server.port, endpoints.login.path, {
    loginName: 'entadmin',
    password: 'Marquee@2026',
  });
  const token = login.payload.token;
  const run = `${Date.now().toString(36)}`;
  const calls = Array.from({ length: CALLS }, (_, i) => ({ name: `Kill ${run} ${i}`, sequence: `kill-${run}-${i}` }));
  /** One attempt, signed anew each time; null when the answer was lost. */
  const send = async (c: (typeof calls)[number]) => {
    const signed = buildSignedCall(
      { name: c.name },
      { token, language: 'en-US', uuid: `kill-${run}`, sequence: c.sequence, traceKey: `kill-${c.sequence}` },
    );
    const url = `${endpoints.deviceGroupCreate.path}?${toQueryString(signed.query)}`;
    try {
      return JSON.parse((await post(server.port, url, signed.body)).text) as { code: number };
    } catch {
      return null;
    }
  };
  const groups = async () =>
    (
      await db.query<{ n: number; names: number }>(
        'select count(*)::int as n, count(distinct name)::int as names from device_groups where name like $1',
        [`Kill ${run} %`],
      )
    ).rows[0];

  const first = calls.map((c) => send(c));
  await new Promise((r) => setTimeout(r, KILL_AFTER_MS));
  server.child.kill('SIGKILL');
  const answers = await Promise.all(first);
  const lost = calls.filter((_, i) => answers[i] === null);
  const committed = (await groups()).n;
  const answered = answers.filter((a) => a?.code === 0).length;
  console.log(`${CALLS} creations, killed after ${KILL_AFTER_MS} ms: ${answered} answered, ${lost.length} lost`);
  console.log(`committed by the kill: ${committed} (${committed - answered} without an answer)`);

  server = await startServer({ dataDir, env });
  const retries = await Promise.all(lost.map((c) => send(c)));
  const codes: Record<string, number> = {};
  for (const r of retries) codes[String(r?.code ?? 'lost')] = (codes[String(r?.code ?? 'lost')] ?? 0) + 1;
  const after = await groups();
  console.log(`retries of the lost, by code: ${JSON.stringify(codes)}`);
  console.log(`groups now: ${after.n} rows, ${after.names} distinct names (want ${CALLS} and ${CALLS})`);
} finally {
  await db.end();
  await stop(server.child);
  await scratch.drop();
}
