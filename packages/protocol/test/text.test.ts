import { describe, expect, it } from 'vitest';
import { findUnsafeValue, isSafeText, MAX_PAYLOAD_DEPTH, SEQUENCE_PATTERN, toSafeText } from '../src/index.js';

describe('safe text', () => {
  it('refuses NUL and lone surrogates, keeps pairs and everything else', () => {
    expect(isSafeText("普通 text 😀 <b>'; drop table x;--")).toBe(true);
    expect(isSafeText('a\u0000b')).toBe(false);
    expect(isSafeText('\uD83D')).toBe(false);
    expect(isSafeText('\uDE00x')).toBe(false);
    expect(isSafeText('\uDE00\uD83D')).toBe(false);
    expect(toSafeText('a\u0000\uD83D\uD83D\uDE00')).toBe('a\uFFFD\uFFFD\uD83D\uDE00');
  });

  it('names the first unsafe value by its path, keys included', () => {
    expect(findUnsafeValue({ a: 'x', b: [1, { c: 'y\u0000' }] })).toEqual({ path: 'b.1.c', reason: 'invalid_text' });
    expect(findUnsafeValue({ 'k\u0000': 1 })).toEqual({ path: 'k\uFFFD', reason: 'invalid_text' });
    expect(findUnsafeValue('\uD800')).toEqual({ path: 'payload', reason: 'invalid_text' });
    expect(findUnsafeValue({ a: 1, b: null, c: [true, 'ok'] })).toBeNull();
  });

  it('bounds nesting without recursion', () => {
    let deep: unknown = 'x';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(findUnsafeValue(deep)?.reason).toBe('too_deep');
    let fine: unknown = 'x';
    for (let i = 0; i < MAX_PAYLOAD_DEPTH; i++) fine = { a: fine };
    expect(findUnsafeValue(fine)).toBeNull();
  });

  it('states the sequence format', () => {
    expect(SEQUENCE_PATTERN.test('abcd-123_X')).toBe(true);
    expect(SEQUENCE_PATTERN.test('bad!seq123')).toBe(false);
    expect(SEQUENCE_PATTERN.test('a'.repeat(65))).toBe(false);
  });
});
