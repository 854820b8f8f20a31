import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BUILTIN_NAMES, LOCALES, validationMessages } from '@marquee/protocol';
import { describe, expect, it } from 'vitest';
import glossary from '../src/i18n/glossary.json';

type Locale = (typeof LOCALES)[number];
interface Term {
  concept: string;
  'zh-CN': { use: string; avoid: string[] };
  'en-US': { use: string; avoid: string[] };
  ja: { use: string; avoid: string[] };
}

const localesDir = join(import.meta.dirname, '../src/i18n/locales');

/** Every string of a locale: its JSON files and the protocol's messages (validation) and built-in names in it. */
function strings(locale: Locale): { where: string; text: string }[] {
  const out: { where: string; text: string }[] = [];
  for (const file of readdirSync(join(localesDir, locale))) {
    const bundle = JSON.parse(readFileSync(join(localesDir, locale, file), 'utf8')) as Record<string, string>;
    for (const [key, text] of Object.entries(bundle)) out.push({ where: `${locale}/${file}:${key}`, text });
  }
  for (const [key, texts] of Object.entries(validationMessages))
    out.push({ where: `validationMessages.${key}`, text: texts[locale] });
  for (const [key, names] of Object.entries(BUILTIN_NAMES))
    out.push({ where: `BUILTIN_NAMES.${key}`, text: names[locale] });
  return out;
}

describe('glossary (apps/web/src/i18n/glossary.json): one approved term per main noun and language', () => {
  const terms = glossary.terms as Term[];

  it('names every main noun in the three languages', () => {
    const concepts = terms.map((t) => t.concept.split(' ')[0]);
    for (const noun of [
      'enterprise',
      'department',
      'account',
      'role',
      'advertiser',
      'template',
      'material',
      'device',
      'screen',
      'ad',
      'layout',
      'store',
      'group',
      'tag',
      'strategy',
      'review',
    ])
      expect(concepts).toContain(noun);
    for (const term of terms) for (const locale of LOCALES) expect(term[locale].use.trim()).not.toBe('');
  });

  it('an approved term is never one of its own forbidden variants', () => {
    for (const term of terms)
      for (const locale of LOCALES)
        for (const avoid of term[locale].avoid)
          expect(new RegExp(avoid).test(term[locale].use), `${term.concept} ${locale}`).toBe(false);
  });

  for (const locale of LOCALES) {
    it(`${locale}: no string uses a forbidden variant of a main noun`, () => {
      const found: string[] = [];
      for (const { where, text } of strings(locale)) {
        for (const term of terms) {
          for (const avoid of term[locale].avoid) {
            if (new RegExp(avoid).test(text))
              found.push(`${where}: "${text}" uses /${avoid}/ (use "${term[locale].use}")`);
          }
        }
      }
      expect(found).toEqual([]);
    });
  }
});
