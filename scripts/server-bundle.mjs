// The server as one JavaScript file: esbuild bundles apps/server/src and the workspace's
// TypeScript packages (@marquee/protocol) into apps/server/dist/main.mjs; every other
// package stays an ordinary import resolved from node_modules. `npm start` runs this file
// with plain Node, which starts ~0.5 s sooner (~1 s less CPU) than loading ~150 modules via the
// tsx loader. `node scripts/server-bundle.mjs` (or `npm run build -w @marquee/server`)
// builds it by hand.
import { closeSync, openSync, readdirSync, readFileSync, readSync, renameSync, rmSync, statSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outdir = join(root, 'apps/server/dist');
/** The bundle's entry; its first line records the sources it was built from. */
export const bundleFile = join(outdir, 'main.mjs');
const STAMP = '// marquee-server-bundle ';

/** Everything whose change changes the bundle (directories count, so deletions show too). */
const inputs = [
  'apps/server/src',
  'apps/server/tsconfig.json',
  'apps/server/package.json',
  'packages',
  'tsconfig.base.json',
  'node_modules/esbuild/package.json',
  'scripts/server-bundle.mjs',
];

function walk(path, acc) {
  let stat;
  try {
    stat = statSync(path);
  } catch {
    return;
  }
  acc.count++;
  acc.newest = Math.max(acc.newest, stat.mtimeMs);
  if (!stat.isDirectory()) return;
  for (const name of readdirSync(path)) if (name !== 'node_modules' && name !== 'dist') walk(join(path, name), acc);
}

/**
 * A fingerprint of the inputs: newest mtime and number of entries. Taken before a build,
 * so a file saved while esbuild runs makes the next start rebuild.
 */
export function sourcesFingerprint() {
  const acc = { newest: 0, count: 0 };
  for (const p of inputs) walk(join(root, p), acc);
  // The bundle targets the running Node's syntax, so another Node major rebuilds it.
  return `node${process.versions.node.split('.')[0]}:${acc.newest}:${acc.count}`;
}

/** The fingerprint the current bundle was built from, or null when there is no bundle. */
function bundleFingerprint() {
  let fd;
  try {
    fd = openSync(bundleFile, 'r');
  } catch {
    return null;
  }
  try {
    const head = Buffer.alloc(200);
    const line = head.toString('utf8', 0, readSync(fd, head, 0, head.length, 0)).split('\n')[0];
    return line.startsWith(STAMP) ? line.slice(STAMP.length) : null;
  } finally {
    closeSync(fd);
  }
}

/** True when the bundle is missing or was built from other sources than the ones on disk. */
export function bundleIsStale() {
  return bundleFingerprint() !== sourcesFingerprint();
}

/**
 * `import.meta.url` would name the bundle once the code moves into it; each source file
 * gets its own URL instead, so paths built from it (the migrations folder, the repository
 * root) are the same as under tsx. The URL is relative to the bundle, so a moved checkout
 * still finds its files.
 */
const keepImportMetaUrl = {
  name: 'keep-import-meta-url',
  setup(build) {
    build.onLoad({ filter: /\.[cm]?[jt]sx?$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      const other = source.match(/import\.meta\.(dirname|filename|resolve)\b/);
      if (other) return { errors: [{ text: `${other[0]} is not rewritten for the bundle; use import.meta.url` }] };
      const fromBundle = relative(outdir, args.path).split(sep).join('/');
      const url = `new URL(${JSON.stringify(fromBundle)}, import.meta.url).href`;
      // .ts, .mts, .tsx, .js ... -> the loader of the same name without the c/m.
      const loader = /[jt]sx?$/.exec(args.path)[0];
      return { contents: source.replaceAll('import.meta.url', url), loader };
    });
  },
};

/**
 * Bare imports stay imports, except the workspace's own packages, which are TypeScript
 * source with no build of their own and are bundled.
 */
const externalPackages = {
  name: 'external-packages',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith('@marquee/') ? undefined : { external: true },
    );
  },
};

/** Builds apps/server/dist/main.mjs; replaces the previous bundle atomically. */
export async function buildServerBundle() {
  const fingerprint = sourcesFingerprint();
  const esbuild = await import('esbuild');
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: [join(root, 'apps/server/src/main.ts')],
    outfile: bundleFile,
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'node',
    target: `node${process.versions.node.split('.')[0]}`,
    // As tsx does: class and function names survive the renaming bundling needs.
    keepNames: true,
    sourcemap: 'linked',
    banner: { js: `${STAMP}${fingerprint}` },
    plugins: [keepImportMetaUrl, externalPackages],
    logLevel: 'warning',
  });
  await mkdir(outdir, { recursive: true });
  // Several starts may build at once (tests, e2e, bench): each writes its own files and
  // renames them into place, the map before the code that points at it.
  const isMap = (file) => Number(file.path.endsWith('.map'));
  const files = [...result.outputFiles].sort((a, b) => isMap(b) - isMap(a));
  for (const file of files) {
    const tmp = `${file.path}.${process.pid}.tmp`;
    await writeFile(tmp, file.contents);
    try {
      renameSync(tmp, file.path);
    } catch (err) {
      rmSync(tmp, { force: true });
      throw err;
    }
  }
  return bundleFile;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const started = performance.now();
  await buildServerBundle();
  console.log(`apps/server/dist/main.mjs built in ${Math.round(performance.now() - started)} ms`);
}
