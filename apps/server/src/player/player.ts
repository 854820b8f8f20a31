import { createHash, randomUUID } from 'node:crypto';
import {
  ALARMS_PATH,
  type AlarmAnswer,
  type AlarmRaise,
  type ApplyStrategyParams,
  type AudienceReport,
  alarmAnswerSchema,
  type Command,
  type CommandAck,
  commandSchema,
  DEVICE_API_PREFIX,
  type DeviceCredentials,
  type DeviceState,
  deviceCredentialsSchema,
  deviceHttpCalls,
  deviceTopic,
  type Heartbeat,
  levelAt,
  pairingAnswerSchema,
  pairingPollAnswerSchema,
  type StrategyType,
  screenshotUploadAnswerSchema,
  screenshotUploadPath,
  TOPIC_QOS,
} from '@marquee/protocol';
import mqtt, { type MqttClient } from 'mqtt';
import type { z } from 'zod';
import { screenshotPng } from './png.js';

/** The model the headless player reports (an upgrade package for another device type is refused). */
export const HEADLESS_MODEL = 'marquee-headless';

/**
 * A headless player that speaks the device protocol (docs/device-protocol.md) with nothing
 * but the protocol package: pairing over HTTP, then MQTT with its own credentials, a
 * retained online state and last will, heartbeats, and commands executed once per id and
 * acknowledged (a screenshot is a generated PNG, uploaded over HTTP with the device's
 * credentials and named in the ack). For tests, benches and
 * `npm run player`.
 */

export class DeviceApiError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(`${code}: ${message}`);
  }
}

export interface PlayerOptions {
  /** The server's base URL (http://host:port). */
  server: string;
  /** The device's own number, reported at pairing. */
  number?: string;
  /** Override of the broker URL from the credentials (e.g. force TCP or WebSocket). */
  brokerUrl?: string;
  /** Heartbeat interval override in seconds (default: the credentials'). */
  heartbeatSec?: number;
  version?: string;
  /** MQTT keepalive in seconds (default 30). */
  keepalive?: number;
  /** Reconnect after a lost connection (default true). */
  reconnect?: boolean;
  /**
   * Audience counts to add to each heartbeat (as a device with a people-counting camera
   * would); without it the player reports no audience. Tests and demos only.
   */
  audience?: () => AudienceReport | undefined;
  /**
   * The content report of each heartbeat (manifest versions, download states: docs/device-protocol.md
   * 2.7.1); the headless player downloads nothing itself, so without it it reports none. Tests and demos.
   */
  content?: () => Heartbeat['content'];
  /**
   * Runs a `syncContent` command (fetch the manifest, download what is missing: a ContentPlayer's
   * sync); the ack is sent once it resolves. Without it the player acknowledges and does nothing.
   */
  syncContent?: () => Promise<void>;
  /**
   * The device's time zone (its manifest's `timeZone`), whose wall clock strategy times are
   * read in; absent, the process's own clock.
   */
  timeZone?: () => string | null | undefined;
  /**
   * The device's own facts for each heartbeat (address, storage) instead of the fixed sample
   * values tests and benches rely on; the demo fleet reports what it can measure.
   */
  facts?: () => Partial<Pick<Heartbeat, 'net' | 'storage'>>;
}

export class HeadlessPlayer {
  credentials: DeviceCredentials | null = null;
  client: MqttClient | null = null;
  /** What the player's screen and audio are set to. */
  volume = 50;
  brightness = 80;
  screenOn = true;
  /** The strategy the player runs per type (applyStrategy), with its typed rules. */
  readonly strategies = new Map<StrategyType, ApplyStrategyParams>();
  /** Commands executed, by id, with the ack sent (a repeat is answered with it, not run again). */
  readonly executed = new Map<string, CommandAck>();
  /** How many times each command id reached the player. */
  readonly received = new Map<string, number>();
  /** How many commands were executed (not counting repeats). */
  executions = 0;
  private seq = 0;
  /** The time of the current connection: the `ts` of its online state and will, sent with each heartbeat. */
  private sessionTs = 0;
  private heartbeatTimer: NodeJS.Timeout | null = null;
  private readonly startedAt = Date.now();
  private readonly listeners = new Set<(command: Command) => void>();
  /** Commands being executed (a repeat arriving meanwhile waits for the same ack). */
  private readonly running = new Map<string, Promise<CommandAck>>();
  /** Screenshots uploaded, by command id (tests). */
  readonly uploads = new Map<string, { screenshotId: string; size: number }>();

  constructor(readonly options: PlayerOptions) {}

