import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The login route has a budget of 200 KB gzip of JavaScript (measured by `npm run bench`).
 * antd and TanStack Query alone would use most of it, so the modules the login route loads
 * statically must not import them; they arrive with the lazy antd root and the shell. This
 * test follows static imports (not `import()`) from the entry and the login page.
 */
const src = join(import.meta.dirname, '../src');

function resolveLocal(from: string, spec: string): string | undefined {
  const base = resolve(dirname(from), spec);
  const candidates = [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx'), base];
  return candidates.find((candidate) => existsSync(candidate) && /\.(tsx?|css)$/.test(candidate));
}

function staticPackages(entry: string): { packages: Set<string>; files: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (files.has(file)) continue;
    files.add(file);
    const source = readFileSync(file, 'utf8');
    for (const match of source.matchAll(
      /^\s*(?:import|export)\s+(?!type\b)(?:[^'";]*?\s+from\s+)?['"]([^'"]+)['"]/gm,
    )) {
      const spec = match[1];
      if (spec.startsWith('.')) {
        const local = resolveLocal(file, spec);
        if (local && /\.tsx?$/.test(local)) queue.push(local);
      } else {
        packages.add(spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]);
      }
    }
  }
  return { packages, files };
}

describe('what the login route loads', () => {
  it('sees antd where it is imported (the check works)', () => {
    expect([...staticPackages(join(src, 'app/AntdRoot.tsx')).packages]).toContain('antd');
  });

  for (const entry of ['main.tsx', 'features/auth/LoginPage.tsx']) {
    it(`${entry} imports neither antd nor TanStack Query statically`, () => {
      const { packages, files } = staticPackages(join(src, entry));
      expect(files.size).toBeGreaterThan(3);
      expect([...packages]).not.toContain('antd');
      expect([...packages]).not.toContain('@ant-design/icons');
      expect([...packages]).not.toContain('@tanstack/react-query');
      expect([...packages]).not.toContain('dompurify');
    });
  }
});
