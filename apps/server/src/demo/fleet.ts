import { type ChildProcess, fork } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  buildSignedCall,
  type CallQuery,
  type EndpointName,
  type Endpoints,
  type Envelope,
  endpoints,
  type Req,
  type Res,
  toQueryString,
} from '@marquee/protocol';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { type Config, REPO_ROOT } from '../config.js';
import { accounts, departments, meta } from '../db/schema/index.js';
import { markDemoDevice } from '../modules/devices/repository.js';
import type { FleetEvent, FleetPlayerSpec, FleetStart } from '../player/fleetProtocol.js';

/**
 * The demo fleet (issue 25): on a new embedded install the demo tenant gets a handful of
 * headless players, so the chain from approval to screen to report is visible from the first
 * minute. The players run in one child process (player/fleet.ts); this supervisor, in the
 * server process, acts for the demo tenant's administrator through the console's own calls
 * (signed, through the call pipeline: permission, transaction, operation log) as a person at
 * the console would: it adds each player by the pairing code it shows (device.add), marks it
 * as a demo player, sets where it stands (device.setLocation), and once, when the fleet first
 * stands, uploads three ad images, makes ads of them aimed at the demo screens and approves
 * them. Everything the console then shows (online screens, the map, playlists, plays and the
 * reports) is what the server computed from the players' own messages and uploads.
 * Credentials stay under `<dataDir>/demo-players`, so a restart reconnects instead of pairing.
 */

/** The demo tenant's administrator, whom the supervisor acts for (seed/demo.ts creates it). */
export const DEMO_FLEET_ADMIN = 'entadmin';
const CONTENT_KEY = 'demo-fleet';

/** A demo screen: where it stands and which department keeps it. */
interface DemoScreen {
  name: string;
  dept: string;
  address: string;
  poi: string;
  regionCode: string;
  latitude: number;
  longitude: number;
}

const SCREENS: readonly DemoScreen[] = [
  {
    name: 'Shanghai Nanjing Road window',
    dept: 'Shanghai Store',
    address: 'No. 300 Nanjing Road East, Huangpu District, Shanghai',
    poi: 'Nanjing Road pedestrian street',
    regionCode: '310101',
    latitude: 31.2384,
    longitude: 121.4817,
  },
  {
    name: 'Hangzhou West Lake lobby',
    dept: 'Hangzhou Store',
    address: 'No. 1 Hubin Road, Shangcheng District, Hangzhou',
    poi: 'Hubin shopping street',
    regionCode: '330102',
    latitude: 30.2567,
    longitude: 120.1655,
  },
  {
    name: 'Shenzhen Futian metro hall',
    dept: 'Shenzhen Store',
    address: 'Shennan Avenue, Futian District, Shenzhen',
    poi: 'Shopping Park metro station',
    regionCode: '440304',
    latitude: 22.5377,
    longitude: 114.0509,
  },
  {
    name: 'Headquarters reception',
    dept: 'Headquarters',
    address: 'No. 88 Century Avenue, Pudong New Area, Shanghai',
    poi: 'Lujiazui',
    regionCode: '310115',
    latitude: 31.2354,
    longitude: 121.5055,
  },
  {
    name: 'Shanghai Xujiahui entrance',
    dept: 'Shanghai Store',
    address: 'No. 1 Hongqiao Road, Xuhui District, Shanghai',
    poi: 'Xujiahui',
    regionCode: '310104',
    latitude: 31.1949,
    longitude: 121.4376,
  },
  {
    name: 'Hangzhou Wulin square',
    dept: 'Hangzhou Store',
    address: 'Wulin Square, Gongshu District, Hangzhou',
    poi: 'Wulin Square',
    regionCode: '330105',
    latitude: 30.2741,
    longitude: 120.1649,
  },
  {
    name: 'Shenzhen Nanshan mall',
    dept: 'Shenzhen Store',
    address: 'Keyuan Road, Nanshan District, Shenzhen',
    poi: 'Nanshan',
    regionCode: '440305',
    latitude: 22.5333,
    longitude: 113.9445,
  },
  {
    name: 'South Region showroom',
    dept: 'South Region',
    address: 'Tianhe Road, Tianhe District, Guangzhou',
    poi: 'Tianhe',
    regionCode: '440106',
    latitude: 23.1352,
    longitude: 113.3237,
  },
];

