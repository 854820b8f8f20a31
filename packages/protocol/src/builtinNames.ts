import type { Locale } from './errors.js';

/**
 * The names of the objects the system creates itself (built-in roles), by the key stored in
 * their `builtin_key` column, in each console language (wording: apps/web/src/i18n/glossary.json).
 * The server answers such an object's name in the caller's language (apps/server/src/db/builtinNames.ts);
 * names people give are never translated, and renaming a built-in object makes its name theirs.
 */
export const BUILTIN_NAMES = {
  /** The administrator role every enterprise is created with. */
  enterprise_admin: { 'zh-CN': '企业管理员', 'en-US': 'Enterprise administrator', ja: '企業管理者' },
  /** The administrator role of the platform operator (the provider enterprise). */
  platform_operator: { 'zh-CN': '平台运营人员', 'en-US': 'Platform operator', ja: 'プラットフォーム運営者' },
  /** The role an enterprise's advertiser accounts get, made with its first advertiser. */
  advertiser: { 'zh-CN': '广告主', 'en-US': 'Advertiser', ja: '広告主' },
} as const satisfies Record<string, Record<Locale, string>>;

export type BuiltinKey = keyof typeof BUILTIN_NAMES;

export const BUILTIN_KEYS = Object.keys(BUILTIN_NAMES) as BuiltinKey[];
