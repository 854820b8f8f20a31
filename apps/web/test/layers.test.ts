import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The web reads top-down, as the server does: a module imports only from its own layer or a
 * layer below it. `main.tsx` is the entry; `app` is the router and the antd root; `shell` the
 * layout around the pages; `features` the pages; `components` the shared pieces pages are made
 * of; `api` the one client; `session` the session store, permissions (`useCan`), navigation
 * from outside React and route guards; `i18n` the translations. Upper layers hook into a
 * lower one where it needs them (session.onLoggedOut, setServerLogout) instead of being
 * imported by it. Type-only and dynamic imports count too.
 */
export const LAYERS = ['main', 'app', 'shell', 'features', 'components', 'api', 'session', 'i18n'] as const;

const src = join(import.meta.dirname, '../src');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

function layerOf(file: string): string {
  const [top] = relative(src, file).split(sep);
  return /^main\.tsx?$/.test(top) ? 'main' : top;
}

/** Every relative import of a file: static, type-only, re-exports and import(). */
export function importsOf(source: string): string[] {
  const specs = [
    ...source.matchAll(/^\s*(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\s+from\s+)?['"](\.[^'"]*)['"]/gm),
    ...source.matchAll(/\bimport\(\s*['"](\.[^'"]*)['"]\s*\)/g),
  ].map((m) => m[1]);
  return [...new Set(specs)];
}

/** Imports that go up the order, as `from -> to: file imports 'spec'`. */
export function layerViolations(files: readonly { file: string; source: string }[]): string[] {
  const out: string[] = [];
  for (const { file, source } of files) {
    const from = layerOf(file);
    const rank = LAYERS.indexOf(from as (typeof LAYERS)[number]);
    for (const spec of importsOf(source)) {
      const target = resolve(dirname(file), spec);
      if (!target.startsWith(src + sep)) continue;
      const to = layerOf(target);
      const toRank = LAYERS.indexOf(to as (typeof LAYERS)[number]);
      if (toRank < rank) out.push(`${from} -> ${to}: ${relative(src, file)} imports '${spec}'`);
    }
  }
  return out;
}

describe('layers of the web', () => {
  const files = sources(src);

  it('puts every source file in a known layer', () => {
    const unknown = files.map(layerOf).filter((layer) => !LAYERS.includes(layer as (typeof LAYERS)[number]));
    expect([...new Set(unknown)]).toEqual([]);
  });

  it('imports only from the same layer or a lower one', () => {
    expect(layerViolations(files.map((file) => ({ file, source: readFileSync(file, 'utf8') })))).toEqual([]);
  });

  it('reports an upward import, static, type-only or dynamic', () => {
    const page = join(src, 'features', 'x', 'Page.tsx');
    const source = [
      "import { useCan } from '../../session/useCan';",
      "import { Thing } from '../../components/Thing';",
      "import type { Tab } from '../../shell/tabs/store';",
      "const root = () => import('../../app/AntdRoot');",
    ].join('\n');
    expect(layerViolations([{ file: page, source }])).toEqual([
      "features -> shell: features/x/Page.tsx imports '../../shell/tabs/store'",
      "features -> app: features/x/Page.tsx imports '../../app/AntdRoot'",
    ]);
    const session = join(src, 'session', 'session.ts');
    expect(layerViolations([{ file: session, source: "import { call } from '../api/client';" }])).toEqual([
      "session -> api: session/session.ts imports '../api/client'",
    ]);
  });
});
