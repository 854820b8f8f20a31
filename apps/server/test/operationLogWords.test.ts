import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { OPERATION_LOG_WORDS, RefType } from '@marquee/protocol';
import { describe, expect, it } from 'vitest';

/**
 * Issue 25: the operation log showed internal codes ('Audit pass', 'ref:5', 'materialUpload').
 * Every module, action and target code the server writes to the log must have its words in
 * the protocol's OPERATION_LOG_WORDS (zh-CN, en-US, ja), which the page and the Excel export
 * show. This test reads the code that writes log rows (ctx.audit, insertOperationLog,
 * queueCommands' audit, the modules' audit helpers and the demo seed) and names every code
 * without words.
 */
const SRC = join(import.meta.dirname, '../src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

const REF: Record<string, string> = RefType;

/** The string values of one expression: literals, both sides of a ternary, `ref:${RefType.x}`. */
function valuesOf(expression: string): string[] {
  // A template (the ads' review decisions) is listed by hand below; a ternary's values follow its '?'.
  if (expression.includes('`') && !/`ref:/.test(expression)) return [];
  const values = expression.includes('?') ? expression.slice(expression.indexOf('?')) : expression;
  const out = [...values.matchAll(/'([^']+)'/g)].map((m) => m[1]);
  for (const m of expression.matchAll(/`ref:\$\{RefType\.(\w+)\}`/g)) out.push(`ref:${REF[m[1]]}`);
  return out;
}

type Kind = keyof typeof OPERATION_LOG_WORDS;
const FIELD: Record<string, Kind> = { module: 'module', action: 'action', targetType: 'target' };

function writtenCodes(): { kind: Kind; code: string; where: string }[] {
  const found: { kind: Kind; code: string; where: string }[] = [];
  for (const file of sourceFiles(SRC)) {
    const source = readFileSync(file, 'utf8');
    const where = file.slice(SRC.length + 1);
    // The object literal after each call that writes a row.
    for (const call of source.matchAll(/\b(?:audit|insertOperationLog|queueCommands)\(/g)) {
      const text = source.slice(call.index, call.index + 1500);
      const end = text.search(/\n\s*\}\);|\}\);\n/);
      const body = end > 0 ? text.slice(0, end) : text;
      for (const m of body.matchAll(/\b(module|action|targetType):\s*([^,\n]+)/g)) {
        for (const code of valuesOf(m[2])) found.push({ kind: FIELD[m[1]], code, where });
      }
    }
    // The modules' audit helpers: auditAd(ctx, 'add', ...), audit(ctx, 'make', ...).
    for (const m of source.matchAll(/\baudit\w*\(\s*ctx,\s*([^,]+),/g)) {
      for (const code of valuesOf(m[1])) found.push({ kind: 'action', code, where });
    }
    // The demo seed's history rows: [login, module, action, targetType, ...].
    if (where !== join('seed', 'oplog.ts')) continue;
    for (const m of source.matchAll(/\['[\w.]+', '(\w+)', '([\w.]+)', '([\w:]+)'/g)) {
      found.push({ kind: 'module', code: m[1], where }, { kind: 'action', code: m[2], where });
      found.push({ kind: 'target', code: m[3], where });
    }
  }
  return found;
}

describe('operation log words', () => {
  it('finds the codes the server writes (the reading works)', () => {
    const codes = writtenCodes();
    const has = (kind: Kind, code: string) => codes.some((c) => c.kind === kind && c.code === code);
    expect(has('action', 'folderCreate')).toBe(true);
    expect(has('target', 'materialUpload')).toBe(true);
    expect(has('target', `ref:${RefType.ad}`)).toBe(true);
    expect(has('action', 'planAdd')).toBe(true);
    expect(has('module', 'strategy')).toBe(true);
    expect(has('action', 'monitorApply.agree')).toBe(true);
    expect(codes.length).toBeGreaterThan(200);
  });

  it('has words in zh-CN, en-US and ja for every code the server writes', () => {
    // Codes composed at run time: the ads' review decisions and the sheet imports of sharing.
    const composed: { kind: Kind; code: string; where: string }[] = [
      ...['auditPass', 'auditFail', 'secondAuditPass', 'secondAuditFail'].map((code) => ({
        kind: 'action' as const,
        code,
        where: 'modules/ads/service.ts',
      })),
      ...['allocate', 'recycle', 'import.allocate', 'import.recycle'].map((code) => ({
        kind: 'action' as const,
        code,
        where: 'modules/deviceGroups/share.ts',
      })),
      ...Object.values(RefType).map((n) => ({ kind: 'target' as const, code: `ref:${n}`, where: 'sharing' })),
    ];
    const missing = [...writtenCodes(), ...composed].filter(({ kind, code }) => {
      const words = (OPERATION_LOG_WORDS[kind] as Record<string, Record<string, string>>)[code];
      return !words || !['zh-CN', 'en-US', 'ja'].every((language) => words[language]?.trim());
    });
    expect([...new Set(missing.map((m) => `${m.kind} '${m.code}' (${m.where})`))]).toEqual([]);
  });
});
