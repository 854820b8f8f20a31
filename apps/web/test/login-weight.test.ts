import { existsSync, readdirSync, readFileSync } from 'node:fs';
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

/** The i18next namespaces a file names: useTranslation / useT, tr(ns, ...), { ns: ... }, t('ns:key'). */
function namespacesIn(source: string): string[] {
  const found: string[] = [];
  for (const m of source.matchAll(/\b(?:useTranslation|useT)\(\s*(\[[^\]]*\]|'[^']*')/g)) {
    for (const ns of m[1].matchAll(/'([^']+)'/g)) found.push(ns[1]);
  }
  for (const m of source.matchAll(/\btr\(\s*'([^']+)'/g)) found.push(m[1]);
  for (const m of source.matchAll(/\bns:\s*'([^']+)'/g)) found.push(m[1]);
  for (const m of source.matchAll(/\bt\(\s*'([a-zA-Z]+):/g)) found.push(m[1]);
  return found;
}

describe('the texts the login route loads (issue 25: its 200 KB aim)', () => {
  it('main.tsx loads only the boot namespaces before the first render', () => {
    expect(readFileSync(join(src, 'main.tsx'), 'utf8')).toMatch(/initI18n\(locale, BOOT_NAMESPACES\)/);
  });

  it('every namespace the login route names statically is a boot namespace', async () => {
    const { BOOT_NAMESPACES } = await import('../src/i18n');
    const files = new Set([
      ...staticPackages(join(src, 'main.tsx')).files,
      // The login page's own lazy parts (scan login, password retrieval) render on /login too.
      ...['LoginPage', 'ScanLogin', 'ForgotPassword'].flatMap((page) => [
        ...staticPackages(join(src, `features/auth/${page}.tsx`)).files,
      ]),
    ]);
    const named = new Set([...files].flatMap((file) => namespacesIn(readFileSync(file, 'utf8'))));
    expect([...named]).toContain('login');
    expect([...named].filter((ns) => !BOOT_NAMESPACES.includes(ns))).toEqual([]);
    expect(BOOT_NAMESPACES.length).toBeLessThan(10);
  });
});

describe("the texts of one feature's pages (the shell's 400 KB aim)", () => {
  function sourceFiles(dir: string): string[] {
    return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return sourceFiles(path);
      return /\.tsx?$/.test(entry.name) ? [path] : [];
    });
  }

  it('names each page namespace only inside its feature, whose page loaders load it', async () => {
    const { PAGE_NAMESPACES } = await import('../src/i18n');
    expect(Object.keys(PAGE_NAMESPACES).length).toBeGreaterThan(0);
    const outside = sourceFiles(src).flatMap((file) =>
      namespacesIn(readFileSync(file, 'utf8'))
        .filter((ns) => ns in PAGE_NAMESPACES && !file.startsWith(join(src, PAGE_NAMESPACES[ns])))
        .map((ns) => `${ns} in ${file.slice(src.length + 1)}`),
    );
    expect(outside).toEqual([]);
    // shell/pages.ts loads a page's texts with it when its feature directory is such a
    // namespace: the namespace is named after its feature, and some route's page is in it.
    const { ROUTES } = await import('@marquee/protocol');
    for (const [ns, feature] of Object.entries(PAGE_NAMESPACES)) {
      expect(feature).toBe(`features/${ns}`);
      expect(ROUTES.some((r) => r.page?.startsWith(`${ns}/`))).toBe(true);
    }
    const { pageModule } = await import('../src/shell/pages');
    const load = async () => ({ default: () => null });
    const [ns] = Object.keys(PAGE_NAMESPACES);
    // A page of such a feature is wrapped (its texts load beside it); any other is loaded as it is.
    expect(pageModule({ [`../features/${ns}/XPage.tsx`]: load }, `${ns}/XPage`)).not.toBe(load);
    expect(pageModule({ '../features/splice/XPage.tsx': load }, 'splice/XPage')).toBe(load);
  });
});