/** The demo ads: a name, two colours and the text of the image. */
const ADS: readonly { name: string; file: string; from: string; to: string; title: string; line: string }[] = [
  {
    name: 'Bright Drinks summer splash',
    file: 'bright-drinks-summer.png',
    from: '#ff9a3c',
    to: '#ff3c6e',
    title: 'Bright Drinks',
    line: 'Summer splash: two for one',
  },
  {
    name: 'Metro Coffee morning menu',
    file: 'metro-coffee-morning.png',
    from: '#3c2a1e',
    to: '#a0643c',
    title: 'Metro Coffee',
    line: 'Fresh roast every morning',
  },
  {
    name: 'City Bank travel card',
    file: 'city-bank-travel.png',
    from: '#0b3d91',
    to: '#1fa2ff',
    title: 'City Bank',
    line: 'Travel card: no fees abroad',
  },
];

/** A 1920x1080 PNG of one demo ad, drawn from SVG by sharp. */
export async function adImage(ad: (typeof ADS)[number]): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1920" height="1080">
<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${ad.from}"/><stop offset="1" stop-color="${ad.to}"/></linearGradient></defs>
<rect width="1920" height="1080" fill="url(#g)"/>
<circle cx="1560" cy="300" r="260" fill="#ffffff" fill-opacity="0.12"/>
<text x="140" y="500" font-family="Noto Sans, DejaVu Sans, sans-serif" font-size="150" font-weight="700" fill="#ffffff">${ad.title}</text>
<text x="140" y="640" font-family="Noto Sans, DejaVu Sans, sans-serif" font-size="72" fill="#ffffff">${ad.line}</text>
<text x="140" y="960" font-family="Noto Sans, DejaVu Sans, sans-serif" font-size="36" fill="#ffffff" fill-opacity="0.8">Marquee demo ad</text>
</svg>`;
  return sharp(Buffer.from(svg)).png({ compressionLevel: 9 }).toBuffer();
}

export interface DemoFleetOptions {
  app: FastifyInstance;
  config: Pick<Config, 'dataDir' | 'demoPlayers'>;
  /** The server's base URL as the child reaches it (http://127.0.0.1:<port>). */
  server: string;
  /** How often each player uploads its plays, seconds (default 15). */
  uploadEverySec?: number;
}

export interface DemoFleet {
  /** Every FleetEvent of the child, and 'ready' once the demo ads stand. */
  readonly events: EventEmitter;
  readonly child: ChildProcess;
  /** Device ids of the players, by key, as they become known. */
  readonly devices: Map<string, string>;
  /** Stops the child (its players say offline) and ends the supervisor's session. */
  stop(): Promise<void>;
}

/** The players to run: `demo-1`... with device numbers `DEMO-0001`... */
export function fleetPlayers(count: number): FleetPlayerSpec[] {
  return Array.from({ length: Math.min(count, SCREENS.length) }, (_, i) => ({
    key: `demo-${i + 1}`,
    number: `DEMO-${String(i + 1).padStart(4, '0')}`,
  }));
}

/**
 * Starts the demo fleet, or answers null: DEMO_PLAYERS is 0 (the default with DATABASE_URL),
 * or the database has no demo tenant (its administrator account).
 */
export async function startDemoFleet(options: DemoFleetOptions): Promise<DemoFleet | null> {
  const { app, config } = options;
  if (config.demoPlayers <= 0) return null;
  const services = app.services;
  const db = services.db;
  const [admin] = await db
    .select({ id: accounts.id, entId: accounts.entId })
    .from(accounts)
    .where(eq(accounts.loginName, DEMO_FLEET_ADMIN))
    .limit(1);
  if (!admin) {
    app.log.info('demo fleet: no demo tenant (%s), not started', DEMO_FLEET_ADMIN);
    return null;
  }
  const log = app.log.child({ part: 'demo-fleet' });
  const specs = fleetPlayers(config.demoPlayers);
  const events = new EventEmitter();
  const devices = new Map<string, string>();

  // The administrator's session, opened when first needed (a restart of a paired fleet needs none).
  let session: { token: string; tokenHash: string; sessionId: string } | null = null;
  let sequence = 0;
  async function call<N extends EndpointName>(name: N, data: Req<Endpoints[N]>): Promise<Res<Endpoints[N]>> {
    session ??= await services.sessions.create(db, {
      entId: admin.entId,
      accountId: admin.id,
      ip: '127.0.0.1',
      userAgent: 'marquee-demo-fleet',
      deviceUuid: 'marquee-demo-fleet',
      now: new Date(services.clock()),
    });
    const signed = buildSignedCall(data, {
      token: session.token,
      language: 'en-US',
      uuid: 'marquee-demo-fleet',
      sequence: `demo-fleet-${process.pid}-${Date.now()}-${++sequence}`,
      traceKey: `demo-fleet-${sequence}`,
      now: services.clock(),
    });
    const res = await app.inject({
      method: 'POST',
      url: `${endpoints[name].path}?${toQueryString(signed.query as CallQuery)}`,
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'user-id': '86',
        platform: '2',
        'user-agent': 'marquee-demo-fleet',
      },
      payload: signed.body,
      remoteAddress: '127.0.0.1',
    });
    const envelope = res.json() as Envelope<Res<Endpoints[N]>>;
    if (envelope.code !== 0) throw new Error(`${endpoints[name].name}: ${envelope.code} ${envelope.message}`);
    return envelope.payload;
  }

  const deptIds = new Map(
    (
      await db
        .select({ id: departments.id, name: departments.name })
        .from(departments)
        .where(eq(departments.entId, admin.entId))
    ).map((d) => [d.name, d.id]),
  );

  /** Adds a player by its code as the administrator would, marks it demo and places it. */
  async function addPlayer(key: string, code: string) {
    const screen = SCREENS[Number(key.replace('demo-', '')) - 1];
    const deptId = deptIds.get(screen.dept);
    const { id } = await call('deviceAdd', { code, name: screen.name, ...(deptId ? { deptId } : {}) });
    await markDemoDevice(db, admin.entId, id);
    await call('deviceSetLocation', {
      id,
      address: screen.address,
      poi: screen.poi,
      regionCode: screen.regionCode,
      latitude: screen.latitude,
      longitude: screen.longitude,
    });
    log.info({ key, deviceId: id }, 'demo player added');
  }

  /** Once: three ad images in a 'Demo ads' folder, an ad of each aimed at the demo screens, approved. */
  async function ensureContent(deviceIds: string[]) {
    const done = await db.select({ key: meta.key }).from(meta).where(eq(meta.key, CONTENT_KEY));
    if (done.length > 0 || deviceIds.length === 0) return;
    const folder = await call('materialFolderCreate', { name: 'Demo ads' });
    const adIds: string[] = [];
    const now = services.clock();
    for (const ad of ADS) {
      const image = await adImage(ad);
      const materialId = await uploadImage(folder.id, ad.file, image);
      const created = await call('adCreate', {
        name: ad.name,
        type: 'common',
        startAt: new Date(now - 60_000).toISOString(),
        endAt: new Date(now + 90 * 86_400_000).toISOString(),
        strategy: 'perLoop',
        playsMin: 1,
        playsMax: 1,
        materialIds: [materialId],
        targets: { deviceIds, groupIds: [], tagIds: [], deptIds: [], spliceIds: [] },
      });
      await call('adAuditPass', { id: created.id });
      adIds.push(created.id);
    }
    await db
      .insert(meta)
      .values({ key: CONTENT_KEY, value: { adIds, at: new Date(now).toISOString() } })
      .onConflictDoNothing();
    log.info({ ads: adIds.length }, 'demo ads approved');
  }

  /** The console's upload: apply, the signed POST to storage, verify; then waits for the probe. */
  async function uploadImage(folderId: string, fileName: string, image: Buffer): Promise<string> {
    const applied = await call('materialUploadApply', {
      folderId,
      fileName,
      size: image.length,
      contentType: 'image/png',
      type: 'image',
    });
    const form = new FormData();
    for (const [k, v] of Object.entries(applied.fields)) form.append(k, v);
    if (!Object.keys(applied.fields).some((k) => k.toLowerCase() === 'content-type')) {
      form.append('Content-Type', 'image/png');
    }
    form.append('file', new Blob([new Uint8Array(image)], { type: 'image/png' }), fileName);
    if (applied.url.startsWith('/')) {
      const request = new Request('http://local/', { method: 'POST', body: form });
      const posted = await app.inject({
        method: 'POST',
        url: applied.url,
        headers: { 'content-type': request.headers.get('content-type') ?? '' },
        payload: Buffer.from(await request.arrayBuffer()),
      });
      if (posted.statusCode >= 300) throw new Error(`upload: ${posted.statusCode} ${posted.body}`);
    } else {
      const posted = await fetch(applied.url, { method: 'POST', body: form });
      if (!posted.ok) throw new Error(`upload: ${posted.status} ${await posted.text()}`);
    }
    const verified = await call('materialUploadVerify', { uploadId: applied.uploadId });
    const id = verified.material.id;
    for (let i = 0; i < 240; i++) {
      const detail = await call('materialDetail', { id });
      if (detail.status === 'ready') return id;
      if (detail.status !== 'processing') throw new Error(`material ${fileName}: ${detail.status}`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    throw new Error(`material ${fileName} still processing after 2 minutes`);
  }

  const child = fork(fileURLToPath(new URL('../player/fleet.ts', import.meta.url)), [], {
    // The players' TypeScript runs through the tsx loader (resolved from the repository root).
    cwd: REPO_ROOT,
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    env: { ...process.env, NODE_OPTIONS: '' },
  });
  let stopped = false;
  const settled = new Set<string>();
  let contentStarted = false;
  const maybeContent = () => {
    if (contentStarted || settled.size < specs.length) return;
    contentStarted = true;
    ensureContent([...devices.values()])
      .then(() => events.emit('ready'))
      .catch((error) => log.warn({ err: error }, 'demo ads not made'));
  };
  child.on('message', (event: FleetEvent) => {
    events.emit(event.type, event);
    if (stopped) return;
    switch (event.type) {
      case 'pairing':
        addPlayer(event.key, event.code).catch((error) =>
          log.warn({ err: error, key: event.key }, 'demo player not added'),
        );
        break;
      case 'online':
        devices.set(event.key, event.deviceId);
        settled.add(event.key);
        maybeContent();
        break;
      case 'removed':
        settled.add(event.key);
        maybeContent();
        break;
      case 'error':
        log.warn({ key: event.key, reason: event.message }, 'demo player');
        break;
    }
  });
  child.on('exit', (code, signal) => {
    events.emit('exit', code, signal);
    if (!stopped) log.warn({ code, signal }, 'demo fleet stopped unexpectedly');
  });
  const start: FleetStart = {
    type: 'start',
    server: options.server,
    stateDir: join(config.dataDir, 'demo-players'),
    players: specs,
    uploadEverySec: options.uploadEverySec,
  };
  // A child that died at once (the server stopped while it started) closes the channel: the send
  // fails with EPIPE, reported here instead of as an unhandled 'error' event that ends the server.
  child.on('error', (error) => log.warn({ err: error }, 'demo fleet channel'));
  child.send(start, (error) => {
    if (error) log.warn({ err: error }, 'demo fleet not started');
  });
  log.info({ players: specs.length, pid: child.pid }, 'demo fleet started');

  return {
    events,
    child,
    devices,
    async stop() {
      if (stopped) return;
      stopped = true;
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 8000);
        await exited;
        clearTimeout(timer);
      }
      if (session) {
        const s = session;
        session = null;
        await services.sessions
          .end(db, { entId: admin.entId, ...s }, 'logout', new Date(services.clock()), (fn) => fn())
          .catch(() => {});
      }
    },
  };
}
