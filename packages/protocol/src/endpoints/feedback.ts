import { z } from 'zod';
import { ErrorCode } from '../errors.js';
import { Perm } from '../permissions.js';
import { uploadSignatureSchema } from '../upload.js';
import { listPageSize } from '../validation.js';
import { endpoint } from './common.js';

/**
 * User feedback (issue 31, /my/help; spec section 5: "Feedback description within 500
 * characters"). Any signed-in user (Perm.my) writes feedback about the product: a category, a
 * text of 1..FEEDBACK_MAX_CHARS characters and up to FEEDBACK_MAX_SHOTS screenshots uploaded
 * straight to storage (shotApply -> POST -> submit names the shots). The user follows its own
 * feedback (submitted, replied, closed) and reads the reply. The platform operator
 * (Perm.feedbackManage, provider-only; docs/ARCHITECTURE.md "Feedback") lists everyone's
 * feedback, reads it with its screenshots and replies; the reply reaches the author as a
 * station letter and the feedback becomes replied. Either side may close it.
 */

/** Spec section 5: the description within 500 characters (counted as characters, not bytes). */
export const FEEDBACK_MAX_CHARS = 500;
/** The longest reply of the platform operator. */
export const FEEDBACK_REPLY_MAX_CHARS = 1000;
export const FEEDBACK_MAX_SHOTS = 5;
export const FEEDBACK_SHOT_MAX_BYTES = 10 * 1024 * 1024;
export const FEEDBACK_SHOT_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;
export const FEEDBACK_CATEGORIES = ['problem', 'suggestion', 'other'] as const;
export type FeedbackCategory = (typeof FEEDBACK_CATEGORIES)[number];
export const FEEDBACK_STATES = ['submitted', 'replied', 'closed'] as const;
export type FeedbackState = (typeof FEEDBACK_STATES)[number];

/** Characters as a reader counts them (a Chinese character or an emoji is one). */
export const feedbackLength = (text: string) => [...text].length;

const id = z.string().min(1).max(64);
const pageSize = listPageSize();

export const feedbackShotSchema = z.object({
  id: z.string(),
  /** A signed, short-lived URL of the picture. */
  url: z.string().nullable(),
  contentType: z.string(),
  size: z.number(),
});
export type FeedbackShot = z.infer<typeof feedbackShotSchema>;

export const feedbackItemSchema = z.object({
  id: z.string(),
  category: z.enum(FEEDBACK_CATEGORIES),
  content: z.string(),
  state: z.enum(FEEDBACK_STATES),
  reply: z.string().nullable(),
  repliedAt: z.string().nullable(),
  closedAt: z.string().nullable(),
  createdAt: z.string(),
  shotCount: z.number(),
  /** The author and its enterprise (the operator's list; the author's own name otherwise). */
  authorName: z.string(),
  entName: z.string(),
});
export type FeedbackItem = z.infer<typeof feedbackItemSchema>;

const listFilter = {
  state: z.enum(FEEDBACK_STATES).optional(),
  category: z.enum(FEEDBACK_CATEGORIES).optional(),
  keyword: z.string().trim().max(64).optional(),
  page: z.number().int().min(1).default(1),
  size: pageSize,
};

const detail = z.object({ feedback: feedbackItemSchema, shots: z.array(feedbackShotSchema) });

