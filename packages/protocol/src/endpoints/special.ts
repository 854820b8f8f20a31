import { z } from 'zod';
import { ErrorCode } from '../errors.js';
import { Perm } from '../permissions.js';
import { uploadSignatureSchema } from '../upload.js';
import { listPageSize } from '../validation.js';
import { endpoint } from './common.js';
import { slotTargetsSchema } from './sales.js';

/**
 * Special resources (issue 31, /special/resource; docs/ARCHITECTURE.md "Special resources"):
 * premium inventory the platform operator sells by inquiry, not by the rotation (a landmark
 * screen, a takeover, an exclusive, a package). The operator (Perm.specialResourceManage,
 * provider-only) keeps resources: a title, a description, a kind, the screens (the target
 * references slots use), a date range, a reference price in fen, a capacity and photos uploaded
 * straight to storage; it lists or withdraws them. Advertisers (Perm.specialResource) see the
 * listed ones and inquire (dates, a message); the operator quotes a price or declines with a
 * reason, each answer a station letter to the inquirer; the inquirer accepts a quote (while the
 * resource has room: capacity) or withdraws. Accepting records the deal; the sales order is the
 * operator's step in /operate/order.
 */

export const SPECIAL_KINDS = ['landmark', 'takeover', 'exclusive', 'package'] as const;
export type SpecialKind = (typeof SPECIAL_KINDS)[number];
export const SPECIAL_RESOURCE_STATES = ['draft', 'listed', 'withdrawn'] as const;
export type SpecialResourceState = (typeof SPECIAL_RESOURCE_STATES)[number];
export const SPECIAL_INQUIRY_STATES = ['open', 'quoted', 'accepted', 'declined', 'withdrawn'] as const;
export type SpecialInquiryState = (typeof SPECIAL_INQUIRY_STATES)[number];
export const SPECIAL_TITLE_MAX = 60;
export const SPECIAL_DESCRIPTION_MAX = 2000;
export const SPECIAL_MESSAGE_MAX = 500;
export const SPECIAL_CAPACITY_MAX = 100;
/** A reference price or a quote, in fen: 0 to 100,000,000 yuan. */
export const SPECIAL_PRICE_MAX_FEN = 10_000_000_000;
export const SPECIAL_MAX_PHOTOS = 6;
export const SPECIAL_PHOTO_MAX_BYTES = 10 * 1024 * 1024;
export const SPECIAL_PHOTO_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;

const id = z.string().min(1).max(64);
const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'validation.dateTimeFormat');
/** Fen, entered as yuan with at most 2 decimals (spec section 5's price rule). */
export const specialPriceSchema = z
  .number()
  .int('validation.amountFen')
  .min(0, 'validation.amountFen')
  .max(SPECIAL_PRICE_MAX_FEN, 'validation.amountTooLarge');

export const specialPhotoSchema = z.object({ id: z.string(), url: z.string().nullable() });

export const specialResourceSchema = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  kind: z.enum(SPECIAL_KINDS),
  targets: z.object({
    deviceIds: z.array(z.string()),
    groupIds: z.array(z.string()),
    tagIds: z.array(z.string()),
    spliceIds: z.array(z.string()),
  }),
  startDate: z.string(),
  endDate: z.string(),
  /** Fen. */
  price: z.number().int(),
  capacity: z.number().int(),
  state: z.enum(SPECIAL_RESOURCE_STATES),
  photos: z.array(specialPhotoSchema),
  /** Accepted inquiries (buyers holding it) and inquiries waiting for an answer. */
  accepted: z.number().int(),
  open: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type SpecialResource = z.infer<typeof specialResourceSchema>;

export const specialInquirySchema = z.object({
  id: z.string(),
  resourceId: z.string(),
  resourceTitle: z.string(),
  startDate: z.string(),
  endDate: z.string(),
  message: z.string(),
  state: z.enum(SPECIAL_INQUIRY_STATES),
  /** The operator's quote in fen (quoted and after), else null. */
  quotedPrice: z.number().int().nullable(),
  /** The operator's note with the quote, or the reason of a decline. */
  answer: z.string(),
  answeredAt: z.string().nullable(),
  inquirerName: z.string(),
  entName: z.string(),
  createdAt: z.string(),
});
export type SpecialInquiry = z.infer<typeof specialInquirySchema>;

const page = { page: z.number().int().min(1).default(1), size: listPageSize() };

