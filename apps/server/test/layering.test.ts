import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Every import of apps/server/src points down: seed and main (the application's composition)
// above the modules; protocol, auth and db beneath the modules; every module file ranked
// (moduleRank) and importing no module file of a higher rank; and no loop between modules
// (a module: a directory of src/modules). A file that reaches up fails here with its name and
// the import; a loop fails with the modules around it and the imports that close it.

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'migrations' ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** The src-relative targets of a file's relative imports (static, dynamic and re-exports). */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specs = [...text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)].map((m) => m[1]);
  return specs.map((spec) => relative(SRC, resolve(dirname(file), spec)).replace(/\.js$/, '.ts'));
}

const layer = (path: string) => path.split('/')[0];
/**
 * The rank of a module file, by its name: handlers (routes.ts, http.ts) 3; repositories,
 * presenters, registries, texts, messages and scoped columns (repository, presenter, registry,
 * texts, messages, *scope) 1, the data and declarations the others build on; every other file
 * (services, jobs, sources, listeners...) 2.
 */
function moduleRank(path: string): number {
  const name = (path.split('/').at(-1) ?? '').replace(/\.ts$/, '');
  if (name === 'routes' || name === 'http') return 3;
  if (/^(repository|presenter|registry|texts|messages)$|scope$/i.test(name)) return 1;
  return 2;
}

/** The module of a src-relative path (modules/<name>/...), or null outside the modules. */
const moduleOf = (path: string) => (path.startsWith('modules/') ? path.split('/')[1] : null);

/**
 * The loops between modules (strongly connected components of the module graph), each as
 * "a -> b -> ... -> a" with the file imports that close it.
 */
function moduleLoops(files: readonly { path: string; imports: readonly string[] }[]): string[] {
  const edges = new Map<string, Map<string, string>>();
  for (const { path, imports } of files) {
    const from = moduleOf(path);
    if (!from) continue;
    for (const to of imports) {
      const target = moduleOf(to);
      if (!target || target === from) continue;
      const out = edges.get(from) ?? new Map<string, string>();
      if (!out.has(target)) out.set(target, `${path} -> ${to}`);
      edges.set(from, out);
    }
  }
  // Tarjan's strongly connected components.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const components: string[][] = [];
  const visit = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v) as number);
    stack.push(v);
    for (const w of edges.get(v)?.keys() ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) as number, low.get(w) as number));
      } else if (stack.includes(w)) low.set(v, Math.min(low.get(v) as number, index.get(w) as number));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      for (let w = stack.pop(); w !== undefined; w = w === v ? undefined : stack.pop()) component.push(w);
      if (component.length > 1) components.push(component.sort());
    }
  };
  for (const v of [...edges.keys()].sort()) if (!index.has(v)) visit(v);
  return components.map((component) => {
    // One loop through the component, from its first module back to it (breadth first).
    const start = component[0];
    const previous = new Map<string, string>();
    const queue = [start];
    let last: string | undefined;
    while (queue.length > 0 && last === undefined) {
      const v = queue.shift() as string;
      for (const w of edges.get(v)?.keys() ?? []) {
        if (!component.includes(w)) continue;
        if (w === start) {
          last = v;
          break;
        }
        if (!previous.has(w)) {
          previous.set(w, v);
          queue.push(w);
        }
      }
    }
    const loop = [start];
    for (let v = last as string; v !== start; v = previous.get(v) as string) loop.splice(1, 0, v);
    loop.push(start);
    const why = loop.slice(1).map((to, i) => edges.get(loop[i])?.get(to));
    return `{${component.join(', ')}}: ${loop.join(' -> ')} (${why.join('; ')})`;
  });
}

/** Why `from` may not import `to`, or null when it points down. */
function violation(from: string, to: string): string | null {
  const source = layer(from);
  const target = layer(to);
  if (target === 'main.ts' || (target === 'app.ts' && from !== 'main.ts')) return 'only main.ts composes the app';
  if (target === 'seed' && source !== 'seed' && from !== 'main.ts') return 'only main.ts composes the seed';
  if (['protocol', 'auth', 'db'].includes(source) && (target === 'modules' || target === 'seed'))
    return `${source}/ lies beneath the modules`;
  if (source === 'db' && (target === 'protocol' || target === 'auth')) return 'db/ lies beneath protocol and auth';
  if (source === 'modules' && target === 'modules' && moduleRank(to) > moduleRank(from))
    return 'handlers -> services -> repositories, presenters, registries, texts, scopes';
  return null;
}

describe('server layering', () => {
  const files = sourceFiles(SRC).map((file) => ({ path: relative(SRC, file), imports: importsOf(file) }));

  it('reads the source tree', () => {
    expect(files.length).toBeGreaterThan(50);
    expect(files.some((f) => f.path === 'protocol/pipeline.ts')).toBe(true);
  });

  it('has every import pointing down', () => {
    const wrong = files.flatMap(({ path, imports }) =>
      imports.flatMap((to) => {
        const why = violation(path, to);
        return why ? [`${path} imports ${to}: ${why}`] : [];
      }),
    );
    expect(wrong).toEqual([]);
  });

  it('has no loop between modules', () => {
    expect(moduleLoops(files)).toEqual([]);
  });

  it('catches a loop between modules', () => {
    const loops = moduleLoops([
      { path: 'modules/a/service.ts', imports: ['modules/b/repository.ts', 'db/client.ts'] },
      { path: 'modules/b/repository.ts', imports: ['modules/c/texts.ts'] },
      { path: 'modules/c/texts.ts', imports: ['modules/a/scope.ts'] },
      { path: 'modules/d/service.ts', imports: ['modules/a/service.ts'] },
    ]);
    expect(loops).toEqual([
      '{a, b, c}: a -> b -> c -> a (modules/a/service.ts -> modules/b/repository.ts; ' +
        'modules/b/repository.ts -> modules/c/texts.ts; modules/c/texts.ts -> modules/a/scope.ts)',
    ]);
  });

  it('catches an upward import', () => {
    expect(violation('protocol/pipeline.ts', 'modules/operationLog/repository.ts')).not.toBeNull();
    expect(violation('modules/accounts/service.ts', 'seed/index.ts')).not.toBeNull();
    expect(violation('modules/profile/service.ts', 'modules/verification/routes.ts')).not.toBeNull();
    expect(violation('modules/dept/repository.ts', 'modules/sharing/repository.ts')).toBeNull();
    expect(violation('modules/ads/downloads.ts', 'modules/content/http.ts')).not.toBeNull();
    expect(violation('modules/devices/repository.ts', 'modules/devices/targets.ts')).not.toBeNull();
    expect(violation('modules/devices/targets.ts', 'modules/devices/groupScope.ts')).toBeNull();
  });
});
