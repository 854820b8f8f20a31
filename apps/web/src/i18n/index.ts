import { FALLBACK_LOCALE, isLocale, LOCALES, type Locale } from '@marquee/protocol';
import i18next, { type i18n as I18n } from 'i18next';
import { initReactI18next, useTranslation } from 'react-i18next';

/**
 * Interface languages (spec sections 1 and 9): zh-CN (default and fallback), en-US, ja.
 *
 * Resources are JSON files, one per namespace per locale, at `locales/<locale>/<ns>.json`
 * with flat dotted keys (`"form.account": "..."`). They are discovered with a lazy glob, so
 * a new namespace is just a new file in every locale folder, and only the files of the
 * current locale are fetched before the first render.
 */
export const LOCALE_COOKIE = 'mq_locale';
export { FALLBACK_LOCALE, LOCALES, type Locale };

type Resource = Record<string, string>;

const loaders = import.meta.glob<{ default: Resource }>('./locales/*/*.json');

function parseResourcePath(path: string): { locale: string; ns: string } | null {
  const match = /\.\/locales\/([^/]+)\/([^/]+)\.json$/.exec(path);
  return match ? { locale: match[1], ns: match[2] } : null;
}

/** Every namespace that has a resource file in some locale. */
export const NAMESPACES: readonly string[] = [
  ...new Set(
    Object.keys(loaders)
      .map((path) => parseResourcePath(path)?.ns)
      .filter((ns): ns is string => Boolean(ns)),
  ),
].sort();

function readCookie(name: string): string | undefined {
  if (typeof document === 'undefined') return undefined;
  for (const part of document.cookie.split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return decodeURIComponent(rest.join('='));
  }
  return undefined;
}

/** The locale chosen by the user (cookie `mq_locale`), or zh-CN. */
export function currentLocale(): Locale {
  const fromCookie = readCookie(LOCALE_COOKIE);
  return isLocale(fromCookie) ? fromCookie : FALLBACK_LOCALE;
}

/** Stores the locale in the cookie (one year, whole site). Returns false for a locale not allowed. */
export function storeLocale(locale: string): boolean {
  if (!isLocale(locale)) return false;
  // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is async and missing in Firefox; the cookie must be set before the reload that follows
  document.cookie = `${LOCALE_COOKIE}=${encodeURIComponent(locale)}; path=/; max-age=31536000; SameSite=Lax`;
  return true;
}

/**
 * Spec section 4: the language switch stores the locale in a cookie and reloads the page;
 * a locale outside the allowed list is refused (returns false, nothing changes).
 */
export function switchLocale(locale: string, reload: () => void = () => window.location.reload()): boolean {
  if (!storeLocale(locale)) return false;
  reload();
  return true;
}

/**
 * The namespaces the first screen needs: the light /login route (no antd), the root layout, the
 * loading bar and the API client's errors. main.tsx loads only these before the first render;
 * the rest come with antd's root (loadRemainingNamespaces), before any other page renders, so
 * the login route does not download every page's texts (issue 25: its 200 KB aim). A test
 * follows the login route's static imports and fails on a namespace missing here.
 */
export const BOOT_NAMESPACES: readonly string[] = ['auth', 'common', 'errors', 'login', 'menu', 'pages', 'validation'];

/**
 * Namespaces of one feature's pages only (the layout editor's, the posters'): their pages'
 * loaders (shell/pages.ts) load them, so the shell after login does not download them (its
 * 400 KB aim). A test keeps every file naming one inside its feature.
 */
export const PAGE_NAMESPACES: Readonly<Record<string, string>> = {
  layoutEditor: 'features/layoutEditor',
  posters: 'features/posters',
};

/** Loads the namespaces of one locale (every one when `only` is not given). */
export async function loadLocaleResources(locale: Locale, only?: readonly string[]): Promise<Record<string, Resource>> {
  const out: Record<string, Resource> = {};
  await Promise.all(
    Object.entries(loaders).map(async ([path, load]) => {
      const parsed = parseResourcePath(path);
      if (!parsed || parsed.locale !== locale || (only && !only.includes(parsed.ns))) return;
      out[parsed.ns] = (await load()).default;
    }),
  );
  return out;
}

export const i18n: I18n = i18next.createInstance();

/**
 * Initialises i18next with the current locale's resources. Call once before the first render;
 * later calls return the same instance.
 */
export async function initI18n(
  locale: Locale = currentLocale(),
  namespaces: readonly string[] = NAMESPACES,
): Promise<I18n> {
  if (i18n.isInitialized && i18n.language === locale) {
    await loadRemainingNamespaces(namespaces);
    return i18n;
  }
  const resources = await loadLocaleResources(locale, namespaces);
  if (i18n.isInitialized) {
    for (const [ns, bundle] of Object.entries(resources)) i18n.addResourceBundle(locale, ns, bundle, true, true);
    await i18n.changeLanguage(locale);
    return i18n;
  }
  await i18n.use(initReactI18next).init({
    lng: locale,
    fallbackLng: FALLBACK_LOCALE,
    supportedLngs: [...LOCALES],
    resources: { [locale]: resources },
    ns: Object.keys(resources),
    defaultNS: 'common',
    // Flat dotted keys: "form.account" is one key, not a path.
    keySeparator: false,
    nsSeparator: ':',
    interpolation: { escapeValue: false },
    returnNull: false,
    initAsync: false,
  });
  if (typeof document !== 'undefined') document.documentElement.lang = locale;
  return i18n;
}

/**
 * Loads the namespaces (of `wanted`; by default every one but PAGE_NAMESPACES) of the current
 * language that are not loaded yet: antd's root awaits it, so every page but /login renders with
 * them, and the pages of PAGE_NAMESPACES' features with their own too.
 */
export async function loadRemainingNamespaces(
  wanted: readonly string[] = NAMESPACES.filter((ns) => !(ns in PAGE_NAMESPACES)),
): Promise<void> {
  const locale = i18n.language as Locale;
  const missing = wanted.filter((ns) => !i18n.hasResourceBundle(locale, ns));
  if (missing.length === 0) return;
  const resources = await loadLocaleResources(locale, missing);
  for (const [ns, bundle] of Object.entries(resources)) i18n.addResourceBundle(locale, ns, bundle, true, true);
}

/** Translation function of one namespace outside React (API client, stores). */
export function tr(ns: string, key: string, options?: Record<string, unknown>): string {
  return i18n.t(key, { ns, ...options });
}

/** `useTranslation` of one namespace (react-i18next). */
export function useT(ns: string | readonly string[] = 'common') {
  return useTranslation(ns as string);
}