export const specialEndpoints = {
  specialResourceList: endpoint({
    name: 'special.resourceList',
    path: '/api/special/resource/list.shtm',
    auth: 'session',
    permission: Perm.specialResourceManage,
    scope: { object: 'specialResource', kind: 'list', audience: 'platform' },
    request: z.object({ state: z.enum(SPECIAL_RESOURCE_STATES).optional(), ...page }).strict(),
    response: z.object({ total: z.number(), data: z.array(specialResourceSchema) }),
  }),
  specialPhotoApply: endpoint({
    name: 'special.photoApply',
    path: '/api/special/resource/photo/apply.shtm',
    auth: 'session',
    permission: Perm.specialResourceManage,
    mutation: true,
    notForMonitor: true,
    errors: [ErrorCode.FILE_FORMAT_ERROR, ErrorCode.FILE_TOO_LARGE],
    /** Signs the direct upload of one photo; resourceSave names it afterwards. */
    request: z
      .object({
        size: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER),
        contentType: z.string().trim().max(255),
      })
      .strict(),
    response: uploadSignatureSchema.extend({ photoId: z.string() }),
  }),
  specialResourceSave: endpoint({
    name: 'special.resourceSave',
    path: '/api/special/resource/save.shtm',
    auth: 'session',
    permission: Perm.specialResourceManage,
    mutation: true,
    notForMonitor: true,
    errors: [
      ErrorCode.NOT_FOUND,
      ErrorCode.AD_TARGET_INVALID,
      ErrorCode.SPECIAL_DATES_INVALID,
      ErrorCode.SPECIAL_PHOTO_INVALID,
      ErrorCode.SPECIAL_CAPACITY_FULL,
    ],
    /** Adds or edits a resource; `photoIds` is the whole set, in order (new ones from photoApply). */
    request: z
      .object({
        id: id.optional(),
        title: z.string().trim().min(1, 'validation.required').max(SPECIAL_TITLE_MAX),
        description: z.string().trim().max(SPECIAL_DESCRIPTION_MAX).default(''),
        kind: z.enum(SPECIAL_KINDS),
        targets: slotTargetsSchema,
        startDate: day,
        endDate: day,
        price: specialPriceSchema,
        capacity: z.number().int().min(1).max(SPECIAL_CAPACITY_MAX),
        state: z.enum(SPECIAL_RESOURCE_STATES),
        photoIds: z.array(id).max(SPECIAL_MAX_PHOTOS).default([]),
      })
      .strict(),
    response: z.object({ id: z.string() }),
  }),
  specialInquiryList: endpoint({
    name: 'special.inquiryList',
    path: '/api/special/inquiry/list.shtm',
    auth: 'session',
    permission: Perm.specialResourceManage,
    scope: { object: 'specialInquiry', kind: 'list', audience: 'platform' },
    request: z
      .object({ state: z.enum(SPECIAL_INQUIRY_STATES).optional(), resourceId: id.optional(), ...page })
      .strict(),
    response: z.object({ total: z.number(), data: z.array(specialInquirySchema) }),
  }),
  specialInquiryAnswer: endpoint({
    name: 'special.inquiryAnswer',
    path: '/api/special/inquiry/answer.shtm',
    auth: 'session',
    permission: Perm.specialResourceManage,
    mutation: true,
    notForMonitor: true,
    errors: [ErrorCode.NOT_FOUND, ErrorCode.SPECIAL_INQUIRY_STATE],
    /** Quotes a price (an open or quoted inquiry: quoting again replaces it) or declines with a reason. */
    request: z
      .object({
        id,
        action: z.enum(['quote', 'decline']),
        price: specialPriceSchema.optional(),
        answer: z.string().trim().max(SPECIAL_MESSAGE_MAX).default(''),
      })
      .strict()
      .superRefine((v, ctx) => {
        if (v.action === 'quote' && v.price === undefined) {
          ctx.addIssue({ code: 'custom', path: ['price'], message: 'validation.required' });
        }
        if (v.action === 'decline' && !v.answer) {
          ctx.addIssue({ code: 'custom', path: ['answer'], message: 'validation.required' });
        }
      }),
    response: z.object({ state: z.enum(SPECIAL_INQUIRY_STATES) }),
  }),
  specialListed: endpoint({
    name: 'special.listed',
    path: '/api/special/resource/listed.shtm',
    auth: 'session',
    permission: Perm.specialResource,
    unscoped: "the platform's shelf of listed resources: the same for every caller, no enterprise's data",
    request: z.object({ kind: z.enum(SPECIAL_KINDS).optional(), ...page }).strict(),
    response: z.object({ total: z.number(), data: z.array(specialResourceSchema) }),
  }),
  specialInquire: endpoint({
    name: 'special.inquire',
    path: '/api/special/inquiry/create.shtm',
    auth: 'session',
    permission: Perm.specialResource,
    mutation: true,
    notForMonitor: true,
    errors: [ErrorCode.NOT_FOUND, ErrorCode.SPECIAL_RESOURCE_STATE, ErrorCode.SPECIAL_DATES_INVALID],
    request: z
      .object({
        resourceId: id,
        startDate: day,
        endDate: day,
        message: z.string().trim().max(SPECIAL_MESSAGE_MAX).default(''),
      })
      .strict(),
    response: z.object({ id: z.string() }),
  }),
  specialMyInquiries: endpoint({
    name: 'special.myInquiries',
    path: '/api/special/inquiry/mine.shtm',
    auth: 'session',
    permission: Perm.specialResource,
    unscoped: "the caller's own inquiries only (inquirer = caller)",
    request: z.object({ state: z.enum(SPECIAL_INQUIRY_STATES).optional(), ...page }).strict(),
    response: z.object({ total: z.number(), data: z.array(specialInquirySchema) }),
  }),
  specialInquiryRespond: endpoint({
    name: 'special.inquiryRespond',
    path: '/api/special/inquiry/respond.shtm',
    auth: 'session',
    permission: Perm.specialResource,
    mutation: true,
    notForMonitor: true,
    errors: [ErrorCode.NOT_FOUND, ErrorCode.SPECIAL_INQUIRY_STATE, ErrorCode.SPECIAL_CAPACITY_FULL],
    /** The inquirer accepts a quote (while the resource has room) or withdraws an open or quoted inquiry. */
    request: z.object({ id, action: z.enum(['accept', 'withdraw']) }).strict(),
    response: z.object({ state: z.enum(SPECIAL_INQUIRY_STATES) }),
  }),
} as const;
