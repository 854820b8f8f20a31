import { z } from 'zod';
import { ErrorCode } from '../errors.js';
import { Perm } from '../permissions.js';
import { endpoint } from './common.js';

/**
 * Dictionaries (issue 31; spec section 7 'dictionaries'): the lists the console's pickers offer,
 * kept by the platform operator (Perm.dictionaryManage, provider-only) instead of lists in code.
 * A dictionary is a `kind`; its entries have a stable `code` (what stored data holds: a device's
 * `type`, a slot's `venueType`), labels in zh-CN, en-US and ja, an order and an enabled flag.
 * A disabled entry is no longer offered, yet data holding it stays valid and readable; an entry
 * stored data uses is never deleted (DICTIONARY_IN_USE). A `fixed` kind's codes come from a
 * standard (venue types: OpenOOH 1.1, which DSPs target): only labels, order and enabled change.
 * docs/ARCHITECTURE.md "Dictionaries (issue 31)".
 */

/**
 * `deviceType` (a device's type), `venueType` (a slot's OpenOOH venue type, fixed), `scene` (a
 * device's scene: where it stands), `screenSize` (the screen diagonals the device form offers:
 * each code is a number of inches; the device's field stays a free number), `industry` (an
 * advertiser's industry: what a sales team files its customers by).
 */
export const DICTIONARY_KINDS = ['deviceType', 'venueType', 'scene', 'screenSize', 'industry'] as const;
export type DictionaryKind = (typeof DICTIONARY_KINDS)[number];
/** Kinds whose codes a standard fixes: no entry is added or deleted. */
export const FIXED_DICTIONARY_KINDS: readonly DictionaryKind[] = ['venueType'];
export const DICTIONARY_LANGUAGES = ['zh-CN', 'en-US', 'ja'] as const;
export type DictionaryLanguage = (typeof DICTIONARY_LANGUAGES)[number];
/** A code: a lower-case letter, then lower-case letters, digits, '_', '-' or '.' (what data stores). */
export const DICTIONARY_CODE_PATTERN = /^[a-z][a-z0-9_.-]{0,47}$/;
export const DICTIONARY_CODE_MAX = 48;
/** A `screenSize` code: a diagonal in inches, positive, at most one decimal (what a device's screenSize takes). */
export const SCREEN_SIZE_CODE_PATTERN = /^[1-9][0-9]{0,3}(\.[0-9])?$/;
/** The largest diagonal a `screenSize` code may name (as deviceFieldsSchema's screenSize). */
export const SCREEN_SIZE_CODE_MAX = 1000;
export const DICTIONARY_LABEL_MAX = 40;
/** Entries one kind may hold. */
export const DICTIONARY_ENTRIES_MAX = 200;

const id = z.string().min(1).max(64);
const kind = z.enum(DICTIONARY_KINDS);

export const dictionaryCodeSchema = z
  .string()
  .trim()
  .max(DICTIONARY_CODE_MAX)
  .regex(DICTIONARY_CODE_PATTERN, 'validation.dictionaryCode');

/** Whether `code` is a valid code of `kind`: a number of inches for `screenSize`, else DICTIONARY_CODE_PATTERN. */
export function dictionaryCodeValid(kind: DictionaryKind, code: string): boolean {
  if (kind === 'screenSize') return SCREEN_SIZE_CODE_PATTERN.test(code) && Number(code) <= SCREEN_SIZE_CODE_MAX;
  return DICTIONARY_CODE_PATTERN.test(code);
}

/** The validation message key of an invalid code of `kind`. */
export const dictionaryCodeMessage = (kind: DictionaryKind) =>
  kind === 'screenSize' ? 'validation.screenSizeCode' : 'validation.dictionaryCode';

/** A new entry's code as `kind` takes it (the operator's form checks it with the server's rule). */
export const dictionaryCodeSchemaOf = (kind: DictionaryKind) =>
  kind === 'screenSize'
    ? z
        .string()
        .trim()
        .refine((v) => dictionaryCodeValid(kind, v), dictionaryCodeMessage(kind))
    : dictionaryCodeSchema;

export const dictionaryLabelsSchema = z
  .object({
    'zh-CN': z.string().trim().min(1, 'validation.required').max(DICTIONARY_LABEL_MAX),
    'en-US': z.string().trim().min(1, 'validation.required').max(DICTIONARY_LABEL_MAX),
    ja: z.string().trim().min(1, 'validation.required').max(DICTIONARY_LABEL_MAX),
  })
  .strict();
export type DictionaryLabels = z.infer<typeof dictionaryLabelsSchema>;

