import { createHmac, randomUUID } from 'node:crypto';
import type { Server as HttpServer } from 'node:http';
import {
  type Command,
  commandAckSchema,
  DeviceTopic,
  deviceStateSchema,
  deviceTopic,
  findUnsafeValue,
  fleetFilter,
  heartbeatSchema,
  parseDeviceTopic,
  sharedFilter,
  TOPIC_QOS,
} from '@marquee/protocol';
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.js';
import type { Executor } from '../../db/client.js';
import { isTransient } from '../../db/errors.js';
import type { InvalidationBus } from '../../db/invalidation.js';
import { deviceCommands, deviceStatusHistory, devices } from '../../db/schema/index.js';
import { type BrokerAccounts, DynsecAccounts, NoBrokerAccounts } from '../../mqtt/accounts.js';
import type { DeviceBus } from '../../mqtt/bus.js';
import { EmbeddedBroker, EmbeddedBus } from '../../mqtt/embedded.js';
import { ExternalBus } from '../../mqtt/external.js';
import { DeviceAccess } from './access.js';
import { type ChannelDevice, type DeviceChannelListener, DeviceChannelListeners } from './channel.js';
import { issueField } from './deviceApi.js';
import { DownloadReports, recordDownloads } from './downloads.js';
import {
  deadInstances,
  dropConnection,
  INSTANCE_GONE_REASON,
  INSTANCE_HEARTBEAT_MS,
  instanceBrokerUrls,
  recordConnection,
  registerInstance,
  releaseInstance,
  touchInstance,
} from './instances.js';
import { expireCommands, markSent, openCommands, setPresence } from './repository.js';

/** The invalidation topic on which instances tell the broker's owner to close devices' connections. */
export const DEVICE_ACCESS_TOPIC = 'device-access';

/**
 * The invalidation topic on which an instance hands stored commands (their ids) to the
 * instance whose embedded broker holds the device's connection (several instances).
 */
export const DEVICE_COMMAND_TOPIC = 'device-command';
/** The invalidation topic on which an instance says it started listening or stopped: the others refresh the registry. */
export const SERVER_INSTANCES_TOPIC = 'server-instances';
/** At most this many command ids per relay message (a NOTIFY payload is under 8,000 bytes). */
const RELAY_IDS_MAX = 150;

/** How often the gateway logs the device messages it handled ('device messages', operations.md). */
export const GATEWAY_STATS_MS = 60_000;

/** How long heartbeats wait to be written together (one UPDATE per tick). */
export const HEARTBEAT_FLUSH_MS = 200;
/** How many times a presence change is tried when the database asks to try again (a deadlock). */
const PRESENCE_ATTEMPTS = 3;
/** At most this many heartbeats per UPDATE (16 parameters each). */
const HEARTBEAT_BATCH_MAX = 1000;

/** The columns a heartbeat reports. */
interface HeartbeatValues {
  lastSeenAt: Date;
  playerVersion: string;
  firmware: string | null;
  model: string | null;
  /** Absent (an empty report): the stored value stays (the pairing's address, an earlier report). */
  ip: string | undefined;
  mac: string | undefined;
  storageUsed: number;
  storageFree: number;
  screenWidth: number;
  screenHeight: number;
  screenOn: number;
  volume: number;
  brightness: number;
  uptimeSec: number | null;
}

interface PendingHeartbeat {
  deviceId: string;
  session: number;
  values: HeartbeatValues;
  /** true: written by the batch; false: the device needs the one-by-one path. */
  done: (written: boolean) => void;
}

/** A stored command, as published. */
type CommandRow = typeof deviceCommands.$inferSelect;

/** The command message of a stored command (docs/device-protocol.md). */
export function commandMessage(row: CommandRow): Command {
  return {
    v: 1,
    id: row.id,
    ts: row.createdAt.getTime(),
    expiresAt: row.expiresAt.getTime(),
    kind: row.kind,
    params: row.params,
  } as Command;
}

