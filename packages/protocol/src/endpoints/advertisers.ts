import { z } from 'zod';
import { ErrorCode } from '../errors.js';
import { Perm } from '../permissions.js';
import { loginAccountSchema, pageSchema, phoneSchema, sortFields, strongPasswordSchema } from '../validation.js';
import { endpoint, ok } from './common.js';
import { dictionaryCodeSchema } from './dictionaries.js';

/**
 * Advertiser users (/user/adv) and their allocation to staff (/user/allot). Served by the
 * server's advertisers module.
 */

/**
 * Advertisers' industries: the dictionary `industry` (open, like the device scenes); these are its
 * first entries (migration 0071), which the console names until the dictionary answers. An
 * advertiser's industry is a code checked as a device's scene is.
 */
export const ADVERTISER_INDUSTRIES = [
  'food_beverage',
  'retail',
  'finance',
  'education',
  'healthcare',
  'automotive',
  'real_estate',
  'travel',
  'technology',
  'telecom',
  'beauty',
  'entertainment',
  'home',
  'other',
] as const;

/** The columns advertiser.list sorts by (`sort` of its request). */
export const ADVERTISER_SORT_KEYS = ['loginName', 'realName', 'createdAt'] as const;

/** Advertiser user as listed on /user/adv and /user/allot. */
export const advertiserSchema = z.object({
  id: z.string(),
  loginName: z.string(),
  realName: z.string(),
  phone: z.string().nullable(),
  email: z.string().nullable(),
  status: z.enum(['enabled', 'paused']),
  deptId: z.string().nullable(),
  deptName: z.string(),
  createdAt: z.string(),
  /** A code of the dictionary `industry` (its label: dictionary.list); null: not given. */
  industry: z.string().nullable(),
  staff: z.array(z.object({ id: z.string(), loginName: z.string(), realName: z.string() })),
});
export type Advertiser = z.infer<typeof advertiserSchema>;

/** Phone of an advertiser contact: the phone rule of every account. */
export const advertiserPhoneSchema = phoneSchema;
export const advertiserNameSchema = z.string().min(1, 'validation.required').max(50);
export const advertiserEmailSchema = z.email('validation.email').max(120);

const optionalText = <T extends z.ZodType>(schema: T) => z.union([schema, z.literal('')]).optional();

export const advertiserFieldsSchema = z
  .object({
    realName: advertiserNameSchema,
    phone: optionalText(advertiserPhoneSchema),
    email: optionalText(advertiserEmailSchema),
    /**
     * The advertiser's industry: a code of the dictionary `industry` (issue 31; an enabled one, or
     * the advertiser's own). On update, null clears it and leaving it out keeps it.
     */
    industry: dictionaryCodeSchema.nullable().optional(),
  })
  .strict();

export const advertiserEndpoints = {
  advertiserList: endpoint({
    name: 'advertiser.list',
    path: '/api/advertiser/list.shtm',
    auth: 'session',
    scope: { object: 'advertiser', kind: 'list' },
    permission: Perm.userAdv,
    request: pageSchema
      .extend({
        ...sortFields(ADVERTISER_SORT_KEYS),
        loginName: z.string().max(64).optional(),
        realName: z.string().max(64).optional(),
        phone: z.string().max(32).optional(),
        status: z.enum(['enabled', 'paused']).optional(),
        /** A code of the dictionary `industry` (a disabled one too: advertisers keep it). */
        industry: dictionaryCodeSchema.optional(),
      })
      .strict(),
    response: z.object({ total: z.number(), data: z.array(advertiserSchema) }),
  }),
  advertiserAdd: endpoint({
    name: 'advertiser.add',
    path: '/api/advertiser/add.shtm',
    errors: [ErrorCode.CONFLICT, ErrorCode.DICTIONARY_VALUE_INVALID],
    auth: 'session',
    permission: Perm.userAdv,
    mutation: true,
    notForMonitor: true,
    request: advertiserFieldsSchema.extend({ loginName: loginAccountSchema, password: strongPasswordSchema }).strict(),
    response: z.object({ id: z.string() }),
  }),
  advertiserUpdate: endpoint({
    name: 'advertiser.update',
    path: '/api/advertiser/update.shtm',
    errors: [ErrorCode.NOT_FOUND, ErrorCode.DICTIONARY_VALUE_INVALID],
    auth: 'session',
    permission: Perm.userAdv,
    mutation: true,
    notForMonitor: true,
    request: advertiserFieldsSchema.extend({ id: z.string().min(1).max(64) }).strict(),
    response: ok,
  }),
  advertiserSetStatus: endpoint({
    name: 'advertiser.setStatus',
    path: '/api/advertiser/setStatus.shtm',
    errors: [ErrorCode.NOT_FOUND],
    auth: 'session',
    permission: Perm.userAdv,
    mutation: true,
    notForMonitor: true,
    request: z.object({ id: z.string().min(1).max(64), status: z.enum(['enabled', 'paused']) }).strict(),
    response: ok,
  }),
  advertiserDelete: endpoint({
    name: 'advertiser.delete',
    path: '/api/advertiser/delete.shtm',
    errors: [ErrorCode.CONFLICT, ErrorCode.NOT_FOUND],
    auth: 'session',
    permission: Perm.userAdv,
    mutation: true,
    notForMonitor: true,
    request: z.object({ id: z.string().min(1).max(64) }).strict(),
    response: ok,
  }),
  advertiserStaffOptions: endpoint({
    name: 'advertiser.staffOptions',
    path: '/api/advertiser/staffOptions.shtm',
    auth: 'session',
    scope: { object: 'account', kind: 'list', audience: 'tenant' },
    permission: Perm.userAllot,
    request: z.object({}).strict(),
    response: z.array(z.object({ value: z.string(), label: z.string() })),
  }),
  advertiserAllotList: endpoint({
    name: 'advertiser.allotList',
    path: '/api/advertiser/allotList.shtm',
    auth: 'session',
    scope: { object: 'advertiser', kind: 'list' },
    permission: Perm.userAllot,
    request: pageSchema
      .extend({ loginName: z.string().max(64).optional(), staffId: z.string().max(64).optional() })
      .strict(),
    response: z.object({ total: z.number(), data: z.array(advertiserSchema) }),
  }),
  advertiserAssign: endpoint({
    name: 'advertiser.assign',
    path: '/api/advertiser/assign.shtm',
    errors: [ErrorCode.NOT_FOUND],
    auth: 'session',
    permission: Perm.userAllot,
    mutation: true,
    notForMonitor: true,
    request: z
      .object({
        advertiserIds: z.array(z.string().min(1).max(64)).min(1).max(500),
        staffIds: z.array(z.string().min(1).max(64)).min(1).max(100),
      })
      .strict(),
    response: z.object({ assigned: z.number() }),
  }),
  advertiserUnassign: endpoint({
    name: 'advertiser.unassign',
    path: '/api/advertiser/unassign.shtm',
    errors: [ErrorCode.NOT_FOUND],
    auth: 'session',
    permission: Perm.userAllot,
    mutation: true,
    notForMonitor: true,
    request: z
      .object({
        advertiserIds: z.array(z.string().min(1).max(64)).min(1).max(500),
        staffIds: z.array(z.string().min(1).max(64)).min(1).max(100),
      })
      .strict(),
    response: z.object({ removed: z.number() }),
  }),
} as const;
