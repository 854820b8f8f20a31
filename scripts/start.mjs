// `npm start`: builds the console when it is missing or older than its sources, then runs
// the server in this process. The server runs from apps/server/dist/main.mjs, an esbuild
// bundle rebuilt here when its sources changed (scripts/server-bundle.mjs); if that build
// fails, or SKIP_SERVER_BUNDLE is set, the TypeScript sources run through the tsx loader
// instead. The server migrates, seeds the demo data once and prints the URL and logins.
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

const sources = [
  'apps/web/src',
  'apps/web/index.html',
  'apps/web/vite.config.ts',
  'apps/web/vite.compress.ts',
  'packages/protocol/src',
].map((p) => join(root, p));
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

// The browser player (apps/player, served at /player/): built the same way when stale.
const playerDist = join(root, 'apps/player/dist/index.html');
const playerSources = ['apps/player/src', 'apps/player/public', 'apps/player/index.html', 'packages/protocol/src'].map(
  (p) => join(root, p),
);
const playerStale =
  !existsSync(playerDist) ||
  playerSources.some(
    (p) =>
      existsSync(p) &&
      (statSync(p).isDirectory() ? newestMtime(p) : statSync(p).mtimeMs) > statSync(playerDist).mtimeMs,
  );
if (playerStale && !process.env.SKIP_WEB_BUILD && existsSync(join(root, 'apps/player/src'))) {
  console.log('Building the player (first start or sources changed)...');
  const build = spawnSync('npm', ['run', 'build', '-w', '@marquee/player'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

let bundle = null;
if (!process.env.SKIP_SERVER_BUNDLE) {
  const { bundleFile, bundleIsStale, buildServerBundle } = await import('./server-bundle.mjs');
  try {
    bundle = bundleIsStale() ? await buildServerBundle() : bundleFile;
  } catch (err) {
    const where = (e) => (e.location ? `${e.location.file}:${e.location.line}: ` : '');
    const reason = err?.errors?.length
      ? err.errors.map((e) => `${where(e)}${e.text}`).join('; ')
      : String(err?.message ?? err);
    console.warn(`Could not bundle the server (${reason}); running its TypeScript through tsx instead.`);
  }
}

if (bundle) {
  // Stack traces name apps/server/src lines, as they do under tsx.
  process.setSourceMapsEnabled(true);
  await import(pathToFileURL(bundle).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(pathToFileURL(join(root, 'apps/server/src/main.ts')).href);
}