/** What a picker reads: the code and the label in the reader's language. */
export const dictionaryItemSchema = z.object({
  code: z.string(),
  label: z.string(),
  /** A disabled entry is not offered; its label still names the data that holds it. */
  enabled: z.boolean(),
});
export type DictionaryItem = z.infer<typeof dictionaryItemSchema>;

export const dictionaryEntrySchema = z.object({
  id: z.string(),
  kind,
  code: z.string(),
  labels: z.object({ 'zh-CN': z.string(), 'en-US': z.string(), ja: z.string() }),
  sort: z.number(),
  enabled: z.boolean(),
  /** Stored records holding the code (devices, slots): such an entry is disabled, not deleted. */
  usage: z.number(),
});
export type DictionaryEntry = z.infer<typeof dictionaryEntrySchema>;

export const dictionaryEndpoints = {
  dictionaryList: endpoint({
    name: 'dictionary.list',
    path: '/api/dictionary/list.shtm',
    auth: 'session',
    unscoped: 'dictionaries are platform-wide: every signed-in user reads the same entries',
    /** Every entry of a kind in order, labelled in the reader's language; pickers offer the enabled ones. */
    request: z.object({ kind }).strict(),
    response: z.array(dictionaryItemSchema),
  }),
  dictionaryManageList: endpoint({
    name: 'dictionary.manageList',
    path: '/api/dictionary/manage/list.shtm',
    auth: 'session',
    permission: Perm.dictionaryManage,
    unscoped:
      'dictionaries are platform-wide configuration, not enterprise data: every platform operator sees the same',
    request: z.object({ kind }).strict(),
    response: z.object({ fixed: z.boolean(), data: z.array(dictionaryEntrySchema) }),
  }),
  dictionarySave: endpoint({
    name: 'dictionary.save',
    path: '/api/dictionary/manage/save.shtm',
    auth: 'session',
    permission: Perm.dictionaryManage,
    mutation: true,
    notForMonitor: true,
    errors: [ErrorCode.NOT_FOUND, ErrorCode.DICTIONARY_CODE_TAKEN, ErrorCode.DICTIONARY_FIXED],
    /**
     * Without `id`, adds an entry (last, enabled) with `code`; with `id`, relabels it (its code
     * never changes: stored data names it).
     */
    request: z
      .object({
        id: id.optional(),
        kind,
        /** DICTIONARY_CODE_PATTERN; a `screenSize` code is a positive number of inches (SCREEN_SIZE_CODE_PATTERN). */
        code: z.string().trim().max(DICTIONARY_CODE_MAX).optional(),
        labels: dictionaryLabelsSchema,
      })
      .strict()
      .superRefine((r, ctx) => {
        if (r.code !== undefined && !dictionaryCodeValid(r.kind, r.code)) {
          ctx.addIssue({ code: 'custom', path: ['code'], message: dictionaryCodeMessage(r.kind) });
        }
      }),
    response: z.object({ id: z.string() }),
  }),
  dictionaryReorder: endpoint({
    name: 'dictionary.reorder',
    path: '/api/dictionary/manage/reorder.shtm',
    auth: 'session',
    permission: Perm.dictionaryManage,
    mutation: true,
    notForMonitor: true,
    errors: [ErrorCode.NOT_FOUND],
    /** Every entry of the kind, in the new order. */
    request: z.object({ kind, ids: z.array(id).min(1).max(DICTIONARY_ENTRIES_MAX) }).strict(),
    response: z.null(),
  }),
  dictionarySetEnabled: endpoint({
    name: 'dictionary.setEnabled',
    path: '/api/dictionary/manage/enable.shtm',
    auth: 'session',
    permission: Perm.dictionaryManage,
    mutation: true,
    notForMonitor: true,
    errors: [ErrorCode.NOT_FOUND, ErrorCode.DICTIONARY_LAST_ENABLED],
    request: z.object({ id, enabled: z.boolean() }).strict(),
    response: z.null(),
  }),
  dictionaryDelete: endpoint({
    name: 'dictionary.delete',
    path: '/api/dictionary/manage/delete.shtm',
    auth: 'session',
    permission: Perm.dictionaryManage,
    mutation: true,
    notForMonitor: true,
    errors: [
      ErrorCode.NOT_FOUND,
      ErrorCode.DICTIONARY_IN_USE,
      ErrorCode.DICTIONARY_FIXED,
      ErrorCode.DICTIONARY_LAST_ENABLED,
    ],
    request: z.object({ id }).strict(),
    response: z.null(),
  }),
} as const;