export const feedbackEndpoints = {
  feedbackShotApply: endpoint({
    name: 'feedback.shotApply',
    path: '/api/feedback/shot/apply.shtm',
    auth: 'session',
    permission: Perm.my,
    mutation: true,
    errors: [ErrorCode.FILE_FORMAT_ERROR, ErrorCode.FILE_TOO_LARGE],
    /** Signs the direct upload of one screenshot; submit names it afterwards. */
    request: z
      .object({
        size: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER),
        contentType: z.string().trim().max(255),
      })
      .strict(),
    response: uploadSignatureSchema.extend({ shotId: z.string() }),
  }),
  feedbackSubmit: endpoint({
    name: 'feedback.submit',
    path: '/api/feedback/submit.shtm',
    auth: 'session',
    permission: Perm.my,
    mutation: true,
    errors: [ErrorCode.FEEDBACK_TOO_LONG, ErrorCode.FEEDBACK_TOO_MANY_SHOTS, ErrorCode.FEEDBACK_SHOT_INVALID],
    request: z
      .object({
        category: z.enum(FEEDBACK_CATEGORIES),
        /** 1..500 characters: longer is FEEDBACK_TOO_LONG (spec section 5). */
        content: z.string().trim().min(1, 'validation.required').max(4000),
        shotIds: z.array(id).max(50).default([]),
      })
      .strict(),
    response: z.object({ id: z.string() }),
  }),
  feedbackMine: endpoint({
    name: 'feedback.mine',
    path: '/api/feedback/mine.shtm',
    auth: 'session',
    permission: Perm.my,
    unscoped: "the caller's own feedback only (author = caller)",
    request: z.object(listFilter).strict(),
    response: z.object({ total: z.number(), data: z.array(feedbackItemSchema) }),
  }),
  feedbackInfo: endpoint({
    name: 'feedback.info',
    path: '/api/feedback/info.shtm',
    auth: 'session',
    permission: Perm.my,
    scope: { object: 'feedback', kind: 'detail', audience: 'owner' },
    errors: [ErrorCode.NOT_FOUND],
    request: z.object({ id }).strict(),
    response: detail,
  }),
  feedbackClose: endpoint({
    name: 'feedback.close',
    path: '/api/feedback/close.shtm',
    auth: 'session',
    permission: Perm.my,
    mutation: true,
    errors: [ErrorCode.NOT_FOUND, ErrorCode.FEEDBACK_STATE],
    /** The author closes its own feedback. */
    request: z.object({ id }).strict(),
    response: z.object({ state: z.enum(FEEDBACK_STATES) }),
  }),
  feedbackManageList: endpoint({
    name: 'feedback.manageList',
    path: '/api/feedback/manage/list.shtm',
    auth: 'session',
    permission: Perm.feedbackManage,
    scope: { object: 'feedback', kind: 'list', audience: 'platform' },
    request: z.object(listFilter).strict(),
    response: z.object({ total: z.number(), data: z.array(feedbackItemSchema) }),
  }),
  feedbackManageInfo: endpoint({
    name: 'feedback.manageInfo',
    path: '/api/feedback/manage/info.shtm',
    auth: 'session',
    permission: Perm.feedbackManage,
    scope: { object: 'feedback', kind: 'detail', audience: 'platform' },
    errors: [ErrorCode.NOT_FOUND],
    request: z.object({ id }).strict(),
    response: detail,
  }),
  feedbackReply: endpoint({
    name: 'feedback.reply',
    path: '/api/feedback/manage/reply.shtm',
    auth: 'session',
    permission: Perm.feedbackManage,
    mutation: true,
    notForMonitor: true,
    errors: [ErrorCode.NOT_FOUND, ErrorCode.FEEDBACK_STATE, ErrorCode.FEEDBACK_REPLY_TOO_LONG],
    /** Replies (or replies again) to feedback not closed: the author gets a station letter. */
    request: z.object({ id, reply: z.string().trim().min(1, 'validation.required').max(8000) }).strict(),
    response: z.object({ state: z.enum(FEEDBACK_STATES) }),
  }),
  feedbackManageClose: endpoint({
    name: 'feedback.manageClose',
    path: '/api/feedback/manage/close.shtm',
    auth: 'session',
    permission: Perm.feedbackManage,
    mutation: true,
    notForMonitor: true,
    errors: [ErrorCode.NOT_FOUND, ErrorCode.FEEDBACK_STATE],
    request: z.object({ id }).strict(),
    response: z.object({ state: z.enum(FEEDBACK_STATES) }),
  }),
} as const;
