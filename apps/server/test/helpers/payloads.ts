import { type JsonSchema, toJsonSchema } from '@marquee/protocol';
import fc from 'fast-check';
import type { z } from 'zod';

/**
 * Generated payloads for any request schema (zod, read through its JSON Schema), for the
 * robustness test: shaped like a valid request with hostile text in its strings, and every
 * kind of wrong (wrong types, missing and extra fields, deep nesting, not an object at all).
 * Nothing here knows an endpoint: a new schema (console or device protocol) needs no code.
 */

/** Text that has broken servers: NUL, lone surrogates, 100,000 characters, SQL, HTML, odd numbers. */
export const HOSTILE_STRINGS: readonly string[] = [
  '\u0000',
  'a\u0000b',
  '\uD800',
  'x\uDC00',
  '\uDBFF\uDBFF',
  'x'.repeat(100_000),
  '字'.repeat(100_000),
  "' OR '1'='1",
  "'; DROP TABLE accounts; --",
  '%',
  '_%\\',
  '\\',
  '"',
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '{{7*7}}<%= 7*7 %>',
  '../../etc/passwd',
  '__proto__',
  'constructor',
  'toString',
  '-1',
  '0',
  '1e309',
  'NaN',
  '99999999999999999999999999',
  '2026-02-30T25:61:61Z',
  '😀👨‍👩‍👧',
  '\u202Etxt.exe',
  '\r\n\t',
  ' ',
  '',
];

const hostileString = fc.constantFrom(...HOSTILE_STRINGS);

/** Any JSON value, with hostile strings among its leaves. */
export const anyJson: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    fc.integer(),
    fc.double(),
    fc.constantFrom(Number.MAX_SAFE_INTEGER + 2, -1, 0, 1e308, -1e308, 2 ** 31, 0.5),
    fc.string(),
    hostileString,
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.oneof(fc.string(), hostileString), tie('value'), { maxKeys: 4 }),
  ),
})).value;

/** A value nested `depth` levels (arrays and objects), for the depth limit. */
export const deepValue: fc.Arbitrary<unknown> = fc
  .tuple(fc.integer({ min: 20, max: 400 }), fc.boolean(), anyJson)
  .map(([depth, asArray, leaf]) => {
    let value: unknown = leaf;
    for (let i = 0; i < depth; i++) value = asArray ? [value] : { a: value };
    return value;
  });

/** The JSON Schema of a request schema, as a client sends it (input side). */
export function requestJsonSchema(schema: z.ZodType): JsonSchema {
  return toJsonSchema(schema, 'input');
}

/**
 * A value of the schema's shape: enums and constants from the schema, numbers in and out of
 * their bounds, strings valid for the schema or hostile or one of `knownStrings` (ids of real
 * objects, so calls reach past "not found").
 */
export function shaped(schema: JsonSchema, knownStrings: readonly string[]): fc.Arbitrary<unknown> {
  if (schema.anyOf || schema.oneOf) {
    const options = (schema.anyOf ?? schema.oneOf) as JsonSchema[];
    return fc.oneof(...options.map((s) => shaped(s, knownStrings)));
  }
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'object': {
      const properties = schema.properties ?? {};
      const required = new Set(schema.required ?? []);
      const record: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [key, child] of Object.entries(properties)) record[key] = shaped(child, knownStrings);
      return fc.record(record, { requiredKeys: [...required].filter((k) => k in properties) });
    }
    case 'array':
      return fc.array(schema.items ? shaped(schema.items, knownStrings) : anyJson, {
        minLength: Math.min(schema.minItems ?? 0, 3),
        maxLength: Math.min(schema.maxItems ?? 5, 5),
      });
    case 'integer':
    case 'number': {
      const min = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : -1000);
      const max = schema.maximum ?? (schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum - 1 : 1000);
      const lo = Math.max(min, -1e9);
      const hi = Math.min(max, 1e9);
      return fc.oneof(
        { arbitrary: fc.integer({ min: Math.ceil(lo), max: Math.floor(Math.max(lo, hi)) }), weight: 4 },
        { arbitrary: fc.constantFrom(min, max, min - 1, max + 1, 0, -1, 2 ** 31, 2 ** 53), weight: 1 },
      );
    }
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'string':
      return fc.oneof(
        { arbitrary: validString(schema), weight: 3 },
        { arbitrary: hostileString, weight: 3 },
        ...(knownStrings.length ? [{ arbitrary: fc.constantFrom(...knownStrings), weight: 2 }] : []),
      );
    default:
      return anyJson;
  }
}

function validString(schema: JsonSchema): fc.Arbitrary<string> {
  if (schema.format === 'date-time') {
    return fc
      .date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
      .map((d) => d.toISOString());
  }
  if (schema.format === 'email') return fc.emailAddress();
  if (schema.pattern) {
    try {
      const max = schema.maxLength ?? 64;
      return fc
        .stringMatching(new RegExp(schema.pattern))
        .filter((s) => s.length >= (schema.minLength ?? 0) && s.length <= max);
    } catch {
      // a pattern fast-check cannot read: plain strings below
    }
  }
  const length = { minLength: schema.minLength ?? 0, maxLength: Math.min(schema.maxLength ?? 40, 40) };
  // ASCII, any grapheme, any code point, and control characters (NUL among them).
  return fc.oneof(
    fc.string(length),
    fc.string({ ...length, unit: 'grapheme' }),
    fc.string({ ...length, unit: 'binary' }),
    fc.string({ ...length, unit: 'binary-ascii' }),
  );
}

/** Changes one field of an object to a value of any (probably wrong) type. */
function withField(value: unknown, replacement: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return replacement;
  const keys = Object.keys(value);
  if (keys.length === 0) return replacement.map((v) => ({ extra: v }));
  return fc.tuple(fc.constantFrom(...keys), replacement).map(([key, v]) => ({ ...value, [key]: v }));
}

/** Every kind of payload for a request schema: right-shaped with hostile text, and every kind of wrong. */
export function payloads(schema: z.ZodType, knownStrings: readonly string[]): fc.Arbitrary<unknown> {
  const base = shaped(requestJsonSchema(schema), knownStrings);
  return fc.oneof(
    { arbitrary: base, weight: 4 },
    // wrong type in one field
    { arbitrary: base.chain((v) => withField(v, anyJson)), weight: 2 },
    // missing fields
    {
      arbitrary: base.chain((v) =>
        v && typeof v === 'object' && !Array.isArray(v)
          ? fc.subarray(Object.keys(v)).map((keep) => Object.fromEntries(keep.map((k) => [k, (v as never)[k]])))
          : fc.constant(v),
      ),
      weight: 1,
    },
    // extra fields
    {
      arbitrary: fc
        .tuple(base, fc.dictionary(fc.oneof(fc.string(), hostileString), anyJson, { minKeys: 1, maxKeys: 3 }))
        .map(([v, extra]) => (v && typeof v === 'object' && !Array.isArray(v) ? { ...extra, ...v, ...extra } : v)),
      weight: 1,
    },
    // deep nesting
    { arbitrary: base.chain((v) => withField(v, deepValue)), weight: 1 },
    // not the shape at all
    { arbitrary: fc.oneof(anyJson, deepValue), weight: 1 },
  );
}
