import type { TFunction } from 'i18next';
import type { z } from 'zod';

/**
 * The message of a protocol validation issue in the user's language. The protocol's schemas
 * carry keys of the `validation` namespace (`validation.loginAccount`); zod's own messages
 * (a rule without a key) become the generic 'invalid value'.
 */
export function validationMessage(t: TFunction, key: string | undefined): string {
  if (key?.startsWith('validation.')) return t(key.slice('validation.'.length), { ns: 'validation' });
  return t('invalid', { ns: 'validation' });
}

/** An antd Form rule that validates with a protocol schema (the same rule the server applies). */
export function zodRule(schema: z.ZodType, t: TFunction) {
  return {
    validator: async (_rule: unknown, value: unknown) => {
      if (value === undefined || value === null || value === '') return;
      const result = schema.safeParse(typeof value === 'string' ? value.trim() : value);
      if (!result.success) throw new Error(validationMessage(t, result.error.issues[0]?.message));
    },
  };
}

/** The antd Form rule of a required field, with the `validation` namespace's message. */
export function requiredRule(t: TFunction) {
  return { required: true, message: t('required', { ns: 'validation' }) };
}
