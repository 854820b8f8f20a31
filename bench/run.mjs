// `npm run bench`: runs each benchmark in turn and prints its figures.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2);
// The heavy ones run only when named: `devices` (a fleet of players against two brokers,
// minutes to an hour) and `deviceList` (1,000,000 devices on PostgreSQL, minutes to seed).
const heavy = ['devices', 'deviceList'];
// `uploadThroughput` (bench/upload-throughput.ts) writes 1.25 GB of files: only when named.
heavy.push('uploadThroughput');
// `playerSoak` (bench/player-soak.ts) plays a loop in a player tab for an hour: only when named.
heavy.push('playerSoak');
// `ad-chain` (bench/ad-chain.ts) follows plays through the player's upload and the rollup cron: minutes.
heavy.push('ad-chain');
// `wall-sync` (bench/wall-sync.ts) plays a 2 x 2 wall in four Chromium players for minutes.
heavy.push('wall-sync');
// `kill-retry` (bench/kill-retry.ts) kills a server under 80 creations and retries the lost (PostgreSQL).
heavy.push('kill-retry');
// `ledger` (bench/ledger.ts) fills one wallet with 10,000,000 movements on PostgreSQL: minutes.
heavy.push('ledger');
// `flowReport` (bench/flowReport.ts) fills flow_days with 10,000 cards x 365 days on PostgreSQL: minutes.
heavy.push('flowReport');
// `renewal` (bench/renewal.ts) renews 1,000 enterprises x 100 items in one day's run on PostgreSQL: minutes.
heavy.push('renewal');
// The sales benches (bench/sales-*.ts, issue 28) fill PostgreSQL with 10,000 screens and their
// bookings, a month of a 1,000-screen order's rollups, or time concurrent orders: minutes.
heavy.push('sales-availability', 'sales-orders', 'sales-settlement');
// `rtb` (bench/rtb.ts, issue 29) decides tens of thousands of RTB turns on PostgreSQL, a simulated day: minutes.
heavy.push('rtb');
// `qrcode` (bench/qrcode.ts, issue 31) loads the QR redirect at 1,000 scans/s on PostgreSQL, then with its table locked.
heavy.push('qrcode');
// `warnings` (bench/warnings.ts, issue 30) runs the warning job over 1,000,000 devices on PostgreSQL: minutes to seed.
heavy.push('warnings');
// `alarms` (bench/alarms.ts, issue 30) raises 100 alarms one by one and 100 at once on PostgreSQL.
heavy.push('alarms');
const FILES = { uploadThroughput: 'upload-throughput', playerSoak: 'player-soak' };
const benches = [
  'startup',
  'api-throughput',
  'bundle-size',
  'scoped-list',
  'multi-instance',
  'a11y',
  'layout-render',
  'layout-editor',
  'player',
  'plays-ingest',
  'download-states',
  ...heavy,
].filter((b) => (only.length === 0 ? !heavy.includes(b) : only.includes(b)));
spawnSync('npm', ['run', 'build', '-w', '@marquee/web'], { cwd: join(here, '..'), stdio: 'inherit' });
for (const bench of benches) {
  console.log(`\n## ${bench}`);
  spawnSync(process.execPath, ['--import', 'tsx', join(here, `${FILES[bench] ?? bench}.ts`)], {
    stdio: 'inherit',
    env: { ...process.env, SKIP_WEB_BUILD: '1' },
  });
}
