import type { SharesLookup, WeatherLookup } from '@marquee/layout';
import {
  type Command,
  type CommandAck,
  commandSchema,
  type DeviceCredentials,
  type DeviceManifest,
  DOWNLOAD_REPORT_DEBOUNCE_MS,
  deviceTopic,
  ErrorCode,
  type PlayEvent,
} from '@marquee/protocol';
import mqtt, { type MqttClient } from 'mqtt';
import { api, DeviceApiError, sent } from './api';
import { captureScreen } from './capture';
import { ContentStore } from './content';
import { idbJournalStore, idbUsageStore, kv } from './idb';
import { AdPlayCounter } from './logic/ads';
import { AlarmJournal, type PendingAlarm } from './logic/alarms';
import { backoffDelay } from './logic/backoff';
import { brokerUrlFor } from './logic/brokers';
import { nextRoundMs, SharedClock } from './logic/clock';
import { Journal, PlayJournal } from './logic/journal';
import { ChangeReporter, hashesOf } from './logic/manifest';
import { chooseDeviceNumber, DEVICE_NUMBER_KEY, normalMac, runPairing } from './logic/pairing';
import { type LevelRules, levelAt, type PowerRules, powerOnAt } from './logic/schedule';
import { type JournaledUsage, UsageMeter, type UsageWindow } from './logic/usage';

export const PLAYER_VERSION = 'web-0.1.0';
const ACK_MEMORY_MS = 7 * 24 * 3600_000;
const MANIFEST_POLL_MS = 60_000;
const PLAYS_FLUSH_MS = 30_000;
/** How often the usage quarter hour being counted is saved (a reload loses at most this much) and an ended one journaled. */
const USAGE_SAVE_MS = 60_000;

export interface CommandLog {
  id: string;
  kind: string;
  result: string;
  at: number;
}

export interface PlayerView {
  phase: 'starting' | 'pairing' | 'running';
  pairing: { code: string; qr: string; expiresAt: number } | null;
  pairingRetrySec: number | null;
  deviceId: string | null;
  deviceName: string | null;
  online: boolean;
  lastHeartbeat: number | null;
  manifest: DeviceManifest | null;
  pending: DeviceManifest | null;
  manifestLoaded: boolean;
  contentError: string | null;
  screenOn: boolean;
  powerOn: boolean;
  brightness: number;
  volume: number;
  commands: CommandLog[];
  playsPending: number;
  /** One-key alarms not yet acknowledged by the server (2.10); the last raise's moment. */
  alarmsPending: number;
  alarmRaisedAt: number | null;
  cacheBytes: number;
  now: number;
}

interface Settings {
  screenOn: boolean;
  brightness: number;
  volume: number;
  strategies: Record<string, { strategyId: string; version: number; rules: unknown }>;
}

const DEFAULT_SETTINGS: Settings = {
  screenOn: true,
  brightness: 100,
  volume: 50,
  strategies: {},
};

/**
 * The player's runtime: pairing, the MQTT session (will, online state, heartbeats, commands
 * with acks), content sync into the cache, the proof-of-play journal. React reads `view`.
 */
