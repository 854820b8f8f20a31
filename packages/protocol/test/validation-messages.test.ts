import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  dateRangeIssues,
  emailSchema,
  issueMessage,
  loginAccountSchema,
  phoneSchema,
  singleFieldSchema,
  strongPasswordSchema,
  validationMessages,
  validationText,
} from '../src/index';

const first = (schema: z.ZodType, value: unknown) => issueMessage(schema.safeParse(value).error?.issues[0]);

describe('validation messages (spec section 5: one message per rule, naming what is expected)', () => {
  it('gives each part of the password rule its own message', () => {
    expect(first(strongPasswordSchema, 'Ab1!')).toEqual({ key: 'passwordLength' });
    expect(first(strongPasswordSchema, 'lowercase1')).toEqual({ key: 'passwordClasses' });
    expect(first(strongPasswordSchema, 'Lowercase1!')).toEqual({ key: 'invalid' });
    expect(strongPasswordSchema.safeParse('Lowercase1!').success).toBe(true);
  });

  it('names phone, e-mail, login account and the single-field rule', () => {
    expect(first(phoneSchema, 'abc')).toEqual({ key: 'phone' });
    expect(first(emailSchema, 'a@')).toEqual({ key: 'email' });
    expect(first(loginAccountSchema, 'ab')).toEqual({ key: 'loginAccount' });
    expect(first(singleFieldSchema, 'x'.repeat(13))).toEqual({ key: 'singleField' });
    expect(singleFieldSchema.safeParse('x'.repeat(12)).success).toBe(true);
    expect(validationText({ key: 'phone' }, 'en-US')).toContain('e.g. +1 415-555-0100');
  });

  it('derives a message with its limit from plain zod rules', () => {
    expect(first(z.string().max(50), 'x'.repeat(51))).toEqual({ key: 'tooLong', params: { max: 50 } });
    expect(first(z.string().min(3), 'x')).toEqual({ key: 'tooShort', params: { min: 3 } });
    expect(first(z.string().min(1), '')).toEqual({ key: 'required' });
    expect(first(z.number().max(9), 10)).toEqual({ key: 'tooLarge', params: { max: 9 } });
    expect(first(z.array(z.string()).max(2), ['a', 'b', 'c'])).toEqual({ key: 'tooMany', params: { max: 2 } });
    expect(first(z.object({ n: z.number() }), {})).toEqual({ key: 'required' });
    expect(first(z.object({ n: z.number().int() }), { n: 1.5 })).toEqual({ key: 'wholeNumber' });
    expect(first(z.enum(['a', 'b']), 'c')).toEqual({ key: 'notAllowed' });
    expect(first(z.object({}).strict(), { x: 1 })).toEqual({ key: 'notExpected' });
  });

  it('names the longest date range a report or a plan takes, and an end before the start', () => {
    const range = z.object({ from: z.string(), to: z.string() }).superRefine((r, ctx) => dateRangeIssues(r, 31, ctx));
    expect(range.safeParse({ from: '2026-01-01', to: '2026-01-31' }).success).toBe(true);
    const tooLong = first(range, { from: '2026-01-01', to: '2026-02-01' });
    expect(tooLong).toEqual({ key: 'rangeTooLong', params: { max: 31 } });
    expect(validationText(tooLong, 'en-US')).toBe('The date range can be at most 31 days');
    expect(first(range, { from: '2026-02-01', to: '2026-01-01' })).toEqual({ key: 'endBeforeStart' });
  });

  it('fills in the values in each language, zh-CN for an unknown one', () => {
    expect(validationText({ key: 'tooLong', params: { max: 50 } }, 'en-US')).toBe('Enter at most 50 characters');
    expect(validationText({ key: 'tooLong', params: { max: 50 } }, 'ja')).toBe('50 文字以内で入力してください');
    expect(validationText({ key: 'tooLong', params: { max: 50 } }, 'fr')).toBe('最多输入 50 个字符');
  });

  it('has every message in the three languages', () => {
    for (const texts of Object.values(validationMessages)) {
      for (const text of Object.values(texts)) expect(text.trim()).not.toBe('');
    }
  });
});
