import { join } from 'node:path';
import { loadConfig } from './config.js';
import { openDatabase } from './db/client.js';
import { ListenError, listenOnPorts } from './listen.js';
import { shutdownGracefully } from './shutdown.js';

// Process entry: config -> database -> migrate -> seed once -> app -> listen.
const started = performance.now();
const config = loadConfig();
// Under tsx the app's modules load while PGlite starts; `npm start` runs one bundle
// (scripts/server-bundle.mjs), whose packages are all loaded before this line.
const appModules = Promise.all([import('./app.js'), import('./seed/index.js')]);
const database = await openDatabase({
  databaseUrl: config.databaseUrl,
  pgliteDir: join(config.dataDir, 'pglite'),
  maxConnections: config.databasePoolSize,
});
await database.migrate();
const [{ buildApp }, { demoLoginLines, seedDemoHelp, seedDemoMarket, seedDemoMoney, seedDemoSales, seedIfNeeded }] =
  await appModules;
const seeded = await seedIfNeeded(database.db);
const app = await buildApp({ config, db: database });
// The demo wallet's first money goes through the console's calls, which need the app (seed/money.ts).
if (seeded) {
  await seedDemoMoney(app);
  await seedDemoMarket(app);
  await seedDemoHelp(app);
  // Without the demo fleet the demo airtime for sale is seeded now; with it, once its screens stand (below).
  if (config.demoPlayers === 0) await seedDemoSales(app);
}

let closing = false;
let demoFleet: import('./demo/fleet.js').DemoFleet | null = null;
async function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  app.log.info({ signal }, 'shutting down');
  try {
    // The demo players say offline while the broker still listens.
    await demoFleet?.stop();
    await shutdownGracefully(app, database);
  } catch (error) {
    app.log.error({ err: error }, 'shutdown failed');
    process.exit(1);
  }
  process.exit(0);
}
process.once('SIGINT', () => void shutdown('SIGINT'));
process.once('SIGTERM', () => void shutdown('SIGTERM'));

try {
  await listenOnPorts(app, config);
} catch (error) {
  if (!(error instanceof ListenError)) throw error;
  // A busy port is one line naming it and its setting, not a stack trace.
  closing = true;
  process.stderr.write(`${error.message}\n`);
  await shutdownGracefully(app, database).catch(() => {});
  process.exit(1);
}
const readyMs = Math.round(performance.now() - started);
const shownHost = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
const database_ = config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `PGlite in ${join(config.dataDir, 'pglite')}`;
const lines = [
  '',
  `Marquee is ready at http://${shownHost}:${config.port} (${readyMs} ms${seeded ? ', demo data seeded' : ''})`,
  `Database: ${database_}`,
  `Device broker: ${
    config.mqtt.url
      ? app.services.devices.bus?.description
      : `embedded, ws://${shownHost}:${config.port}/mqtt${app.services.devices.tcpPort ? `, mqtt://${shownHost}:${app.services.devices.tcpPort}` : ''}`
  }`,
  '',
  ...demoLoginLines(),
  '',
];
process.stdout.write(`${lines.join('\n')}\n`);

// The demo fleet (DEMO_PLAYERS, README): headless players of the demo tenant in a child process.
if (config.demoPlayers > 0 && !closing) {
  const { startDemoFleet } = await import('./demo/fleet.js');
  const local = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  const server = `http://${local.includes(':') ? `[${local}]` : local}:${config.port}`;
  demoFleet = await startDemoFleet({ app, config, server });
  // The demo airtime for sale aims at the demo screens: seeded once they stand (seed/sales.ts).
  if (seeded && demoFleet) demoFleet.events.once('ready', () => void seedDemoSales(app));
  if (demoFleet) {
    process.stdout.write(
      `Demo fleet: ${config.demoPlayers} headless players of the demo tenant (process ${demoFleet.child.pid}); DEMO_PLAYERS=off turns it off\n`,
    );
  }
}
