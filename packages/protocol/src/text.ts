/**
 * Text a call may carry (docs/protocol.md, "Text"). PostgreSQL `text` and `jsonb` cannot hold
 * a NUL character, and a lone UTF-16 surrogate is not text at all (no UTF-8 encodes it), so
 * both are refused where a payload is decoded, for every endpoint of today and later, before
 * any schema or database sees them. Payloads nest at most MAX_PAYLOAD_DEPTH levels.
 */
export const MAX_PAYLOAD_DEPTH = 32;

// biome-ignore lint/suspicious/noControlCharactersInRegex: the NUL is what this pattern finds
const UNSAFE_TEXT = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** True when `text` holds no NUL and no lone surrogate. */
export function isSafeText(text: string): boolean {
  return !UNSAFE_TEXT.test(text);
}

/** `text` with every NUL and lone surrogate replaced by U+FFFD (for names the server echoes). */
export function toSafeText(text: string): string {
  return text.replace(new RegExp(UNSAFE_TEXT.source, 'g'), '\uFFFD');
}

export type UnsafeValue = { path: string; reason: 'invalid_text' | 'too_deep' };

/**
 * The first place in a decoded JSON value that is not safe text (a string value or an object
 * key) or lies deeper than `maxDepth`, as a dotted path like the schema's (`allocateInfos.0.id`,
 * `payload` for the root); null when the whole value is safe. Iterative, so any nesting is
 * walked without recursion.
 */
export function findUnsafeValue(value: unknown, maxDepth = MAX_PAYLOAD_DEPTH): UnsafeValue | null {
  const stack: { value: unknown; path: string[] }[] = [{ value, path: [] }];
  const name = (path: string[]) => (path.length ? path.join('.') : 'payload');
  while (stack.length > 0) {
    const item = stack.pop() as { value: unknown; path: string[] };
    const current = item.value;
    if (typeof current === 'string') {
      if (!isSafeText(current)) return { path: name(item.path), reason: 'invalid_text' };
      continue;
    }
    if (current === null || typeof current !== 'object') continue;
    if (item.path.length >= maxDepth) return { path: name(item.path), reason: 'too_deep' };
    const entries = Array.isArray(current)
      ? current.map((v, i) => [String(i), v] as const)
      : Object.entries(current as Record<string, unknown>);
    // Pushed in reverse so the first field is reported first.
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, child] = entries[i];
      const path = [...item.path, key];
      if (!isSafeText(key)) return { path: name([...item.path, toSafeText(key)]), reason: 'invalid_text' };
      stack.push({ value: child, path });
    }
  }
  return null;
}
