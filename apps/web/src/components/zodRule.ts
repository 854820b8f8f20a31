import { issueMessage, type ValidationMessage } from '@marquee/protocol';
import type { TFunction } from 'i18next';
import type { z } from 'zod';

/**
 * The message of a protocol validation issue in the user's language: the rule's own message
 * (`validation.passwordLength`), or the one its zod issue implies (`tooLong` with its maximum),
 * from the `validation` namespace, which mirrors the protocol's catalogue the server answers with.
 */
export function validationMessage(t: TFunction, message: ValidationMessage): string {
  return t(message.key, { ns: 'validation', ...message.params });
}

/** An antd Form rule that validates with a protocol schema (the same rule the server applies). */
export function zodRule(schema: z.ZodType, t: TFunction) {
  return {
    validator: async (_rule: unknown, value: unknown) => {
      if (value === undefined || value === null || value === '') return;
      const result = schema.safeParse(typeof value === 'string' ? value.trim() : value);
      if (!result.success) throw new Error(validationMessage(t, issueMessage(result.error.issues[0])));
    },
  };
}

/** The antd Form rule of a required field, with the `validation` namespace's message. */
export function requiredRule(t: TFunction) {
  return { required: true, whitespace: true, message: t('required', { ns: 'validation' }) };
}

/** The antd Form rule of a text's longest length, with the `validation` namespace's `tooLong` message. */
export function maxLengthRule(t: TFunction, max: number) {
  return { max, message: t('tooLong', { ns: 'validation', max }) };
}
