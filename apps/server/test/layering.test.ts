import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Every import of apps/server/src points down: seed and main (the application's composition)
// above the modules; inside a module routes -> service -> repository; protocol, auth and db
// beneath the modules. A file that reaches up fails here with its name and the import.

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
/** The kind of a module file: routes (and handlers) above services above repositories. */
function moduleRank(path: string): number | null {
  const name = path.split('/').at(-1) ?? '';
  if (name === 'routes.ts') return 3;
  if (name === 'service.ts') return 2;
  if (name === 'repository.ts') return 1;
  return null;
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
  if (source === 'modules' && target === 'modules') {
    const a = moduleRank(from);
    const b = moduleRank(to);
    if (a !== null && b !== null && b > a) return 'routes -> service -> repository';
  }
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

  it('catches an upward import', () => {
    expect(violation('protocol/pipeline.ts', 'modules/operationLog/repository.ts')).not.toBeNull();
    expect(violation('modules/accounts/service.ts', 'seed/index.ts')).not.toBeNull();
    expect(violation('modules/profile/service.ts', 'modules/verification/routes.ts')).not.toBeNull();
    expect(violation('modules/dept/repository.ts', 'modules/sharing/repository.ts')).toBeNull();
  });
});
