import { randomUUID } from 'node:crypto';
import { ENDPOINT_LIST, type EndpointDef, type PlaysAnswer, USAGE_PATH, type UsageSample } from '@marquee/protocol';
import { expect } from 'vitest';
import { HANDLERS } from '../../src/app.js';
import { devices, iotCards } from '../../src/db/schema/index.js';
import { sha256 } from '../../src/modules/devices/repository.js';
import { defineHandler, type Handler } from '../../src/protocol/handlers.js';
import {
  type ApiClient,
  type Backend,
  createTestApp,
  type TestApp,
  type TestAppOptions,
  type TestEnterprise,
} from '../helpers/index.js';

/**
 * The flow tests' app (issue 27). The market is built beside this module: an endpoint of the
 * catalogue without a handler yet answers a server error here instead of failing the start.
 */
export async function flowTestApp(backend: Backend, options: TestAppOptions = {}): Promise<TestApp> {
  const stubs: Handler[] = ENDPOINT_LIST.filter((def) => !HANDLERS.some((h) => h.def === def)).map((def) =>
    defineHandler(def, {
      handle: () => {
        throw new Error(`${def.name} is not built yet`);
      },
    } as never),
  );
  return createTestApp(backend, { ...options, extraEndpoints: [...(options.extraEndpoints ?? []), ...stubs] });
}

/** A console call that must succeed: its payload. */
export async function ok<T>(client: ApiClient, def: EndpointDef, data: unknown = {}): Promise<T> {
  const res = await client.call(def, data);
  expect(res.envelope.code, res.envelope.message).toBe(0);
  return res.envelope.payload as T;
}

/** A console call's error code (0 when it succeeded). */
export async function codeOf(client: ApiClient, def: EndpointDef, data: unknown = {}): Promise<number> {
  return (await client.call(def, data)).envelope.code;
}

let iccidSeq = 0;
/** A fresh 20-character ICCID (unique per process run). */
export function newIccid(): string {
  iccidSeq++;
  return `8986${String(Date.now() % 1e9).padStart(9, '0')}${String(iccidSeq).padStart(6, '0')}X`.slice(0, 20);
}

/** A device of the enterprise in its root department, with a password the usage call takes. */
export async function insertDevice(
  t: TestApp,
  ent: TestEnterprise,
  ownerId: string,
  name = 'Lobby screen',
): Promise<{ id: string; password: string }> {
  const password = randomUUID();
  const [row] = await t.db
    .insert(devices)
    .values({ entId: ent.id, deptId: ent.depts.root, ownerId, name, secretHash: sha256(password) })
    .returning({ id: devices.id });
  return { id: row.id, password };
}

/** A card of the enterprise, inserted directly (state and package as given). */
export async function insertCard(
  t: TestApp,
  entId: string,
  values: Partial<typeof iotCards.$inferInsert> = {},
): Promise<string> {
  const [row] = await t.db
    .insert(iotCards)
    .values({ entId, iccid: newIccid(), operator: 'chinaMobile', ...values })
    .returning({ id: iotCards.id });
  return row.id;
}

/** POSTs samples to the usage call as the device. */
export async function upload(
  t: TestApp,
  device: { id: string; password: string },
  samples: UsageSample[],
): Promise<{ code: number; payload: PlaysAnswer | null }> {
  const res = await t.app.inject({
    method: 'POST',
    url: USAGE_PATH,
    headers: {
      authorization: `Basic ${Buffer.from(`${device.id}:${device.password}`).toString('base64')}`,
      'content-type': 'application/json',
    },
    payload: JSON.stringify({ samples }),
  });
  return res.json() as { code: number; payload: PlaysAnswer | null };
}

/** A sample of `bytes` (rx) starting at `start`. */
export const sample = (start: number, bytes: number, extra: Partial<UsageSample> = {}): UsageSample => ({
  id: randomUUID(),
  start,
  durationMs: 15 * 60_000,
  rxBytes: bytes,
  txBytes: 0,
  ...extra,
});
