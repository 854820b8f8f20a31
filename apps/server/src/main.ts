import { join } from 'node:path';
import { loadConfig } from './config.js';
import { openDatabase } from './db/client.js';

// Process entry: config -> database -> migrate -> seed once -> app -> listen.
const started = performance.now();
const config = loadConfig();
// Under tsx the app's modules load while PGlite starts; `npm start` runs one bundle
// (scripts/server-bundle.mjs), whose packages are all loaded before this line.
const appModules = Promise.all([import('./app.js'), import('./db/seed/index.js')]);
const database = await openDatabase({ databaseUrl: config.databaseUrl, pgliteDir: join(config.dataDir, 'pglite') });
await database.migrate();
const [{ buildApp }, { DEMO_LOGINS, seedIfNeeded }] = await appModules;
const seeded = await seedIfNeeded(database.db);
const app = await buildApp({ config, db: database });

let closing = false;
async function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  app.log.info({ signal }, 'shutting down');
  try {
    await app.close();
  } finally {
    // PGlite must close cleanly to leave its data directory consistent.
    await database.close();
  }
  process.exit(0);
}
process.once('SIGINT', () => void shutdown('SIGINT'));
process.once('SIGTERM', () => void shutdown('SIGTERM'));

await app.listen({ port: config.port, host: config.host });
await app.services.devices.tcpListening;
const readyMs = Math.round(performance.now() - started);
const shownHost = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
const database_ = config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `PGlite in ${join(config.dataDir, 'pglite')}`;
const width = Math.max(...DEMO_LOGINS.map((l) => l.role.length));
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
  `  ${'Role'.padEnd(width)}  ${'Account'.padEnd(10)}  Password`,
  ...DEMO_LOGINS.map((l) => `  ${l.role.padEnd(width)}  ${l.account.padEnd(10)}  ${l.password}`),
  '',
];
process.stdout.write(`${lines.join('\n')}\n`);
