import { z } from 'zod';
import { ErrorCode } from '../errors.js';
import { Perm } from '../permissions.js';
import { endpoint } from './common.js';

/**
 * Device custom fields (issue 31, spec section 3 'custom field'): the extra fields an
 * enterprise defines on its devices. An enterprise-wide device administrator (Perm.device,
 * data scope 'all') defines them; every holder of Perm.device in the enterprise reads them (the
 * device form, detail, list columns and filters, the Excel import and export use them). A
 * device holds its values by field key (DeviceRow.customFields): text and option as strings,
 * number as a number, date as 'YYYY-MM-DD'. The server checks values against the definitions
 * on every save, update and import (CUSTOM_FIELD_VALUE_INVALID, CUSTOM_FIELD_REQUIRED).
 */

export const CUSTOM_FIELD_TYPES = ['text', 'number', 'date', 'option'] as const;
export type CustomFieldType = (typeof CUSTOM_FIELD_TYPES)[number];
/** Fields one enterprise may define. */
export const CUSTOM_FIELDS_MAX = 30;
export const CUSTOM_FIELD_LABEL_MAX = 30;
export const CUSTOM_FIELD_TEXT_MAX = 200;
export const CUSTOM_FIELD_OPTIONS_MAX = 50;
export const CUSTOM_FIELD_OPTION_MAX = 30;
/** A key: a lower-case letter, then letters, digits and '_' (it names the value, fixed once made). */
export const CUSTOM_FIELD_KEY_PATTERN = /^[a-z][a-z0-9_]{0,31}$/;
/** The device list's column key of a custom field (the table config's column settings). */
export const customFieldColumnKey = (key: string) => `cf_${key}`;

export const customFieldSchema = z.object({
  id: z.string(),
  key: z.string(),
  label: z.string(),
  type: z.enum(CUSTOM_FIELD_TYPES),
  options: z.array(z.string()),
  required: z.boolean(),
  sort: z.number(),
  showInList: z.boolean(),
  /** Devices of the enterprise holding a value of it (what deleting it clears). */
  deviceCount: z.number(),
});
export type CustomField = z.infer<typeof customFieldSchema>;

/** A device's values, by field key; in an update, null clears one (a key left out is kept). */
export const customFieldValuesSchema = z.record(
  z.string().max(32),
  z.union([z.string().trim().max(CUSTOM_FIELD_TEXT_MAX), z.number().finite(), z.null()]),
);
export type CustomFieldValues = z.infer<typeof customFieldValuesSchema>;

/** The device list's filter on one custom field: text contains, the others equal. */
export const customFieldFilterSchema = z
  .object({ key: z.string().min(1).max(32), value: z.string().trim().min(1).max(CUSTOM_FIELD_TEXT_MAX) })
  .strict();

const id = z.string().min(1).max(64);

/**
 * A value as the server keeps it, or the reason it does not fit (the error code and the
 * field's label go to the caller): the same check for the form, the update and the import.
 */
export function checkCustomValue(
  field: Pick<CustomField, 'type' | 'options'>,
  value: string | number,
): { value: string | number } | { error: 'invalid' } {
  switch (field.type) {
    case 'text': {
      const v = String(value).trim();
      return v.length <= CUSTOM_FIELD_TEXT_MAX ? { value: v } : { error: 'invalid' };
    }
    case 'number': {
      const n = typeof value === 'number' ? value : Number(String(value).trim());
      return Number.isFinite(n) && String(value).trim() !== '' ? { value: n } : { error: 'invalid' };
    }
    case 'date': {
      const v = String(value).trim();
      const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(v);
      if (!m) return { error: 'invalid' };
      const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
      return d.toISOString().slice(0, 10) === v ? { value: v } : { error: 'invalid' };
    }
    case 'option': {
      const v = String(value).trim();
      return field.options.includes(v) ? { value: v } : { error: 'invalid' };
    }
  }
}

export const customFieldEndpoints = {
  customFieldList: endpoint({
    name: 'device.customFieldList',
    path: '/api/device/customField/list.shtm',
    auth: 'session',
    permission: Perm.device,
    scope: { object: 'customField', kind: 'list', audience: 'tenant' },
    /** The enterprise's fields in their order. */
    request: z.object({}).strict(),
    response: z.object({ data: z.array(customFieldSchema) }),
  }),
  customFieldSave: endpoint({
    name: 'device.customFieldSave',
    path: '/api/device/customField/save.shtm',
    auth: 'session',
    permission: Perm.device,
    mutation: true,
    notForMonitor: true,
    errors: [
      ErrorCode.NOT_FOUND,
      ErrorCode.CUSTOM_FIELD_KEY_TAKEN,
      ErrorCode.CUSTOM_FIELD_LIMIT,
      ErrorCode.CUSTOM_FIELD_TYPE_LOCKED,
    ],
    /**
     * Creates (no id) or edits a field; only an enterprise-wide device administrator. The key
     * is fixed once made; the type changes only while no device holds a value; an option
     * removed stays on the devices holding it until they are edited.
     */
    request: z
      .object({
        id: id.optional(),
        key: z.string().trim().regex(CUSTOM_FIELD_KEY_PATTERN, 'validation.invalid'),
        label: z.string().trim().min(1, 'validation.required').max(CUSTOM_FIELD_LABEL_MAX),
        type: z.enum(CUSTOM_FIELD_TYPES),
        options: z
          .array(z.string().trim().min(1).max(CUSTOM_FIELD_OPTION_MAX))
          .max(CUSTOM_FIELD_OPTIONS_MAX)
          .default([]),
        required: z.boolean().default(false),
        sort: z.number().int().min(0).max(9999).default(0),
        showInList: z.boolean().default(false),
      })
      .strict()
      .refine((v) => v.type !== 'option' || v.options.length > 0, {
        message: 'validation.required',
        path: ['options'],
      })
      .refine((v) => new Set(v.options).size === v.options.length, {
        message: 'validation.duplicate',
        path: ['options'],
      }),
    response: z.object({ id: z.string() }),
  }),
  customFieldDelete: endpoint({
    name: 'device.customFieldDelete',
    path: '/api/device/customField/delete.shtm',
    auth: 'session',
    permission: Perm.device,
    mutation: true,
    notForMonitor: true,
    errors: [ErrorCode.NOT_FOUND],
    /** Deletes a field and clears its values on every device of the enterprise (the console confirms with deviceCount). */
    request: z.object({ id }).strict(),
    response: z.object({ cleared: z.number() }),
  }),
};
