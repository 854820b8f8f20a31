// `npm start`: builds the console when it is missing or older than its sources, then runs
// the server in this process (tsx registers the TypeScript loader; Node 20 has no type
// stripping). The server migrates, seeds the demo data once and prints the URL and logins.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'apps/web/dist/index.html');

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

const sources = ['apps/web/src', 'apps/web/index.html', 'packages/protocol/src'].map((p) => join(root, p));
const stale =
  !existsSync(dist) ||
  sources.some(
    (p) => existsSync(p) && (statSync(p).isDirectory() ? newestMtime(p) : statSync(p).mtimeMs) > statSync(dist).mtimeMs,
  );

if (stale && !process.env.SKIP_WEB_BUILD) {
  console.log('Building the console (first start or sources changed)...');
  const build = spawnSync('npm', ['run', 'build', '-w', '@marquee/web'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const { register } = await import('tsx/esm/api');
register();
await import(pathToFileURL(join(root, 'apps/server/src/main.ts')).href);