/** The server's own broker credentials: MQTT_USERNAME/PASSWORD, or derived from the server secret. */
export function internalCredentials(config: Config, secret: string): { username: string; password: string } {
  if (config.mqtt.username) return { username: config.mqtt.username, password: config.mqtt.password };
  return {
    username: 'marquee-server',
    password: createHmac('sha256', secret).update('mqtt-internal').digest('base64url'),
  };
}

export interface GatewayOptions {
  config: Config;
  db: Executor;
  clock: () => number;
  log: FastifyBaseLogger;
  secret: string;
}

/**
 * The server's end of the device channel: the broker (embedded, or an external one reached
 * as the internal client), presence and heartbeats into the registry, acks into the command
 * store, and command delivery (publish at QoS 1, resend of open commands whenever a device
 * says it is online). One per app instance.
 */
export class DeviceGateway {
  readonly access: DeviceAccess;
  broker: EmbeddedBroker | null = null;
  bus: DeviceBus | null = null;
  accounts: BrokerAccounts = NoBrokerAccounts;
  /** The embedded broker's TCP port once listening (0: none). */
  tcpPort = 0;
  /** Relay messages of other instances this instance handled (DEVICE_COMMAND_TOPIC; tests). */
  relayed = 0;
  /** Device messages this instance handled, by leaf (figures; the two-instance test). */
  readonly handled = { state: 0, hb: 0, ack: 0, cmd: 0 };
  private readonly db: Executor;
  private readonly clock: () => number;
  private readonly log: FastifyBaseLogger;

  /** What the modules hear of device messages (channel.ts; registered by app.ts). */
  private readonly listeners = new DeviceChannelListeners();

  constructor(private readonly options: GatewayOptions) {
    this.db = options.db;
    this.clock = options.clock;
    this.log = options.log;
    this.access = new DeviceAccess(options.db, internalCredentials(options.config, options.secret));
  }

  /** Registers a module's listener of heartbeats and acks (before the broker starts). */
  listen(listener: DeviceChannelListener): void {
    this.listeners.add(listener);
  }

  get embedded(): boolean {
    return !this.options.config.mqtt.url;
  }

  private invalidation: InvalidationBus | null = null;
  /** This instance in the registry (modules/devices/instances.ts): the invalidation bus's id once joined. */
  instanceId: string = randomUUID();
  /** The broker URLs of the other live instances, refreshed with each registry heartbeat (credentials). */
  peerBrokerUrls: string[] = [];
  /** Where devices reach this instance's embedded broker, once the HTTP server listens. */
  private ownBrokerUrls: string[] = [];
  private registryTimer: NodeJS.Timeout | null = null;

  /**
   * Joins the instances' invalidation channel: a device deleted or disabled on any instance
   * loses its live connection on the instance whose embedded broker holds it, and a command
   * stored on any instance is published by the instance whose broker holds its device.
   */
  connectInvalidation(bus: InvalidationBus): void {
    this.invalidation = bus;
    this.instanceId = bus.instanceId;
    bus.subscribe(DEVICE_ACCESS_TOPIC, {
      evict: (_kind, id) => void this.broker?.disconnect(id),
      evictAll: () => {},
    });
    bus.subscribe(SERVER_INSTANCES_TOPIC, {
      evict: () => void this.registryTick(),
      evictAll: () => void this.registryTick(),
    });
    bus.subscribe(DEVICE_COMMAND_TOPIC, {
      evict: (_kind, ids) => {
        this.deliverHeld(ids.split(','))
          .catch((error) => this.log.error({ err: error }, 'command relay failed'))
          .finally(() => this.relayed++);
      },
      // The channel was down: relayed commands may have been missed; send the pending ones of
      // the devices held here.
      evictAll: () => {
        this.sweepHeld().catch((error) => this.log.error({ err: error }, 'command sweep failed'));
      },
    });
  }

  /**
   * Ends the broker access of deleted or disabled devices, once their new state is committed
   * (a reconnection is then refused by `access`): the embedded broker closes their live
   * connections here and on the other instances; Mosquitto's dynsec client was removed or
   * disabled in the call's transaction (which kicks it); EMQX asks `access` at each
   * connection and authorization.
   */
  cutOff(deviceIds: readonly string[]): void {
    for (const id of deviceIds) {
      this.broker?.disconnect(id);
      this.invalidation?.publish(DEVICE_ACCESS_TOPIC, 'device', id);
    }
  }

