import {
  BUILTIN_KEYS,
  BUILTIN_NAMES,
  type BuiltinKey,
  FALLBACK_LOCALE,
  isLocale,
  type Locale,
} from '@marquee/protocol';
import { type AnyColumn, type SQL, sql } from 'drizzle-orm';

/**
 * The name of an object the system may have created (a table with `builtin_key` and `name`),
 * as the console shows it: the BUILTIN_NAMES entry of its key in `language` for a built-in
 * object, the stored name for any other. One SQL expression, so lists, pickers, tags, sorting
 * and name filters all read the same name (docs/ARCHITECTURE.md, "Built-in names").
 */
export function displayName(table: { builtinKey: AnyColumn; name: AnyColumn }, language: string): SQL<string> {
  const locale: Locale = isLocale(language) ? language : FALLBACK_LOCALE;
  const branches = BUILTIN_KEYS.map((key) => sql`when ${key} then ${BUILTIN_NAMES[key][locale]}`);
  return sql<string>`(case ${table.builtinKey} ${sql.join(branches, sql` `)} else ${table.name} end)`;
}

/**
 * The keys whose built-in name, in any language, is `name` (case-insensitive): a name people
 * give must not be one a built-in object shows in some language.
 */
export function builtinKeysNamed(name: string): BuiltinKey[] {
  const wanted = name.trim().toLowerCase();
  return BUILTIN_KEYS.filter((key) => Object.values(BUILTIN_NAMES[key]).some((n) => n.toLowerCase() === wanted));
}

/** True when `name` is how the built-in object of `key` reads in one of the languages. */
export function isBuiltinName(key: string | null, name: string): boolean {
  return key !== null && (builtinKeysNamed(name) as string[]).includes(key);
}
