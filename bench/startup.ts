// (c) `npm start` time to ready with an existing data directory: the first start migrates
// and seeds; the next starts are timed from spawn to the first answered request.
import { join } from 'node:path';
import { freePort, root, startServer, stop } from './lib.js';

const PORT = await freePort();
const dataDir = join(root, '.tmp/bench-startup');
const first = await startServer({ port: PORT, dataDir, fresh: true });
console.log(`first start (fresh data dir: migrate + seed): ${first.readyMs.toFixed(0)} ms`);
await stop(first.child);
const runs: number[] = [];
for (let i = 0; i < 5; i++) {
  const { child, readyMs } = await startServer({ port: PORT, dataDir });
  runs.push(readyMs);
  await stop(child);
}
runs.sort((a, b) => a - b);
console.log(
  `start with existing data dir: median ${runs[2].toFixed(0)} ms, min ${runs[0].toFixed(0)} ms, max ${runs[4].toFixed(0)} ms over 5 runs (aim <= 2000 ms)`,
);
