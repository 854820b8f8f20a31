import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  buildMenu,
  ErrorCode,
  errorMessages,
  LOCALES,
  MENU_SECTIONS,
  ROUTES,
  validationMessages,
} from '@marquee/protocol';
import { describe, expect, it } from 'vitest';
import { PLAIN_TITLES } from '../src/app/pages';
import { SKIN_TOKENS } from '../src/components/skins';
import { currentLocale, i18n, initI18n, NAMESPACES, storeLocale, switchLocale } from '../src/i18n';

const here = import.meta.dirname;
const localesDir = join(here, '../src/i18n/locales');
const protocolSrc = join(here, '../../../packages/protocol/src');

type Bundle = Record<string, string>;

function readLocale(locale: string): Record<string, Bundle> {
  const out: Record<string, Bundle> = {};
  for (const file of readdirSync(join(localesDir, locale))) {
    if (!file.endsWith('.json')) continue;
    out[file.replace(/\.json$/, '')] = JSON.parse(readFileSync(join(localesDir, locale, file), 'utf8'));
  }
  return out;
}

const resources = Object.fromEntries(LOCALES.map((l) => [l, readLocale(l)])) as Record<string, Record<string, Bundle>>;
const allNamespaces = [...new Set(LOCALES.flatMap((l) => Object.keys(resources[l])))].sort();
/** i18next plural suffixes (English uses _one and _other; Chinese and Japanese have one form). */
const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;

/** The texts of each key, plural forms grouped under their base key. */
function pluralGroups(bundle: Bundle): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [key, text] of Object.entries(bundle)) {
    const base = key.replace(PLURAL_SUFFIX, '');
    out[base] = [...(out[base] ?? []), text];
  }
  return out;
}

const variables = (text: string) => [...text.matchAll(/\{\{\s*(\w+)[^}]*\}\}/g)].map((m) => m[1]).sort();