  private async call<S extends z.ZodType>(
    path: string,
    body: unknown,
    schema: S,
    headers: Record<string, string> = {},
  ): Promise<z.output<S>> {
    const response = await fetch(new URL(path, this.options.server), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'accept-language': 'en-US', ...headers },
      body: JSON.stringify(body),
    });
    const envelope = (await response.json()) as { code: number; message: string; payload: unknown };
    if (envelope.code !== 0) throw new DeviceApiError(envelope.code, envelope.message);
    return schema.parse(envelope.payload);
  }

  /** Starts pairing: the code to show (and its QR content). */
  pair() {
    return this.call(
      deviceHttpCalls.pair.path,
      {
        ...(this.options.number ? { number: this.options.number } : {}),
        player: this.playerInfo(),
      },
      pairingAnswerSchema,
    );
  }

  /** Waits (long polls) until an operator added the device, then collects the credentials once. */
  async awaitCredentials(
    pairing: { pairingId: string; pollToken: string },
    timeoutMs = 15 * 60_000,
  ): Promise<DeviceCredentials> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const poll = await this.call(
        deviceHttpCalls.poll.path,
        { pairingId: pairing.pairingId, pollToken: pairing.pollToken, waitMs: Math.min(5000, timeoutMs) },
        pairingPollAnswerSchema,
      );
      if (poll.status === 'bound') break;
      if (Date.now() > deadline) throw new Error('pairing: not added in time');
    }
    this.credentials = await this.call(
      deviceHttpCalls.credentials.path,
      { pairingId: pairing.pairingId, pollToken: pairing.pollToken },
      deviceCredentialsSchema,
    );
    return this.credentials;
  }

  /**
   * Asks the server whether its credentials still open the broker (after a refusal):
   * resolves when active; DeviceApiError DEVICE_REMOVED (pair again) or DEVICE_DISABLED (wait).
   */
  checkStatus(credentials = this.credentials) {
    if (!credentials) throw new Error('not activated');
    const basic = Buffer.from(`${credentials.username}:${credentials.password}`).toString('base64');
    return this.call(deviceHttpCalls.status.path, {}, deviceHttpCalls.status.response, {
      authorization: `Basic ${basic}`,
    });
  }

  get deviceId(): string {
    if (!this.credentials) throw new Error('not activated');
    return this.credentials.deviceId;
  }

  /** Which of the credentials' broker URLs the player uses now (the next one after each failed attempt). */
  private brokerIndex = 0;

  /** The broker URL to use: the override, else the server's, the first until one fails. */
  brokerUrl(): string {
    if (this.options.brokerUrl) return this.options.brokerUrl;
    const urls = this.credentials?.brokerUrls ?? [];
    const url = urls[this.brokerIndex % Math.max(urls.length, 1)];
    if (!url) throw new Error('no broker URL');
    return url;
  }

  /**
   * Before a reconnection: the next broker URL of the credentials (docs/device-protocol.md
   * 3.1: try them in order), so a player whose broker (a server instance) stopped comes back
   * through another.
   */
  private nextBroker(client: MqttClient): void {
    const urls = this.credentials?.brokerUrls ?? [];
    if (this.options.brokerUrl || urls.length < 2) return;
    this.brokerIndex = (this.brokerIndex + 1) % urls.length;
    const u = new URL(this.brokerUrl());
    const protocol = u.protocol.replace(/:$/, '');
    const defaults: Record<string, number> = { mqtt: 1883, mqtts: 8883, ws: 80, wss: 443 };
    const options = client.options as Record<string, unknown>;
    options.protocol = protocol;
    options.hostname = u.hostname.replace(/^\[|\]$/g, '');
    options.host = options.hostname;
    options.port = u.port ? Number(u.port) : defaults[protocol];
    if (protocol.startsWith('ws')) options.path = `${u.pathname}${u.search}`;
    else delete options.path;
  }

  private state(online: boolean, reason?: DeviceState['reason'], ts = Date.now()): DeviceState {
    return {
      v: 1,
      online,
      ts,
      ...(reason ? { reason } : {}),
      player: this.playerInfo(),
    };
  }

  /**
   * Connects with the device's credentials: the last will (retained offline state) is set at
   * connect; once connected it subscribes to its command topic, THEN publishes its retained
   * online state (so the server's resend of open commands finds the subscription), then
   * heartbeats. Resolves on the first connection; reconnects repeat the sequence.
   */
  connect(credentials = this.credentials): Promise<void> {
    if (!credentials) throw new Error('not activated');
    this.credentials = credentials;
    const id = credentials.deviceId;
    // The connection's time: the will and the online state of one connection carry the same
    // ts, so the server applies this connection's will but ignores an older connection's.
    this.sessionTs = Date.now();
    const will = () => Buffer.from(JSON.stringify(this.state(false, 'lost', this.sessionTs)));
    const client = mqtt.connect(this.brokerUrl(), {
      username: credentials.username,
      password: credentials.password,
      clientId: credentials.clientId,
      clean: true,
      keepalive: this.options.keepalive ?? 30,
      reconnectPeriod: this.options.reconnect === false ? 0 : 1000,
      protocolVersion: 4,
      will: {
        topic: deviceTopic(id, 'state'),
        payload: will(),
        qos: 1,
        retain: true,
      },
    });
    this.client = client;
    // Connection errors after the first connect are retried by the client (reconnectPeriod).
    client.on('error', () => {});
    client.on('message', (topic, payload) => {
      if (topic === deviceTopic(id, 'cmd')) this.onCommand(payload);
    });
    client.on('reconnect', () => {
      this.nextBroker(client);
      this.sessionTs = Date.now();
      if (client.options.will) client.options.will.payload = will();
    });
    client.on('connect', () => {
      client.subscribe(deviceTopic(id, 'cmd'), { qos: 1 }, (error, granted) => {
        if (error || granted?.some((g) => g.qos === 128)) return;
        client.publish(
          deviceTopic(id, 'state'),
          JSON.stringify(this.state(true, undefined, this.sessionTs)),
          TOPIC_QOS.state,
          () => {
            this.heartbeat();
            // Alarms not yet answered go again on every (re)connection (2.10).
            void this.flushAlarms().catch(() => undefined);
          },
        );
      });
    });
    this.startHeartbeats();
    return new Promise((resolve, reject) => {
      // A refusal by the broker (a CONNACK return code: bad credentials, not authorised) ends
      // the attempt. A busy broker's late CONNACK ('connack timeout') does not: the client
      // tries again (reconnectPeriod) as after any lost connection. Giving up there is how
      // 1,530 of 10,000 bench players were lost while the embedded broker was busy.
      const onError = (error: Error & { code?: unknown }) => {
        if (typeof error.code !== 'number' && this.options.reconnect !== false) return;
        client.off('error', onError);
        client.off('connect', onConnect);
        client.end(true);
        reject(error);
      };
      const onConnect = () => {
        client.off('error', onError);
        resolve();
      };
      client.once('connect', onConnect);
      client.on('error', onError);
    });
  }

  private startHeartbeats() {
    if (this.heartbeatTimer) clearInterval(this.heartbeatTimer);
    const sec = this.options.heartbeatSec ?? this.credentials?.heartbeatSec ?? 30;
    this.heartbeatTimer = setInterval(() => this.heartbeat(), sec * 1000);
    this.heartbeatTimer.unref();
  }

  /** The report of the moment. */
  report(): Heartbeat {
    const audience = this.options.audience?.();
    const content = this.options.content?.();
    const facts = this.options.facts?.();
    return {
      v: 1,
      ts: Date.now(),
      seq: this.seq++,
      session: this.sessionTs,
      player: this.playerInfo(),
      storage: facts?.storage ?? { usedBytes: 1_250_000_000, freeBytes: 6_750_000_000 },
      net: facts?.net ?? { ip: '10.0.0.23', mac: '02:00:5e:10:00:23' },
      screen: { width: 1920, height: 1080, on: this.screenOn },
      volume: this.volume,
      brightness: this.brightness,
      uptimeSec: Math.floor((Date.now() - this.startedAt) / 1000),
      ...(audience?.length ? { audience } : {}),
      ...(content ? { content } : {}),
    };
  }

  heartbeat() {
    const client = this.client;
    if (!client?.connected || !this.credentials) return;
    client.publish(deviceTopic(this.credentials.deviceId, 'hb'), JSON.stringify(this.report()), TOPIC_QOS.hb);
  }

  /** Calls `fn` for every command received (tests). */
  onCommandReceived(fn: (command: Command) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  private onCommand(payload: Buffer) {
    let command: Command;
    try {
      command = commandSchema.parse(JSON.parse(payload.toString('utf8')));
    } catch {
      return; // not a command of this protocol version: ignored
    }
    this.received.set(command.id, (this.received.get(command.id) ?? 0) + 1);
    for (const fn of this.listeners) fn(command);
    const previous = this.executed.get(command.id);
    if (previous) return this.sendAck(previous); // idempotent by id: answer again, do not run again
    const running = this.running.get(command.id);
    if (running) return void running.then((ack) => this.sendAck(ack));
    const execution = this.execute(command).catch(
      (error): CommandAck => ({
        v: 1,
        id: command.id,
        ts: Date.now(),
        result: 'error',
        error: { code: 'FAILED', message: String((error as Error).message ?? error).slice(0, 500) },
      }),
    );
    this.running.set(command.id, execution);
    void execution.then((ack) => {
      this.running.delete(command.id);
      this.executed.set(command.id, ack);
      this.sendAck(ack);
    });
  }

  /** One-key alarms raised and not yet answered by the server, oldest first (2.10). */
  readonly pendingAlarms: AlarmRaise[] = [];
  /** The server's answers to alarms, by id (tests, the CLI). */
  readonly alarmAnswers = new Map<string, AlarmAnswer['result']>();

  /**
   * Raises a one-key alarm (docs/device-protocol.md 2.10): journaled with a generated
   * screenshot, then sent; a failed send leaves it pending for the next flush (each
   * reconnection, or the next raise). Returns the alarm's id.
   */
  async raiseAlarm(options: { screenshot?: boolean } = {}): Promise<string> {
    const id = randomUUID();
    const png = options.screenshot === false ? null : screenshotPng(320, 180, Date.now());
    this.pendingAlarms.push({
      id,
      at: Date.now(),
      screenshot: png ? { contentType: 'image/png', data: png.toString('base64') } : null,
    });
    await this.flushAlarms().catch(() => undefined);
    return id;
  }

  /** Sends the pending alarms, oldest first; each answered one leaves the journal. Throws on the first failure. */
  async flushAlarms(): Promise<number> {
    const c = this.credentials;
    let sent = 0;
    while (c && this.pendingAlarms.length > 0) {
      const alarm = this.pendingAlarms[0];
      const answer = await this.call(ALARMS_PATH, alarm, alarmAnswerSchema, {
        authorization: `Basic ${Buffer.from(`${c.username}:${c.password}`).toString('base64')}`,
      });
      this.alarmAnswers.set(alarm.id, answer.result);
      if (this.pendingAlarms[0] === alarm) this.pendingAlarms.shift();
      sent++;
    }
    return sent;
  }

  /**
   * Uploads a screenshot for a command (docs/device-protocol.md 2.5): the image as the body,
   * the device's credentials as HTTP Basic. Returns the upload's answer.
   */
  async uploadScreenshot(commandId: string, image: Buffer, contentType = 'image/png') {
    const c = this.credentials;
    if (!c) throw new Error('not activated');
    const response = await fetch(new URL(screenshotUploadPath(commandId), this.options.server), {
      method: 'POST',
      headers: {
        'content-type': contentType,
        authorization: `Basic ${Buffer.from(`${c.username}:${c.password}`).toString('base64')}`,
        'accept-language': 'en-US',
      },
      body: new Uint8Array(image),
    });
    const envelope = (await response.json()) as { code: number; message: string; payload: unknown };
    if (envelope.code !== 0) throw new DeviceApiError(envelope.code, envelope.message);
    return screenshotUploadAnswerSchema.parse(envelope.payload);
  }

  /** What an upgrade installed (the headless player cannot replace itself: it records the version). */
  readonly installed: { apk?: string; firmware?: string } = {};

  /** The player software it reports: the version an upgrade recorded, else its own. */
  playerInfo() {
    return {
      version: this.installed.apk ?? this.options.version ?? 'headless-1.0.0',
      ...(this.installed.firmware ? { firmware: this.installed.firmware } : {}),
      model: HEADLESS_MODEL,
    };
  }

  /**
   * The `upgrade` command (docs/device-protocol.md 2.6): refuses a package for another device
   * type, downloads it (acks stage 'downloading'), checks its size and SHA-256 (a mismatch
   * fails with the reason), acks 'installing', records the version as installed and answers
   * 'done' with it; the next heartbeat reports it.
   */
  private async upgrade(command: Extract<Command, { kind: 'upgrade' }>): Promise<CommandAck> {
    const p = command.params;
    const ack = (data: Record<string, unknown>): CommandAck => ({
      v: 1,
      id: command.id,
      ts: Date.now(),
      result: 'ok',
      data,
    });
    const fail = (message: string): CommandAck => ({
      v: 1,
      id: command.id,
      ts: Date.now(),
      result: 'error',
      error: { code: 'FAILED', message },
    });
    if (p.deviceType && p.deviceType !== HEADLESS_MODEL) {
      return fail(`package is for device type ${p.deviceType}, this device is ${HEADLESS_MODEL}`);
    }
    this.sendAck(ack({ stage: 'downloading' }));
    const response = await fetch(new URL(p.url, this.options.server));
    if (!response.ok) return fail(`download failed: HTTP ${response.status}`);
    const body = Buffer.from(await response.arrayBuffer());
    if (p.size !== undefined && body.length !== p.size) return fail(`size mismatch: ${body.length} != ${p.size}`);
    const sha256 = createHash('sha256').update(body).digest('hex');
    if (p.sha256 && sha256 !== p.sha256) return fail(`checksum mismatch: ${sha256}`);
    this.sendAck(ack({ stage: 'installing' }));
    this.installed[p.target] = p.version;
    this.heartbeat();
    return ack({
      stage: 'done',
      version: p.version,
      note: 'headless player: recorded as installed in its state (it cannot replace itself)',
    });
  }

  private async execute(command: Command): Promise<CommandAck> {
    const base = { v: 1 as const, id: command.id, ts: Date.now() };
    if (command.expiresAt <= Date.now()) {
      return { ...base, result: 'error', error: { code: 'EXPIRED', message: 'arrived after its expiry' } };
    }
    this.executions++;
    switch (command.kind) {
      case 'volume':
        this.volume = command.params.level;
        return { ...base, result: 'ok', data: { volume: this.volume } };
      case 'brightness':
        this.brightness = command.params.level;
        return { ...base, result: 'ok', data: { brightness: this.brightness } };
      case 'screen':
        this.screenOn = command.params.on;
        return { ...base, result: 'ok', data: { on: this.screenOn } };
      case 'screenshot': {
        const png = screenshotPng(320, 180, Date.now());
        const upload = await this.uploadScreenshot(command.id, png);
        this.uploads.set(command.id, { screenshotId: upload.screenshotId, size: upload.size });
        return { ...base, ts: Date.now(), result: 'ok', data: { screenshotId: upload.screenshotId } };
      }
      case 'applyStrategy':
        return { ...base, result: 'ok', data: this.applyStrategy(command.params as ApplyStrategyParams) };
      case 'syncContent':
        if (this.options.syncContent) {
          await this.options.syncContent();
          return { ...base, ts: Date.now(), result: 'ok' };
        }
        return { ...base, result: 'ok', data: { note: 'headless player: nothing to do' } };
      case 'upgrade':
        return this.upgrade(command);
      case 'reboot':
      case 'clearCache':
        // A headless player has no content, cache or power to act on: it acknowledges.
        return { ...base, result: 'ok', data: { note: 'headless player: nothing to do' } };
      default:
        return {
          ...base,
          result: 'error',
          error: { code: 'UNSUPPORTED', message: `${(command as Command).kind} not supported` },
        };
    }
  }

  /**
   * Runs a strategy: it replaces the one of its type unless that is a newer version of the
   * same strategy (a late redelivery). Volume and brightness take the level of the moment.
   */
  private applyStrategy(params: ApplyStrategyParams): Record<string, unknown> {
    const current = this.strategies.get(params.type);
    if (current && current.strategyId === params.strategyId && current.version > params.version) {
      return { type: params.type, strategyId: params.strategyId, version: current.version, kept: true };
    }
    this.strategies.set(params.type, params);
    const zone = this.options.timeZone?.();
    if (params.type === 'volume') this.volume = levelAt(params.rules, new Date(), zone);
    if (params.type === 'brightness') this.brightness = levelAt(params.rules, new Date(), zone);
    return { type: params.type, strategyId: params.strategyId, version: params.version };
  }

  private sendAck(ack: CommandAck) {
    if (!this.credentials) return;
    this.client?.publish(deviceTopic(this.credentials.deviceId, 'ack'), JSON.stringify(ack), TOPIC_QOS.ack);
  }

  /** Drops the connection without a DISCONNECT (as a crash or a cut cable): the broker publishes the will. */
  kill() {
    const client = this.client;
    if (!client) return;
    if (this.heartbeatTimer) clearInterval(this.heartbeatTimer);
    this.heartbeatTimer = null;
    client.options.reconnectPeriod = 0;
    client.stream?.destroy();
    client.end(true);
    this.client = null;
  }

  /** Clean shutdown: publishes offline (retained), then disconnects. */
  async stop(): Promise<void> {
    const client = this.client;
    if (this.heartbeatTimer) clearInterval(this.heartbeatTimer);
    this.heartbeatTimer = null;
    if (!client) return;
    this.client = null;
    if (client.connected && this.credentials) {
      await client.publishAsync(
        deviceTopic(this.credentials.deviceId, 'state'),
        JSON.stringify(this.state(false, 'shutdown')),
        {
          ...TOPIC_QOS.state,
        },
      );
    }
    await client.endAsync();
  }
}

/** The device API's base path (for a player's configuration). */
export const PLAYER_API = DEVICE_API_PREFIX;
