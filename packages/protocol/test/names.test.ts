import { describe, expect, it } from 'vitest';
import { contactSchema, realNameSchema, roleNameSchema } from '../src/validation.js';

/** Names that become an operation log's target: blank is missing, and spaces around are not kept. */
describe('names', () => {
  it.each([
    ['role', roleNameSchema],
    ['real name', realNameSchema],
    ['contact', contactSchema],
  ])('a %s of spaces only is required, one with spaces around is trimmed', (_, schema) => {
    const blank = schema.safeParse('   ');
    expect(blank.success).toBe(false);
    expect(blank.error?.issues[0].message).toBe('validation.required');
    expect(schema.parse('  Ops  ')).toBe('Ops');
  });
});