  /** Starts the broker or connects to the external one, then consumes the fleet's messages. */
  async start(server: HttpServer): Promise<void> {
    const { config } = this.options;
    const leaves = [DeviceTopic.state, DeviceTopic.heartbeat, DeviceTopic.ack] as const;
    if (this.embedded) {
      const broker = new EmbeddedBroker(this.access, this.log);
      await broker.start();
      broker.attachWebSocket(server);
      this.broker = broker;
      this.bus = new EmbeddedBus(broker);
      await this.bus.consume(
        leaves.map((leaf) => fleetFilter(leaf)),
        (topic, payload) => this.onMessage(topic, payload),
      );
      await this.startRegistry(server);
    } else {
      const bus = await ExternalBus.connect(
        config.mqtt.url,
        internalCredentials(config, this.options.secret),
        this.log,
      );
      this.bus = bus;
      if (config.mqtt.dynsec) {
        const dynsec = new DynsecAccounts(bus);
        await dynsec.ensureServerRole(internalCredentials(config, this.options.secret).username);
        this.accounts = dynsec;
      }
      await bus.consume(
        leaves.map((leaf) => sharedFilter(leaf)),
        (topic, payload) => this.onMessage(topic, payload),
      );
    }
    this.log.info({ broker: this.bus.description }, 'device channel started');
    this.startStats();
  }

  private statsTimer: NodeJS.Timeout | null = null;

  /**
   * Every GATEWAY_STATS_MS, one info line of the device messages handled since the last one
   * and the heartbeats per second (nothing when none came): how much of the fleet this
   * instance consumes (bench/devices.ts reads it).
   */
  private startStats(): void {
    let last = { ...this.handled };
    let lastAt = performance.now();
    this.statsTimer = setInterval(() => {
      const now = performance.now();
      const delta = {
        state: this.handled.state - last.state,
        hb: this.handled.hb - last.hb,
        ack: this.handled.ack - last.ack,
      };
      const sec = Math.max(now - lastAt, 1) / 1000;
      last = { ...this.handled };
      lastAt = now;
      if (delta.state + delta.hb + delta.ack === 0) return;
      this.log.info(
        { handled: delta, heartbeatsPerSec: Math.round((delta.hb / sec) * 10) / 10, windowSec: Math.round(sec) },
        'device messages',
      );
    }, GATEWAY_STATS_MS);
    this.statsTimer.unref();
  }

