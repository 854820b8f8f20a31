import { networkInterfaces } from 'node:os';
import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { deviceConnections, deviceStatusHistory, devices, serverInstances } from '../../db/schema/index.js';

/**
 * The registry of running server instances and of which instance's embedded broker holds
 * each device's connection (several instances on one PostgreSQL, docs/operations.md). Times
 * of the registry are the database's clock (`now()`), so instances whose clocks differ agree
 * on which of them is alive.
 */

/** How often an instance touches its registry row. */
export const INSTANCE_HEARTBEAT_MS = 5000;
/** An instance not seen for this long is dead: the others resolve its devices' presence. */
export const INSTANCE_DEAD_MS = 3 * INSTANCE_HEARTBEAT_MS;

/**
 * The presence history's reason when a device went offline because the instance holding its
 * connection stopped or was found dead. A heartbeat of the same connection brings such a
 * device back (an instance whose database connection stalled was not dead), as after
 * missed heartbeats.
 */
export const INSTANCE_GONE_REASON = 'instance';

/** Rows of a raw statement, whichever driver ran it (pg's result or PGlite's). */
function rowsOf<T>(result: unknown): T[] {
  return (result as { rows?: T[] }).rows ?? (Array.isArray(result) ? (result as T[]) : []);
}

/** Registers (or re-registers) an instance with the broker URLs devices reach it by. */
export async function registerInstance(db: Executor, id: string, brokerUrls: readonly string[]): Promise<void> {
  await db
    .insert(serverInstances)
    .values({ id, brokerUrls: [...brokerUrls] })
    .onConflictDoUpdate({ target: serverInstances.id, set: { brokerUrls: [...brokerUrls], seenAt: sql`now()` } });
}

/**
 * Touches the instance's row (with its broker URLs, known once it listens) and answers the broker URLs of the other live instances,
 * oldest first. A row that is gone (removed as dead while this instance's database
 * connection stalled) is written again.
 */
export async function touchInstance(db: Executor, id: string, brokerUrls: readonly string[]): Promise<string[]> {
  const touched = await db.execute(
    sql`update ${serverInstances} set seen_at = now(), broker_urls = ${JSON.stringify(brokerUrls)}::jsonb where ${serverInstances.id} = ${id} returning 1`,
  );
  if (rowsOf(touched).length === 0) await registerInstance(db, id, brokerUrls);
  const result = await db.execute(sql`
    select broker_urls from ${serverInstances}
    where ${serverInstances.id} <> ${id} and seen_at > now() - make_interval(secs => ${INSTANCE_DEAD_MS / 1000})
    order by started_at, ${serverInstances.id}`);
  return rowsOf<{ broker_urls: string[] | string }>(result).flatMap((r) =>
    typeof r.broker_urls === 'string' ? (JSON.parse(r.broker_urls) as string[]) : r.broker_urls,
  );
}

/** Instances not seen for INSTANCE_DEAD_MS (other than `self`). */
export async function deadInstances(db: Executor, self: string): Promise<string[]> {
  const result = await db.execute(sql`
    select id from ${serverInstances}
    where id <> ${self} and seen_at < now() - make_interval(secs => ${INSTANCE_DEAD_MS / 1000})`);
  return rowsOf<{ id: string }>(result).map((r) => r.id);
}

/** Records that `instanceId`'s broker holds the device's connection `session` (in the presence transaction). */
export async function recordConnection(db: Executor, deviceId: string, instanceId: string, session: number) {
  await db
    .insert(deviceConnections)
    .values({ deviceId, instanceId, session })
    .onConflictDoUpdate({ target: deviceConnections.deviceId, set: { instanceId, session } });
}

/** Forgets the device's connection `session` (its will or shutdown was applied). */
export async function dropConnection(db: Executor, deviceId: string, session: number) {
  await db.execute(sql`delete from ${deviceConnections} where device_id = ${deviceId} and session <= ${session}`);
}

/**
 * The devices an instance held go offline at once (reason INSTANCE_GONE_REASON),
 * in one statement, when that instance stops or is found dead: those still online by the
 * same connection (a device already back through another instance has a newer state_ts,
 * checked again on its row locked, so it is left alone). Then the instance's connections and
 * its registry row are removed. Returns how many devices went offline.
 */
export async function releaseInstance(db: Executor, instanceId: string, at: Date): Promise<number> {
  return db.transaction(async (tx) => {
    const result = await tx.execute(sql`
      with gone as (
        update ${devices} as d set status = 'offline', status_at = ${at}, updated_at = ${at}
        from ${deviceConnections} as c
        where c.instance_id = ${instanceId} and c.device_id = d.id and d.status = 'online' and d.state_ts = c.session
        returning d.id as id, d.ent_id as ent_id
      )
      insert into ${deviceStatusHistory} (id, ent_id, device_id, status, reason, at)
      select gen_random_uuid()::text, ent_id, id, 'offline', ${INSTANCE_GONE_REASON}, ${at} from gone
      returning 1`);
    await tx.execute(sql`delete from ${deviceConnections} where instance_id = ${instanceId}`);
    await tx.execute(sql`delete from ${serverInstances} where id = ${instanceId}`);
    return rowsOf(result).length;
  });
}

/** Whether `host` is a wildcard listen address (every interface). */
function wildcard(host: string): boolean {
  return host === '' || host === '0.0.0.0' || host === '::' || host === '[::]';
}

/** The machine's first non-internal IPv4 address (how other machines on its network reach it). */
function lanAddress(): string | undefined {
  for (const list of Object.values(networkInterfaces())) {
    for (const a of list ?? []) if (a.family === 'IPv4' && !a.internal) return a.address;
  }
  return undefined;
}

/**
 * Where devices reach this instance's embedded broker directly: MQTT_INSTANCE_URLS, else
 * the listen address (HOST, or the machine's LAN address when HOST is every interface) with
 * the HTTP port (WebSocket at /mqtt) and MQTT_TCP_PORT.
 */
export function instanceBrokerUrls(
  configured: readonly string[] | undefined,
  host: string,
  httpPort: number,
  tcpPort: number,
): string[] {
  if (configured && configured.length > 0) return [...configured];
  if (httpPort <= 0) return [];
  const address = wildcard(host) ? (lanAddress() ?? '127.0.0.1') : host;
  const h = address.includes(':') && !address.startsWith('[') ? `[${address}]` : address;
  return [`ws://${h}:${httpPort}/mqtt`, ...(tcpPort > 0 ? [`mqtt://${h}:${tcpPort}`] : [])];
}
