/**
 * Text a call may carry (docs/protocol.md, "Text"). PostgreSQL `text` and `jsonb` cannot hold
 * a NUL character, and a lone UTF-16 surrogate is not text at all (no UTF-8 encodes it), so
 * both are refused where a payload is decoded, for every endpoint of today and later, before
 * any schema or database sees them. Payloads nest at most MAX_PAYLOAD_DEPTH levels.
 */
export const MAX_PAYLOAD_DEPTH = 32;

// biome-ignore lint/suspicious/noControlCharactersInRegex: the NUL is what this pattern finds
const UNSAFE_TEXT = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

// ES2024's String.prototype.isWellFormed (Node 20, current browsers) is native and fast; the
// pattern is the fallback.
const isWellFormed = (String.prototype as { isWellFormed?: (this: string) => boolean }).isWellFormed;

/** True when `text` holds no NUL and no lone surrogate. */
export function isSafeText(text: string): boolean {
  if (isWellFormed) return !text.includes('\u0000') && isWellFormed.call(text);
  return !UNSAFE_TEXT.test(text);
}

/** `text` with every NUL and lone surrogate replaced by U+FFFD (for names the server echoes). */
export function toSafeText(text: string): string {
  return text.replace(new RegExp(UNSAFE_TEXT.source, 'g'), '\uFFFD');
}

export type UnsafeValue = { path: string; reason: 'invalid_text' | 'too_deep' };

interface Frame {
  value: unknown;
  key: string;
  parent: Frame | null;
  depth: number;
}

function pathOf(frame: Frame, lastKey?: string): string {
  const keys: string[] = lastKey === undefined ? [] : [lastKey];
  for (let f: Frame | null = frame; f?.parent; f = f.parent) keys.push(f.key);
  return keys.length ? keys.reverse().join('.') : 'payload';
}

/**
 * The first place in a decoded JSON value that is not safe text (a string value or an object
 * key) or lies deeper than `maxDepth`, as a dotted path like the schema's (`allocateInfos.0.id`,
 * `payload` for the root); null when the whole value is safe. Iterative, so any nesting is
 * walked without recursion; paths are only built for the answer.
 */
export function findUnsafeValue(value: unknown, maxDepth = MAX_PAYLOAD_DEPTH): UnsafeValue | null {
  const stack: Frame[] = [{ value, key: '', parent: null, depth: 0 }];
  while (stack.length > 0) {
    const frame = stack.pop() as Frame;
    const current = frame.value;
    if (typeof current === 'string') {
      if (!isSafeText(current)) return { path: pathOf(frame), reason: 'invalid_text' };
      continue;
    }
    if (current === null || typeof current !== 'object') continue;
    if (frame.depth >= maxDepth) return { path: pathOf(frame), reason: 'too_deep' };
    const depth = frame.depth + 1;
    // Pushed in reverse so the first field is reported first.
    if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--)
        stack.push({ value: current[i], key: String(i), parent: frame, depth });
      continue;
    }
    const keys = Object.keys(current);
    for (let i = keys.length - 1; i >= 0; i--) {
      const key = keys[i];
      if (!isSafeText(key)) return { path: pathOf(frame, toSafeText(key)), reason: 'invalid_text' };
      stack.push({ value: (current as Record<string, unknown>)[key], key, parent: frame, depth });
    }
  }
  return null;
}