  /**
   * Registers this instance (the embedded broker: several instances each hold their own
   * devices' connections), with its broker URLs once the HTTP server listens, and every
   * INSTANCE_HEARTBEAT_MS touches its row, learns the other instances' broker URLs and
   * releases the devices of instances found dead.
   */
  private async startRegistry(server: HttpServer): Promise<void> {
    const { config } = this.options;
    const advertise = () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      this.ownBrokerUrls = instanceBrokerUrls(config.mqtt.instanceUrls, config.host, port, this.tcpPort);
    };
    await registerInstance(this.db, this.instanceId, this.ownBrokerUrls);
    server.once('listening', () => {
      advertise();
      // The TCP listener starts in an onListen hook, after this event.
      setImmediate(
        () =>
          void this.tcpListening
            .catch(() => {})
            .then(async () => {
              advertise();
              await this.registryTick();
              this.invalidation?.publish(SERVER_INSTANCES_TOPIC, 'instance', this.instanceId);
            }),
      );
    });
    if (server.listening) advertise();
    this.registryTimer = setInterval(() => void this.registryTick(), INSTANCE_HEARTBEAT_MS);
    this.registryTimer.unref();
  }

  private registryBusy = false;

  private async registryTick(): Promise<void> {
    if (this.registryBusy || !this.broker) return;
    this.registryBusy = true;
    try {
      this.peerBrokerUrls = await touchInstance(this.db, this.instanceId, this.ownBrokerUrls);
      for (const dead of await deadInstances(this.db, this.instanceId)) {
        const released = await releaseInstance(this.db, dead, new Date(this.clock()));
        this.log.warn({ instance: dead, devices: released }, 'server instance gone; its devices released');
      }
    } catch (error) {
      this.log.warn({ err: error }, 'instance registry not updated');
    } finally {
      this.registryBusy = false;
    }
  }

  /** The embedded broker's TCP listener (MQTT_TCP_PORT), once the HTTP server listens. */
  listenTcp(host: string): Promise<void> {
    const port = this.options.config.mqtt.tcpPort;
    const broker = this.broker;
    if (!broker || port <= 0) return Promise.resolve();
    this.tcpListening = broker.listenTcp(port, host).then((bound) => {
      this.tcpPort = bound;
      this.log.info({ port: bound }, 'mqtt tcp listening');
    });
    return this.tcpListening;
  }

  /** Settles once the TCP listener is up (Fastify does not wait for onListen hooks). */
  tcpListening: Promise<void> = Promise.resolve();

  async close(): Promise<void> {
    const bus = this.bus;
    const broker = this.broker;
    this.bus = null;
    this.broker = null;
    if (this.statsTimer) clearInterval(this.statsTimer);
    this.statsTimer = null;
    if (this.registryTimer) clearInterval(this.registryTimer);
    this.registryTimer = null;
    await bus?.close();
    // The messages received before the bus closed finish before the database does (a fleet's
    // last wills arriving during a shutdown were written to a closed pool).
    await Promise.allSettled([...this.chains.values()]);
    await this.flushHeartbeats();
    if (broker) {
      // The devices whose connections this broker holds go offline now, not after their missed
      // heartbeats; they come back through another instance's broker (their credentials name
      // every instance's).
      try {
        const released = await releaseInstance(this.db, this.instanceId, new Date(this.clock()));
        this.invalidation?.publish(SERVER_INSTANCES_TOPIC, 'instance', this.instanceId);
        if (released > 0) this.log.info({ devices: released }, 'devices released at stop');
      } catch (error) {
        this.log.warn({ err: error }, 'devices not released at stop');
      }
    }
    await broker?.close();
    await Promise.allSettled([...this.chains.values()]);
  }

  /** Per device, the end of its chain of messages being handled (they are handled in arrival order). */
  private readonly chains = new Map<string, Promise<void>>();

  /** One message of a device, after the device's previous ones; bad payloads are logged and dropped. */
  onMessage(topic: string, payload: Buffer): Promise<void> {
    const parsed = parseDeviceTopic(topic);
    if (!parsed) return Promise.resolve();
    const previous = this.chains.get(parsed.deviceId) ?? Promise.resolve();
    this.handled[parsed.leaf]++;
    const next = previous.then(() => this.handle(parsed, topic, payload));
    this.chains.set(parsed.deviceId, next);
    void next.finally(() => {
      if (this.chains.get(parsed.deviceId) === next) this.chains.delete(parsed.deviceId);
    });
    return next;
  }

  private async handle(
    parsed: NonNullable<ReturnType<typeof parseDeviceTopic>>,
    topic: string,
    payload: Buffer,
  ): Promise<void> {
    let json: unknown;
    try {
      json = JSON.parse(payload.toString('utf8'));
    } catch {
      this.log.warn({ topic }, 'device message is not JSON');
      return;
    }
    // A NUL or a lone surrogate in any string (or key) of any message: PostgreSQL cannot store
    // it; the message is dropped as a malformed one is, naming the field.
    const unsafe = findUnsafeValue(json);
    if (unsafe) return void this.log.warn({ topic, field: unsafe.path, reason: unsafe.reason }, 'bad device message');
    try {
      if (parsed.leaf === 'state') await this.onState(parsed.deviceId, json);
      else if (parsed.leaf === 'hb') await this.onHeartbeat(parsed.deviceId, json);
      else if (parsed.leaf === 'ack') await this.onAck(parsed.deviceId, json);
    } catch (error) {
      this.log.error({ err: error, topic }, 'device message failed');
    }
  }

  /**
   * A presence transaction, tried again when the database asks (a deadlock with another writer
   * of the same department's counters: its devices going online and offline at once). A will
   * dropped here would leave the device shown online until its missed heartbeats.
   */
  private async presenceTransaction<T>(work: (tx: Executor) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.db.transaction((tx) => work(tx));
      } catch (error) {
        if (!isTransient(error) || attempt >= PRESENCE_ATTEMPTS) throw error;
        this.log.warn({ err: error, attempt }, 'device presence tried again');
      }
    }
  }

  private async loadDevice(deviceId: string, db: Executor = this.db, lock = false) {
    const query = db
      .select({
        id: devices.id,
        entId: devices.entId,
        status: devices.status,
        stateTs: devices.stateTs,
        statusAt: devices.statusAt,
      })
      .from(devices)
      .where(eq(devices.id, deviceId));
    const [device] = lock ? await query.for('update') : await query;
    return device;
  }

  /**
   * Retained online state (connect) or the last will (offline). Decided on the device's row
   * locked: with server instances sharing the fleet's subscription, a device's online state
   * and its will may be handled by two of them at once, and the later one to lock decides
   * with what the earlier one wrote.
   */
  private async onState(deviceId: string, json: unknown): Promise<void> {
    const state = deviceStateSchema.safeParse(json);
    if (!state.success) return void this.log.warn({ deviceId, field: issueField(state.error) }, 'bad device state');
    const s = state.data;
    const at = new Date(this.clock());
    const redeliver = await this.presenceTransaction(async (tx) => {
      const device = await this.loadDevice(deviceId, tx, true);
      if (!device || device.status === 'invalid') return false;
      // A state older than the one applied (the will of a replaced connection) changes nothing;
      // the online state of a connection already seen (by its heartbeats) resends nothing.
      if (device.stateTs !== null && s.ts < device.stateTs) return false;
      // The connection's will (or its shutdown) is its last word: its own online state, handled
      // after it (by another instance, or redelivered as the retained message), changes nothing.
      if (s.online && s.ts === device.stateTs && device.status === 'offline') return false;
      const newConnection = device.stateTs === null || s.ts > device.stateTs;
      await tx
        .update(devices)
        .set({
          stateTs: s.ts,
          ...(s.online ? { lastSeenAt: at } : {}),
          ...(s.player
            ? { playerVersion: s.player.version, firmware: s.player.firmware ?? null, model: s.player.model ?? null }
            : {}),
        })
        .where(eq(devices.id, deviceId));
      const reason = s.online ? 'connect' : s.reason === 'lost' ? 'will' : (s.reason ?? 'will');
      await setPresence(tx, device, s.online ? 'online' : 'offline', reason, at);
      if (this.broker) {
        if (s.online) await recordConnection(tx, deviceId, this.instanceId, s.ts);
        else await dropConnection(tx, deviceId, s.ts);
      }
      return s.online && newConnection;
    });
    if (redeliver) await this.redeliver(deviceId);
  }

  /**
   * A heartbeat: the reported fields and last seen; a device not yet online becomes online.
   * The heartbeat of a connection already seen (the common case: every device every 30 s)
   * joins the tick's batch, written by one UPDATE for all of them; one that the batch did not
   * write (a new connection, a disabled or unknown device) takes the one-by-one path.
   */
  private async onHeartbeat(deviceId: string, json: unknown): Promise<void> {
    const hb = heartbeatSchema.safeParse(json);
    if (!hb.success) return void this.log.warn({ deviceId, field: issueField(hb.error) }, 'bad heartbeat');
    const h = hb.data;
    const values: HeartbeatValues = {
      lastSeenAt: new Date(this.clock()),
      playerVersion: h.player.version,
      firmware: h.player.firmware ?? null,
      model: h.player.model ?? null,
      ip: h.net.ip || undefined,
      mac: h.net.mac || undefined,
      storageUsed: Math.round(h.storage.usedBytes),
      storageFree: Math.round(h.storage.freeBytes),
      screenWidth: h.screen.width,
      screenHeight: h.screen.height,
      screenOn: h.screen.on ? 1 : 0,
      volume: h.volume,
      brightness: h.brightness,
      uptimeSec: h.uptimeSec ?? null,
    };
    // The device's row, read once for the listeners and the download states below.
    let loaded: Promise<ChannelDevice | undefined> | undefined;
    const device = () => {
      loaded ??= this.loadDevice(deviceId).then((d) => (d && d.status !== 'invalid' ? d : undefined));
      return loaded;
    };
    // The modules' listeners (gather's audience, ads' download times: app.ts).
    await this.listeners.heartbeat({ db: this.db, deviceId, heartbeat: h, at: values.lastSeenAt, device });
    // Download states (2.7.1): stored only when they differ from what this instance stored last.
    const content = h.content;
    if (content && this.downloadReports.changed(deviceId, content)) {
      const known = await device();
      if (known) {
        await recordDownloads(this.db, known, content, values.lastSeenAt);
        this.downloadReports.stored(deviceId, content);
      }
    }
    const written = await new Promise<boolean>((done) =>
      this.queueHeartbeat({ deviceId, session: h.session, values, done }),
    );
    if (!written) await this.heartbeatOneByOne(deviceId, h.session, values);
  }

  /** The download content this instance stored last per device (not written again). */
  private readonly downloadReports = new DownloadReports();
  private heartbeats: PendingHeartbeat[] = [];
  private heartbeatTimer: NodeJS.Timeout | null = null;

  private queueHeartbeat(item: PendingHeartbeat): void {
    this.heartbeats.push(item);
    if (this.heartbeats.length >= HEARTBEAT_BATCH_MAX) void this.flushHeartbeats();
    else this.heartbeatTimer ??= setTimeout(() => void this.flushHeartbeats(), HEARTBEAT_FLUSH_MS);
  }

  /**
   * Writes the queued heartbeats with one UPDATE ... FROM (VALUES ...): only rows of a
   * connection already applied (state_ts set and not older than the heartbeat's session) of a
   * device not disabled; last_seen_at never moves back. The others (not returned) go one by
   * one. A device's messages are handled in order (onMessage), so a batch holds one heartbeat
   * per device.
   */
  async flushHeartbeats(): Promise<void> {
    if (this.heartbeatTimer) clearTimeout(this.heartbeatTimer);
    this.heartbeatTimer = null;
    const batch = this.heartbeats;
    this.heartbeats = [];
    if (batch.length === 0) return;
    const rows = batch.map(({ deviceId, session, values: v }) => {
      return sql`(${deviceId}::text, ${session}::bigint, ${v.lastSeenAt.toISOString()}::timestamptz, ${v.playerVersion}::text, ${v.firmware}::text, ${v.model}::text, ${v.ip ?? null}::text, ${v.mac ?? null}::text, ${v.storageUsed}::bigint, ${v.storageFree}::bigint, ${v.screenWidth}::integer, ${v.screenHeight}::integer, ${v.screenOn}::integer, ${v.volume}::integer, ${v.brightness}::integer, ${v.uptimeSec}::integer)`;
    });
    let written = new Set<string>();
    try {
      const result = (await this.db.execute(sql`
        update ${devices} as d set
          last_seen_at = greatest(d.last_seen_at, v.at), player_version = v.player_version, firmware = v.firmware,
          model = v.model, ip = coalesce(v.ip, d.ip), mac = coalesce(v.mac, d.mac), storage_used = v.storage_used, storage_free = v.storage_free,
          screen_width = v.screen_width, screen_height = v.screen_height, screen_on = v.screen_on,
          volume = v.volume, brightness = v.brightness, uptime_sec = v.uptime_sec
        from (values ${sql.join(rows, sql`, `)}) as v(id, session, at, player_version, firmware, model, ip, mac,
          storage_used, storage_free, screen_width, screen_height, screen_on, volume, brightness, uptime_sec)
        where d.id = v.id and d.status = 'online' and d.state_ts is not null and v.session <= d.state_ts
        returning d.id`)) as unknown as { rows: { id: string }[] };
      written = new Set(result.rows.map((r) => r.id));
    } catch (error) {
      this.log.error({ err: error, heartbeats: batch.length }, 'heartbeat batch failed; writing them one by one');
    }
    for (const item of batch) item.done(written.has(item.deviceId));
  }

  /**
   * A heartbeat the batch did not write: a new connection (online, open commands resent), or
   * nothing. Decided on the device's row locked, as a state is (onState).
   */
  private async heartbeatOneByOne(deviceId: string, session: number, values: HeartbeatValues): Promise<void> {
    const at = values.lastSeenAt;
    const redeliver = await this.presenceTransaction(async (tx) => {
      const device = await this.loadDevice(deviceId, tx, true);
      if (!device || device.status === 'invalid') return false;
      // A heartbeat of a connection whose online state was not seen yet (it was lost, e.g. no
      // server consumed it during a restart, or it is still on its way) stands for it: the
      // device is online and its open commands are resent. A heartbeat of the connection the
      // last state belongs to (late, after its will) changes only the reported fields.
      const newConnection = device.stateTs === null || session > device.stateTs;
      if (!newConnection) {
        await tx.update(devices).set(values).where(eq(devices.id, deviceId));
        // Written offline by the offline job (missed heartbeats) while the connection lived on
        // (a network stall): its heartbeats bring it back. Offline by its will or shutdown: late.
        // A heartbeat received before the job wrote it (it waited for the batch) is late too.
        if (device.status === 'offline' && at > device.statusAt && (await offlineByTimeout(tx, deviceId))) {
          await setPresence(tx, device, 'online', 'heartbeat', at);
          if (this.broker) await recordConnection(tx, deviceId, this.instanceId, session);
        }
        return false;
      }
      await tx
        .update(devices)
        .set({ ...values, stateTs: session })
        .where(eq(devices.id, deviceId));
      await setPresence(tx, device, 'online', 'heartbeat', at);
      if (this.broker) await recordConnection(tx, deviceId, this.instanceId, session);
      return true;
    });
    if (redeliver) await this.redeliver(deviceId);
  }

  /** A command's ack: acknowledged or failed, once (a repeated ack changes nothing). */
  private async onAck(deviceId: string, json: unknown): Promise<void> {
    const ack = commandAckSchema.safeParse(json);
    if (!ack.success) return void this.log.warn({ deviceId, field: issueField(ack.error) }, 'bad ack');
    const a = ack.data;
    // A listener may refuse an 'ok' (screenshots: it must name the upload of its command,
    // docs/device-protocol.md 2.5): the command fails with the listener's error.
    if (a.result === 'ok') {
      const error = await this.listeners.ackError(this.db, deviceId, a);
      if (error) {
        a.result = 'error';
        a.error = error;
      }
    }
    await this.db
      .update(deviceCommands)
      .set({
        state: a.result === 'ok' ? 'acknowledged' : 'failed',
        ackedAt: new Date(this.clock()),
        errorCode: a.error?.code ?? null,
        errorMessage: a.error?.message ?? null,
        result: a.data ?? null,
      })
      .where(
        and(
          eq(deviceCommands.id, a.id),
          eq(deviceCommands.deviceId, deviceId),
          inArray(deviceCommands.state, ['pending', 'sent']),
        ),
      );
    // What modules keep of acks (upgrades' progress); the commands they store go out now.
    await this.dispatch(await this.listeners.ack(this.db, deviceId, a));
  }

  /**
   * Publishes one stored command (QoS 1) and marks it sent; false when the broker refused,
   * or, with the embedded broker, when the device's connection is not held here (the
   * command is not sent: another instance's broker holds it, or the device is offline).
   */
  async publishCommand(row: CommandRow): Promise<boolean> {
    const bus = this.bus;
    if (!bus) return false;
    const topic = deviceTopic(row.deviceId, 'cmd');
    if (this.broker && !this.broker.holds(row.deviceId, topic)) return false;
    try {
      await bus.publish(topic, JSON.stringify(commandMessage(row)), TOPIC_QOS.cmd);
    } catch (error) {
      this.log.warn({ err: error, command: row.id }, 'command publish failed');
      return false;
    }
    await markSent(this.db, row.id, new Date(this.clock()));
    return true;
  }

  /**
   * Sends stored commands to their devices now, where the device is connected; the others
   * wait for the device's next online state (redeliver). With the embedded broker a command
   * whose device's connection another instance holds is handed to the instances over the
   * LISTEN/NOTIFY channel (DEVICE_COMMAND_TOPIC), and the one that holds it publishes it;
   * with an external broker any instance publishes to any device shown online.
   */
  async dispatch(ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    if (this.broker) {
      const elsewhere = await this.deliverHeld(ids);
      for (let i = 0; i < elsewhere.length; i += RELAY_IDS_MAX) {
        this.invalidation?.publish(DEVICE_COMMAND_TOPIC, 'commands', elsewhere.slice(i, i + RELAY_IDS_MAX).join(','));
      }
      return;
    }
    const rows = await this.db
      .select({ command: deviceCommands, status: devices.status })
      .from(deviceCommands)
      .innerJoin(devices, eq(devices.id, deviceCommands.deviceId))
      .where(and(inArray(deviceCommands.id, [...ids]), eq(deviceCommands.state, 'pending')));
    for (const { command, status } of rows) {
      if (status === 'online') await this.publishCommand(command);
    }
  }

  /**
   * Publishes the pending commands among `ids` whose devices' connections this instance's
   * broker holds; answers the ids of the others whose devices are shown online (another
   * instance's broker may hold them). A device offline everywhere gets its commands when its
   * online state arrives: the instance that writes it online then reads its open commands.
   */
  async deliverHeld(ids: readonly string[]): Promise<string[]> {
    const broker = this.broker;
    if (!broker || ids.length === 0) return [];
    const rows = await this.db
      .select({ command: deviceCommands, status: devices.status })
      .from(deviceCommands)
      .innerJoin(devices, eq(devices.id, deviceCommands.deviceId))
      .where(and(inArray(deviceCommands.id, [...ids]), eq(deviceCommands.state, 'pending')));
    const elsewhere: string[] = [];
    for (const { command, status } of rows) {
      if (!(await this.publishCommand(command)) && status === 'online') elsewhere.push(command.id);
    }
    return elsewhere;
  }

  /** Sends the pending commands of every device whose connection this instance's broker holds. */
  async sweepHeld(): Promise<void> {
    const broker = this.broker;
    if (!broker) return;
    const held = broker.clientIds();
    const now = this.clock();
    for (let i = 0; i < held.length; i += 1000) {
      const rows = await this.db
        .select()
        .from(deviceCommands)
        .where(and(inArray(deviceCommands.deviceId, held.slice(i, i + 1000)), eq(deviceCommands.state, 'pending')))
        .orderBy(deviceCommands.createdAt, deviceCommands.id);
      for (const row of rows) if (row.expiresAt.getTime() > now) await this.publishCommand(row);
    }
  }

  /** Resends every open command of a device that just came online; expired ones are closed. */
  async redeliver(deviceId: string): Promise<void> {
    const now = this.clock();
    const open = await openCommands(this.db, deviceId);
    const expired = open.filter((c) => c.expiresAt.getTime() <= now).map((c) => c.id);
    await expireCommands(this.db, expired);
    for (const command of open) {
      if (command.expiresAt.getTime() > now) await this.publishCommand(command);
    }
  }
}

/**
 * Whether the device's last presence change was the offline job's (missed heartbeats), or
 * the release of a stopped or dead instance's devices: not the connection's own last word.
 */
async function offlineByTimeout(db: Executor, deviceId: string): Promise<boolean> {
  const [last] = await db
    .select({ status: deviceStatusHistory.status, reason: deviceStatusHistory.reason })
    .from(deviceStatusHistory)
    .where(eq(deviceStatusHistory.deviceId, deviceId))
    .orderBy(desc(deviceStatusHistory.at))
    .limit(1);
  return last?.status === 'offline' && (last.reason === 'heartbeat' || last.reason === INSTANCE_GONE_REASON);
}