describe('i18n resources (guide convention 9: a test fails when any key is missing from any locale)', () => {
  it('has exactly the three locales of the spec', () => {
    expect(readdirSync(localesDir).sort()).toEqual([...LOCALES].sort());
  });

  it('has the required namespaces (and any shell.json) in every locale', () => {
    for (const ns of ['common', 'menu', 'login', 'errors', 'validation', 'pages']) expect(allNamespaces).toContain(ns);
    for (const locale of LOCALES) expect(Object.keys(resources[locale]).sort()).toEqual(allNamespaces);
  });

  it('discovers the same namespaces at run time as on disk', () => {
    expect([...NAMESPACES]).toEqual(allNamespaces);
  });

  for (const ns of allNamespaces) {
    it(`namespace ${ns}: every key in every locale, non-empty, same interpolation variables`, () => {
      const keys = [...new Set(LOCALES.flatMap((l) => Object.keys(pluralGroups(resources[l][ns] ?? {}))))].sort();
      expect(keys.length).toBeGreaterThan(0);
      const reference = pluralGroups(resources['zh-CN'][ns]);
      for (const locale of LOCALES) {
        const bundle = pluralGroups(resources[locale][ns] ?? {});
        const missing = keys.filter((k) => !(k in bundle));
        expect(missing, `${locale}/${ns}.json is missing keys`).toEqual([]);
        for (const key of keys) {
          const forms = bundle[key];
          for (const text of forms) {
            expect(typeof text, `${locale}/${ns}:${key}`).toBe('string');
            expect(text.trim(), `${locale}/${ns}:${key} is empty`).not.toBe('');
          }
          // The 'other' form (or the only one) has every variable; 'one' may say "the item" without the count.
          expect(variables(forms[forms.length - 1]), `${locale}/${ns}:${key} variables`).toEqual(
            variables(reference[key][0]),
          );
        }
      }
    });
  }

  it('counts use i18next plurals: English has the one and other forms wherever a count is shown', () => {
    for (const [ns, bundle] of Object.entries(resources['en-US'])) {
      for (const [key, text] of Object.entries(bundle)) {
        if (PLURAL_SUFFIX.test(key) || !variables(text).includes('count')) continue;
        // Only a count that is not followed by a noun may stay in one form ("{{count}} selected").
        expect(
          /\{\{count\}\} (selected|in total)|\({{count}}\)/.test(text),
          `en-US/${ns}:${key} needs _one/_other`,
        ).toBe(true);
      }
    }
    expect(resources['en-US'].templates.total_one).toBe('{{count}} template');
    expect(resources['en-US'].templates.total).toBeUndefined();
  });

  it('plural forms: English one/other, Chinese and Japanese one form', async () => {
    await initI18n('en-US');
    expect(i18n.t('total', { ns: 'templates', count: 1 })).toBe('1 template');
    expect(i18n.t('total', { ns: 'templates', count: 2 })).toBe('2 templates');
    expect(i18n.t('home.section.pages', { ns: 'pages', count: 1 })).toBe('1 page');
  });

  it('menu: a title for every route title, plain page, menu section and menu code', () => {
    const needed = new Set<string>([
      ...ROUTES.map((r) => r.title).filter((t): t is string => Boolean(t)),
      ...Object.values(PLAIN_TITLES),
      ...MENU_SECTIONS.map((s) => s.code),
    ]);
    const walk = (items: ReturnType<typeof buildMenu>) => {
      for (const item of items) {
        needed.add(item.code);
        walk(item.children ?? []);
      }
    };
    walk(buildMenu(() => true));
    for (const locale of LOCALES) {
      const missing = [...needed].filter((k) => !(k in resources[locale].menu));
      expect(missing, `${locale}/menu.json`).toEqual([]);
    }
  });

  it('errors: a message for every protocol error code, equal to the protocol catalogue', () => {
    for (const locale of LOCALES) {
      for (const [name, code] of Object.entries(ErrorCode)) {
        expect(resources[locale].errors[`code.${name}`], `${locale} code.${name}`).toBe(
          errorMessages[code][locale as keyof (typeof errorMessages)[typeof code]],
        );
      }
    }
  });

  it('validation: every message key used by the protocol validation rules', () => {
    const keys = new Set<string>();
    const files = readdirSync(protocolSrc, { recursive: true, withFileTypes: true }).filter((f) => f.isFile());
    for (const file of files) {
      const source = readFileSync(join(file.parentPath, file.name), 'utf8');
      for (const m of source.matchAll(/['"`]validation\.(\w+)['"`]/g)) keys.add(m[1]);
    }
    expect(keys.size).toBeGreaterThan(5);
    const missing = [...keys].filter((k) => !(k in validationMessages));
    expect(missing, 'validationMessages.ts').toEqual([]);
  });

  it('validation: the same messages as the protocol catalogue (the server answers with them)', () => {
    for (const locale of LOCALES) {
      const catalogue = Object.fromEntries(
        Object.entries(validationMessages).map(([key, texts]) => [key, texts[locale as keyof typeof texts]]),
      );
      expect(resources[locale].validation, `${locale}/validation.json`).toEqual(catalogue);
    }
  });

  it('pages: a name for every skin', () => {
    for (const locale of LOCALES) {
      for (const tokens of Object.values(SKIN_TOKENS)) expect(resources[locale].pages[tokens.name]).toBeTruthy();
    }
  });

  it('the offline banner and the 404 text read as the spec says', () => {
    expect(resources['en-US'].common['offline.banner']).toBe(
      'The network is not available. Please check your network Settings',
    );
    expect(resources['zh-CN'].common['offline.banner']).toBe('网络不可用，请检查您的网络设置');
    expect(resources['en-US'].pages['notFound.title']).toBe('This page could not be found');
    expect(resources['en-US'].errors.serverError).toBe('Server Error【{{code}}】');
  });
});

describe('locale selection (spec section 4)', () => {
  it('defaults to zh-CN and follows the mq_locale cookie', () => {
    // biome-ignore lint/suspicious/noDocumentCookie: the test sets the cookie the way a browser holds it
    document.cookie = 'mq_locale=; max-age=0; path=/';
    expect(currentLocale()).toBe('zh-CN');
    expect(storeLocale('ja')).toBe(true);
    expect(currentLocale()).toBe('ja');
    // biome-ignore lint/suspicious/noDocumentCookie: a cookie value outside the allowed list
    document.cookie = 'mq_locale=fr-FR; path=/';
    expect(currentLocale()).toBe('zh-CN');
  });

  it('switchLocale refuses a locale outside the allowed list and reloads otherwise', () => {
    let reloads = 0;
    expect(switchLocale('de-DE', () => reloads++)).toBe(false);
    expect(reloads).toBe(0);
    expect(switchLocale('en-US', () => reloads++)).toBe(true);
    expect(reloads).toBe(1);
    expect(currentLocale()).toBe('en-US');
  });

  it('loads only the current locale before the first render, with flat dotted keys', async () => {
    await initI18n('en-US');
    expect(i18n.language).toBe('en-US');
    expect(Object.keys(i18n.store.data)).toEqual(['en-US']);
    expect(i18n.t('home.greeting.morning', { ns: 'pages', name: 'Ada' })).toBe('Good morning, Ada');
    expect(i18n.t('offline.banner', { ns: 'common' })).toBe(
      'The network is not available. Please check your network Settings',
    );
  });
});