export class PlayerRuntime {
  view: PlayerView = {
    phase: 'starting',
    pairing: null,
    pairingRetrySec: null,
    deviceId: null,
    deviceName: null,
    online: false,
    lastHeartbeat: null,
    manifest: null,
    pending: null,
    manifestLoaded: false,
    contentError: null,
    screenOn: true,
    powerOn: true,
    brightness: 100,
    volume: 50,
    commands: [],
    playsPending: 0,
    alarmsPending: 0,
    alarmRaisedAt: null,
    cacheBytes: 0,
    now: Date.now(),
  };
  readonly content = new ContentStore(
    () => this.changed(),
    () => this.downloadsChanged.changed(),
  );
  /** A download state changed: an early heartbeat carries it (debounced; progress alone waits for the interval). */
  private readonly downloadsChanged = new ChangeReporter(() => this.heartbeat(), DOWNLOAD_REPORT_DEBOUNCE_MS);
  readonly journal = new PlayJournal(idbJournalStore);
  /** The data usage journal (2.9) and the meter that fills it, per quarter hour (logic/usage.ts). */
  readonly usageJournal = new Journal<JournaledUsage>(idbUsageStore);
  /** One-key alarms (2.10), journaled in the key-value storage until the server answers them. */
  readonly alarms = new AlarmJournal({
    load: () => kv.get<PendingAlarm[]>('alarms'),
    save: (list) => kv.set('alarms', list.length > 0 ? list : null),
  });
  private flushingAlarms = false;
  private usage = new UsageMeter(this.usageJournal, () => crypto.randomUUID());
  private flushingUsage = false;
  private listeners = new Set<() => void>();
  private credentials: DeviceCredentials | null = null;
  private settings: Settings = DEFAULT_SETTINGS;
  private acks = new Map<string, { ack: CommandAck; at: number }>();
  private client: MqttClient | null = null;
  private session = 0;
  private seq = 0;
  private attempt = 0;
  private heartbeatTimer: ReturnType<typeof setInterval> | null = null;
  private reconnectTimer: ReturnType<typeof setTimeout> | null = null;
  private syncing: Promise<void> | null = null;
  private flushing = false;
  readonly startedAt = Date.now();
  /** Plays of each ad today (per-day caps; kept in memory: a restart counts from zero). */
  readonly adPlays = new AdPlayCounter();
  /** The server's clock (docs/device-protocol.md 2.7.4): a wall's tiles play by it. */
  readonly clock = new SharedClock(() => api.time());

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };
  getView = () => this.view;

  private changed(patch: Partial<PlayerView> = {}) {
    this.view = {
      ...this.view,
      ...patch,
      cacheBytes: this.content.usedBytes([this.view.manifest, this.view.pending]),
      now: Date.now(),
    };
    for (const listener of this.listeners) listener();
  }

  async start() {
    const [credentials, settings, manifest, acks, usageWindow] = await Promise.all([
      kv.get<DeviceCredentials>('credentials'),
      kv.get<Settings>('settings'),
      kv.get<DeviceManifest>('manifest'),
      kv.get<[string, { ack: CommandAck; at: number }][]>('acks'),
      kv.get<UsageWindow>('usageWindow'),
    ]);
    this.meterUsage(usageWindow);
    this.settings = { ...DEFAULT_SETTINGS, ...settings };
    this.acks = new Map((acks ?? []).filter(([, a]) => Date.now() - a.at < ACK_MEMORY_MS));
    await this.content.load().catch(() => {});
    this.applySettings();
    // A restart (also offline) plays the manifest it had, from the cache.
    this.changed({ manifest, manifestLoaded: manifest !== null });
    setInterval(() => this.tick(), 1000);
    await this.loadIdentity().catch(() => {});
    if (credentials) this.run(credentials);
    else void this.pair();
  }

  /**
   * Counts the data the player moves (issue 27): what it received as Resource Timing reports
   * each fetch's transferSize (the page, manifests, files, calls; 0 from the cache), what it
   * sent as the bodies of its uploads (api.ts). MQTT over WebSocket is not in Resource Timing:
   * not counted. Ended quarter hours are journaled; the one being counted is saved each minute.
   */
  private meterUsage(restored: UsageWindow | null) {
    this.usage = new UsageMeter(this.usageJournal, () => crypto.randomUUID(), restored);
    sent.listener = (bytes) => void this.usage.add(Date.now(), 0, bytes);
    if (typeof PerformanceObserver !== 'undefined') {
      const observe = (type: 'resource' | 'navigation') => {
        try {
          new PerformanceObserver((list) => {
            let bytes = 0;
            for (const entry of list.getEntries()) bytes += (entry as PerformanceResourceTiming).transferSize || 0;
            void this.usage.add(Date.now(), bytes, 0);
            // Observers see every entry; the buffer (250 by default) need not fill up.
            if (type === 'resource') performance.clearResourceTimings?.();
          }).observe({ type, buffered: true });
        } catch {
          // An older WebView without this entry type: it goes uncounted.
        }
      };
      observe('navigation');
      observe('resource');
    }
    setInterval(() => {
      void this.usage.close(Date.now()).then(() => kv.set('usageWindow', this.usage.current()));
    }, USAGE_SAVE_MS);
  }

  /** Once a second: the power strategy and the levels follow the clock. */
  private tick() {
    const now = new Date();
    // Strategy times are the wall clock of the device's zone (the manifest's; else the browser's).
    const zone = this.view.manifest?.timeZone;
    this.adPlays.zone = zone;
    const power = this.settings.strategies.power?.rules as PowerRules | undefined;
    const patch: Partial<PlayerView> = { powerOn: powerOnAt(power, now, zone) };
    const volume = this.settings.strategies.volume?.rules as LevelRules | undefined;
    const brightness = this.settings.strategies.brightness?.rules as LevelRules | undefined;
    if (volume) patch.volume = levelAt(volume, now, zone);
    if (brightness) patch.brightness = levelAt(brightness, now, zone);
    this.changed(patch);
  }

  private applySettings() {
    this.changed({
      screenOn: this.settings.screenOn,
      brightness: this.settings.brightness,
      volume: this.settings.volume,
    });
  }

  private async saveSettings(patch: Partial<Settings>) {
    this.settings = { ...this.settings, ...patch };
    this.applySettings();
    await kv.set('settings', this.settings);
  }

  // ---- pairing (docs/device-protocol.md 2.1-2.3) ----
  /** The device number reported at pairing and the MAC reported in heartbeats (logic/pairing.ts). */
  private identity: { number: string; mac: string } | null = null;

  private async loadIdentity(): Promise<{ number: string; mac: string }> {
    if (this.identity) return this.identity;
    const query = new URLSearchParams(location.search);
    const [storedNumber, storedMac] = await Promise.all([kv.get<string>(DEVICE_NUMBER_KEY), kv.get<string>('mac')]);
    const random = () => Array.from(crypto.getRandomValues(new Uint8Array(9)), (b) => b.toString(36)).join('');
    const number = chooseDeviceNumber(query.get('number'), storedNumber, random);
    const mac = normalMac(query.get('mac')) || normalMac(storedMac);
    if (number !== storedNumber) await kv.set(DEVICE_NUMBER_KEY, number);
    if (mac && mac !== storedMac) await kv.set('mac', mac);
    this.identity = { number, mac };
    return this.identity;
  }

  /**
   * Pairs (a pending pairing kept in storage is resumed after a reload, its code unchanged),
   * then runs with the credentials; a failure is retried with back-off, the pairing kept.
   */
  private async pair(attempt = 0): Promise<void> {
    this.changed({ phase: 'pairing', pairingRetrySec: null });
    try {
      const { number } = await this.loadIdentity();
      const credentials = await runPairing<DeviceCredentials>({
        api: { pair: () => api.pair(PLAYER_VERSION, number), poll: api.poll, credentials: api.credentials },
        store: kv,
        now: Date.now,
        show: (p) => this.changed({ pairing: { code: p.code, qr: p.qr, expiresAt: p.expiresAt } }),
      });
      await kv.set('credentials', credentials);
      this.run(credentials);
    } catch {
      const delay = backoffDelay(attempt, Math.random(), 2000, 60_000);
      // The code stays on screen while it can still be entered (the retry resumes its pairing).
      const shown = this.view.pairing && this.view.pairing.expiresAt > Date.now() ? this.view.pairing : null;
      this.changed({ pairing: shown, pairingRetrySec: Math.round(delay / 1000) });
      setTimeout(() => void this.pair(attempt + 1), delay);
    }
  }

  private run(credentials: DeviceCredentials) {
    this.credentials = credentials;
    this.changed({ phase: 'running', deviceId: credentials.deviceId, deviceName: credentials.name, pairing: null });
    this.connect();
    void this.sync();
    setInterval(() => void this.sync(), MANIFEST_POLL_MS);
    const clockRound = () =>
      void this.clock.sync().finally(() => setTimeout(clockRound, nextRoundMs(this.clock.rounds)));
    clockRound();
    setInterval(() => {
      void this.flushPlays();
      void this.flushUsage();
      void this.flushAlarms();
    }, PLAYS_FLUSH_MS);
    void this.flushAlarms();
    window.addEventListener('online', () => {
      void this.sync();
      void this.clock.sync();
      void this.flushPlays();
      void this.flushUsage();
      void this.flushAlarms();
    });
  }

  private async forget() {
    this.client?.end(true);
    this.client = null;
    this.credentials = null;
    await kv.set('credentials', null);
    location.reload();
  }

  // ---- MQTT (3.1-3.6) ----
  private brokerUrl(credentials: DeviceCredentials): string {
    // The next broker after each failed attempt (3.7: failover between server instances).
    const here = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/mqtt`;
    return brokerUrlFor(credentials.brokerUrls, this.attempt, here);
  }

  private state(online: boolean, ts: number, reason?: 'lost' | 'shutdown' | 'reboot') {
    return JSON.stringify({
      v: 1,
      online,
      ts,
      ...(reason ? { reason } : {}),
      player: { version: PLAYER_VERSION, model: 'browser' },
    });
  }

  private connect() {
    const credentials = this.credentials;
    if (!credentials) return;
    const id = credentials.deviceId;
    this.session = Date.now();
    const client = mqtt.connect(this.brokerUrl(credentials), {
      username: credentials.username,
      password: credentials.password,
      clientId: credentials.clientId,
      clean: true,
      keepalive: 45,
      protocolVersion: 4,
      reconnectPeriod: 0,
      connectTimeout: 15_000,
      will: { topic: deviceTopic(id, 'state'), payload: this.state(false, this.session, 'lost'), qos: 1, retain: true },
    });
    this.client = client;
    let refused = false;
    client.on('error', (error) => {
      const code = (error as { code?: number }).code;
      if (code === 4 || code === 5) refused = true;
    });
    client.on('connect', () => {
      this.attempt = 0;
      client.subscribe(deviceTopic(id, 'cmd'), { qos: 1 }, (error, granted) => {
        if (error || granted?.some((g) => g.qos === 128)) return;
        client.publish(deviceTopic(id, 'state'), this.state(true, this.session), { qos: 1, retain: true }, () => {
          this.changed({ online: true });
          this.heartbeat();
          void this.flushPlays();
          void this.flushAlarms();
        });
      });
      if (this.heartbeatTimer) clearInterval(this.heartbeatTimer);
      this.heartbeatTimer = setInterval(() => this.heartbeat(), credentials.heartbeatSec * 1000);
    });
    client.on('message', (topic, payload) => {
      if (topic === deviceTopic(id, 'cmd')) void this.onCommand(payload.toString());
    });
    client.on('close', () => {
      if (this.client !== client) return;
      if (this.heartbeatTimer) clearInterval(this.heartbeatTimer);
      this.heartbeatTimer = null;
      client.removeAllListeners();
      client.end(true);
      this.client = null;
      this.changed({ online: false });
      if (refused) void this.whyRefused();
      else this.reconnectLater();
    });
  }

  private reconnectLater(minMs = 0) {
    if (this.reconnectTimer) return;
    const delay = Math.max(minMs, backoffDelay(this.attempt++, Math.random()));
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      this.connect();
    }, delay);
  }

  private async whyRefused() {
    if (!this.credentials) return;
    try {
      await api.status(this.credentials);
      this.reconnectLater();
    } catch (error) {
      if (error instanceof DeviceApiError && error.code === ErrorCode.DEVICE_REMOVED) return this.forget();
      // Disabled (or the server unreachable): try again rarely.
      this.reconnectLater(error instanceof DeviceApiError ? 5 * 60_000 : 0);
    }
  }

  private heartbeat() {
    const client = this.client;
    const credentials = this.credentials;
    if (!client?.connected || !credentials) return;
    const manifest = this.view.manifest;
    const target = this.view.pending ?? manifest;
    const hb = {
      v: 1,
      ts: Date.now(),
      seq: this.seq++,
      session: this.session,
      player: { version: PLAYER_VERSION, model: 'browser' },
      storage: { usedBytes: this.view.cacheBytes, freeBytes: 0 },
      // A browser knows neither: the server keeps the pairing's address; the MAC only from ?mac=.
      net: { ip: '', mac: this.identity?.mac ?? '' },
      screen: { width: Math.max(1, window.innerWidth), height: Math.max(1, window.innerHeight), on: this.isLit() },
      volume: this.view.volume,
      brightness: this.view.brightness,
      uptimeSec: Math.round((Date.now() - this.startedAt) / 1000),
      // What plays, and each material's download state of the manifest being fetched or in use (2.7.1).
      content: {
        manifestVersion: manifest?.version ?? null,
        pendingVersion: this.view.pending?.version ?? null,
        downloads: target ? this.content.reports(target) : [],
        // The manifest in use is fully downloaded (sync switches only then): its ads are ready.
        readyAds: [...new Set((manifest?.items ?? []).flatMap((i) => (i.adId ? [i.adId] : [])))].slice(0, 500),
      },
    };
    client.publish(deviceTopic(credentials.deviceId, 'hb'), JSON.stringify(hb), { qos: 0 });
    this.downloadsChanged.sent();
    this.changed({ lastHeartbeat: hb.ts });
    // Keep the storage estimate fresh for the next one.
    void navigator.storage?.estimate?.().then((estimate) => {
      hb.storage.freeBytes = Math.max(0, (estimate.quota ?? 0) - (estimate.usage ?? 0));
    });
  }

  isLit(): boolean {
    return this.view.screenOn && this.view.powerOn;
  }

  private publishAck(ack: CommandAck) {
    if (!this.credentials) return;
    this.client?.publish(deviceTopic(this.credentials.deviceId, 'ack'), JSON.stringify(ack), { qos: 1 });
  }

  private async onCommand(raw: string) {
    let command: Command;
    try {
      const parsed = commandSchema.safeParse(JSON.parse(raw));
      if (!parsed.success) return;
      command = parsed.data;
    } catch {
      return;
    }
    const known = this.acks.get(command.id);
    if (known) return this.publishAck(known.ack);
    let ack: CommandAck;
    if (Date.now() > command.expiresAt) {
      ack = this.ack(command.id, 'EXPIRED');
    } else {
      try {
        ack = await this.execute(command);
      } catch (error) {
        ack = this.ack(command.id, 'FAILED', error instanceof Error ? error.message : String(error));
      }
    }
    this.acks.set(command.id, { ack, at: Date.now() });
    await kv.set('acks', [...this.acks]);
    this.publishAck(ack);
    const log: CommandLog = {
      id: command.id,
      kind: command.kind,
      result: ack.result === 'ok' ? 'ok' : (ack.error?.code ?? 'error'),
      at: Date.now(),
    };
    this.changed({ commands: [log, ...this.view.commands].slice(0, 10) });
    if (command.kind === 'reboot' || command.kind === 'upgrade') setTimeout(() => location.reload(), 300);
  }

  private ack(
    id: string,
    code?: NonNullable<CommandAck['error']>['code'],
    message = '',
    data?: Record<string, unknown>,
  ) {
    const base = { v: 1 as const, id, ts: Date.now() };
    return code
      ? { ...base, result: 'error' as const, error: { code, message } }
      : { ...base, result: 'ok' as const, data };
  }

  private async execute(command: Command): Promise<CommandAck> {
    const ok = (data?: Record<string, unknown>) => this.ack(command.id, undefined, '', data);
    switch (command.kind) {
      case 'volume':
        await this.saveSettings({ volume: command.params.level });
        return ok({ volume: command.params.level });
      case 'brightness':
        await this.saveSettings({ brightness: command.params.level });
        return ok({ brightness: command.params.level });
      case 'screen':
        await this.saveSettings({ screenOn: command.params.on });
        return ok({ on: command.params.on });
      case 'reboot':
        return ok();
      case 'syncContent':
        await this.sync(true);
        return ok({ manifestVersion: this.view.manifest?.version ?? null });
      case 'clearCache': {
        const deleted = await this.content.clearUnused([this.view.manifest, this.view.pending]);
        return ok({ deleted });
      }
      case 'screenshot': {
        if (!this.credentials) return this.ack(command.id, 'FAILED', 'not paired');
        const stage = document.getElementById('stage') ?? document.body;
        const image = await captureScreen(stage);
        const upload = await api.screenshot(this.credentials, command.id, image);
        return ok({ screenshotId: upload.screenshotId });
      }
      case 'applyStrategy': {
        const params = command.params;
        const running = this.settings.strategies[params.type];
        if (running && running.strategyId === params.strategyId && running.version > params.version) {
          return ok({ type: params.type, strategyId: running.strategyId, version: running.version });
        }
        await this.saveSettings({
          strategies: {
            ...this.settings.strategies,
            [params.type]: { strategyId: params.strategyId, version: params.version, rules: params.rules },
          },
        });
        this.tick();
        return ok({ type: params.type, strategyId: params.strategyId, version: params.version });
      }
      case 'upgrade':
        // A browser cannot install a package (docs/device-protocol.md 3.8): it updates itself by
        // reloading the player the server serves, and says which version it runs.
        return ok({
          stage: 'done',
          version: PLAYER_VERSION,
          note: 'browser player: updates itself by reloading from the server',
        });
      default:
        return this.ack(
          (command as Command).id,
          'UNSUPPORTED',
          `${(command as Command).kind} is not supported by the browser player`,
        );
    }
  }

  // ---- content (2.7) ----
  /** Fetches the manifest; downloads what it misses; switches to it once all of it is cached. */
  sync(force = false): Promise<void> {
    if (this.syncing && !force) return this.syncing;
    const run = async () => {
      const credentials = this.credentials;
      if (!credentials) return;
      let next: DeviceManifest;
      try {
        next = await api.manifest(credentials);
      } catch (error) {
        if (!this.view.manifestLoaded && error instanceof DeviceApiError) {
          this.changed({ contentError: error.message });
        }
        return;
      }
      const current = this.view.manifest;
      if (current?.version === next.version && this.content.cached.size > 0) {
        if (hashesOf(next).size === 0 || [...hashesOf(next)].every((h) => this.content.cached.has(h))) {
          this.changed({ pending: null, contentError: null });
          return;
        }
      }
      this.changed({ pending: next, contentError: null });
      // The server learns the version being fetched (its download time starts now).
      this.downloadsChanged.changed();
      const concurrency = (this.settings.strategies.download?.rules as { concurrency?: number } | undefined)
        ?.concurrency;
      const ready = await this.content.fetchAll(current, next, concurrency ?? 2);
      if (ready) {
        await kv.set('manifest', next);
        this.changed({ manifest: next, pending: null, manifestLoaded: true });
        this.downloadsChanged.changed();
      } else {
        if (!current) this.changed({ manifestLoaded: false });
        this.content.retryLater(() => void this.sync(true));
      }
    };
    this.syncing = run().finally(() => {
      this.syncing = null;
    });
    return this.syncing;
  }

  // ---- weather components' readings (2.7.6) ----
  /** The readings of these cities from the server's provider; null when not paired or unreachable. */
  async weather(cities: string[]): Promise<WeatherLookup | null> {
    if (!this.credentials || cities.length === 0) return null;
    try {
      return (await api.weather(this.credentials, cities)).readings;
    } catch {
      return null;
    }
  }

  // ---- share-price components' quotes (2.7.7) ----
  /** The quotes of these symbols from the server's provider; null when not paired or unreachable. */
  async shares(symbols: string[]): Promise<SharesLookup | null> {
    if (!this.credentials || symbols.length === 0) return null;
    try {
      return (await api.shares(this.credentials, symbols)).quotes;
    } catch {
      return null;
    }
  }

  // ---- proof of play (2.8) ----
  async recordPlay(event: PlayEvent) {
    await this.journal.record(event);
    this.changed({ playsPending: await this.journal.pending() });
  }

  async flushPlays() {
    const credentials = this.credentials;
    if (!credentials || this.flushing) return;
    this.flushing = true;
    try {
      await this.journal.flush((events) => api.plays(credentials, events));
    } catch {
      // Offline or the server failed: the events stay in the journal for the next round.
    } finally {
      this.flushing = false;
      this.changed({ playsPending: await this.journal.pending() });
    }
  }

  // ---- one-key alarms (2.10) ----
  /**
   * Raises an alarm (the alarm key or button): a screenshot of the stage where the player can
   * take one, journaled at once, then sent (and again at every flush until answered).
   */
  async raiseAlarm() {
    const at = Date.now();
    let screenshot: PendingAlarm['screenshot'] = null;
    try {
      const image = await captureScreen(document.getElementById('stage') ?? document.body, 1280);
      const bytes = new Uint8Array(await image.arrayBuffer());
      let binary = '';
      for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
      screenshot = { contentType: image.type === 'image/jpeg' ? 'image/jpeg' : 'image/png', data: btoa(binary) };
    } catch {
      // No screenshot (a tainted canvas, no 2d context): the alarm goes without one.
    }
    await this.alarms.raise(at, screenshot);
    this.changed({ alarmRaisedAt: at, alarmsPending: await this.alarms.pending() });
    await this.flushAlarms();
  }

  async flushAlarms() {
    const credentials = this.credentials;
    if (!credentials || this.flushingAlarms) return;
    this.flushingAlarms = true;
    try {
      await this.alarms.flush((alarm) => api.alarm(credentials, alarm));
    } catch {
      // Offline or the server failed: the alarms stay in the journal for the next round.
    } finally {
      this.flushingAlarms = false;
      this.changed({ alarmsPending: await this.alarms.pending() });
    }
  }

  // ---- data usage (2.9) ----
  async flushUsage() {
    const credentials = this.credentials;
    if (!credentials || this.flushingUsage) return;
    this.flushingUsage = true;
    try {
      await this.usage.close(Date.now());
      await this.usageJournal.flush((samples) => api.usage(credentials, samples));
    } catch {
      // Offline, or a server without the call yet: the samples stay in the journal for the next round.
    } finally {
      this.flushingUsage = false;
    }
  }

  async shutdown() {
    if (!this.client || !this.credentials) return;
    this.client.publish(deviceTopic(this.credentials.deviceId, 'state'), this.state(false, Date.now(), 'shutdown'), {
      qos: 1,
      retain: true,
    });
  }
}

export const player = new PlayerRuntime();
