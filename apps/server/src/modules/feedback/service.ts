import {
  ErrorCode,
  FEEDBACK_MAX_CHARS,
  FEEDBACK_MAX_SHOTS,
  FEEDBACK_REPLY_MAX_CHARS,
  FEEDBACK_SHOT_MAX_BYTES,
  FEEDBACK_SHOT_TYPES,
  type FeedbackCategory,
  type FeedbackItem,
  type FeedbackShot,
  type FeedbackState,
  feedbackLength,
} from '@marquee/protocol';
import { and, count, desc, eq, ilike, inArray, isNull, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { accounts, enterprises, feedbackShots, feedbacks } from '../../db/schema/index.js';
import { AppError } from '../../protocol/appError.js';
import type { CallContext } from '../../protocol/handlers.js';
import { enterpriseKey, extensionOf } from '../../storage/storage.js';
import { createStationLetter } from '../stationLetter/service.js';
import { FEEDBACK_REPLIED_LETTER_KIND, letterSummary } from './letters.js';

/**
 * User feedback (issue 31; packages/protocol/src/endpoints/feedback.ts). `mine`: the caller's
 * own feedback (author = caller, in the enterprise it acts in). `all`: the platform operator's
 * view of everyone's (Perm.feedbackManage is provider-only; the enterprise kind is checked too).
 */
type View = 'mine' | 'all';

const escapeLike = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);

function viewWhere(ctx: CallContext, view: View): SQL | undefined {
  if (view === 'all') {
    if (ctx.user.entKind !== 'provider') throw new AppError(ErrorCode.NOT_FOUND);
    return undefined;
  }
  return and(eq(feedbacks.entId, ctx.user.entId), eq(feedbacks.authorId, ctx.user.accountId));
}

const columns = {
  id: feedbacks.id,
  entId: feedbacks.entId,
  authorId: feedbacks.authorId,
  category: feedbacks.category,
  content: feedbacks.content,
  state: feedbacks.state,
  reply: feedbacks.reply,
  repliedAt: feedbacks.repliedAt,
  closedAt: feedbacks.closedAt,
  createdAt: feedbacks.createdAt,
  authorLogin: accounts.loginName,
  authorReal: accounts.realName,
  entName: enterprises.name,
};

type Row = {
  id: string;
  category: string;
  content: string;
  state: string;
  reply: string | null;
  repliedAt: Date | null;
  closedAt: Date | null;
  createdAt: Date;
  authorLogin: string;
  authorReal: string;
  entName: string;
};

function toItem(row: Row, shotCount: number): FeedbackItem {
  return {
    id: row.id,
    category: row.category as FeedbackCategory,
    content: row.content,
    state: row.state as FeedbackState,
    reply: row.reply,
    repliedAt: row.repliedAt?.toISOString() ?? null,
    closedAt: row.closedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    shotCount,
    authorName: row.authorReal || row.authorLogin,
    entName: row.entName,
  };
}

async function shotCounts(db: Executor, ids: string[]): Promise<Map<string, number>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ feedbackId: feedbackShots.feedbackId, n: count() })
    .from(feedbackShots)
    .where(inArray(feedbackShots.feedbackId, ids))
    .groupBy(feedbackShots.feedbackId);
  return new Map(rows.map((r) => [r.feedbackId as string, Number(r.n)]));
}

export async function shotApply(input: { size: number; contentType: string }, ctx: CallContext) {
  const type = input.contentType.split(';')[0].trim().toLowerCase();
  if (!(FEEDBACK_SHOT_TYPES as readonly string[]).includes(type)) throw new AppError(ErrorCode.FILE_FORMAT_ERROR);
  if (input.size > FEEDBACK_SHOT_MAX_BYTES) throw new AppError(ErrorCode.FILE_TOO_LARGE);
  const entId = ctx.user.entId;
  const [shot] = await ctx.db
    .insert(feedbackShots)
    .values({ entId, authorId: ctx.user.accountId, key: '', contentType: type, createdAt: ctx.now })
    .returning({ id: feedbackShots.id });
  const key = enterpriseKey(entId, 'feedback', `${shot.id}.${extensionOf(type)}`);
  await ctx.db.update(feedbackShots).set({ key }).where(eq(feedbackShots.id, shot.id));
  const signature = ctx.services.files.createUpload({
    entId,
    key,
    minBytes: 1,
    maxBytes: FEEDBACK_SHOT_MAX_BYTES,
    contentTypes: [...FEEDBACK_SHOT_TYPES],
    contentType: type,
  });
  await ctx.audit({
    module: 'feedback',
    action: 'feedbackShotUpload',
    targetType: 'feedback',
    targetId: shot.id,
    targetName: `screenshot.${extensionOf(type)}`,
  });
  return { ...signature, shotId: shot.id };
}

export async function submit(
  input: { category: FeedbackCategory; content: string; shotIds: string[] },
  ctx: CallContext,
) {
  if (feedbackLength(input.content) > FEEDBACK_MAX_CHARS) throw new AppError(ErrorCode.FEEDBACK_TOO_LONG);
  const shotIds = [...new Set(input.shotIds)];
  if (shotIds.length > FEEDBACK_MAX_SHOTS) throw new AppError(ErrorCode.FEEDBACK_TOO_MANY_SHOTS);
  const shots = shotIds.length
    ? await ctx.db
        .select()
        .from(feedbackShots)
        .where(
          and(
            inArray(feedbackShots.id, shotIds),
            eq(feedbackShots.entId, ctx.user.entId),
            eq(feedbackShots.authorId, ctx.user.accountId),
            isNull(feedbackShots.feedbackId),
          ),
        )
    : [];
  if (shots.length !== shotIds.length) throw new AppError(ErrorCode.FEEDBACK_SHOT_INVALID);
  const sizes = new Map<string, number>();
  for (const shot of shots) {
    const stored = shot.key ? await ctx.services.files.storage.stat(shot.key) : null;
    if (!stored) throw new AppError(ErrorCode.FEEDBACK_SHOT_INVALID);
    sizes.set(shot.id, Number(stored.size));
  }
  const [row] = await ctx.db
    .insert(feedbacks)
    .values({
      entId: ctx.user.entId,
      authorId: ctx.user.accountId,
      category: input.category,
      content: input.content,
      createdAt: ctx.now,
      updatedAt: ctx.now,
    })
    .returning({ id: feedbacks.id });
  for (const shot of shots) {
    await ctx.db
      .update(feedbackShots)
      .set({ feedbackId: row.id, size: sizes.get(shot.id) ?? 0 })
      .where(eq(feedbackShots.id, shot.id));
  }
  await ctx.audit({
    module: 'feedback',
    action: 'feedbackSubmit',
    targetType: 'feedback',
    targetId: row.id,
    targetName: letterSummary(input.content),
  });
  return { id: row.id };
}

export async function list(
  input: { state?: FeedbackState; category?: FeedbackCategory; keyword?: string; page: number; size: number },
  ctx: CallContext,
  view: View,
) {
  const where = and(
    viewWhere(ctx, view),
    input.state ? eq(feedbacks.state, input.state) : undefined,
    input.category ? eq(feedbacks.category, input.category) : undefined,
    input.keyword ? ilike(feedbacks.content, `%${escapeLike(input.keyword)}%`) : undefined,
  );
  const [totalRow] = await ctx.db.select({ n: count() }).from(feedbacks).where(where);
  const rows = await ctx.db
    .select(columns)
    .from(feedbacks)
    .innerJoin(accounts, eq(accounts.id, feedbacks.authorId))
    .innerJoin(enterprises, eq(enterprises.id, feedbacks.entId))
    .where(where)
    .orderBy(desc(feedbacks.createdAt), desc(feedbacks.id))
    .limit(input.size)
    .offset((input.page - 1) * input.size);
  const counts = await shotCounts(
    ctx.db,
    rows.map((r) => r.id),
  );
  return { total: Number(totalRow?.n ?? 0), data: rows.map((r) => toItem(r, counts.get(r.id) ?? 0)) };
}

async function visible(ctx: CallContext, id: string, view: View) {
  const [row] = await ctx.db
    .select(columns)
    .from(feedbacks)
    .innerJoin(accounts, eq(accounts.id, feedbacks.authorId))
    .innerJoin(enterprises, eq(enterprises.id, feedbacks.entId))
    .where(and(eq(feedbacks.id, id), viewWhere(ctx, view)));
  if (!row) throw new AppError(ErrorCode.NOT_FOUND);
  return row;
}

export async function info(input: { id: string }, ctx: CallContext, view: View) {
  const row = await visible(ctx, input.id, view);
  const shotRows = await ctx.db
    .select()
    .from(feedbackShots)
    .where(eq(feedbackShots.feedbackId, row.id))
    .orderBy(feedbackShots.createdAt, feedbackShots.id);
  const shots: FeedbackShot[] = await Promise.all(
    shotRows.map(async (s) => ({
      id: s.id,
      url: await ctx.services.files.directUrl(s.key),
      contentType: s.contentType,
      size: s.size,
    })),
  );
  return { feedback: toItem(row, shots.length), shots };
}

export async function reply(input: { id: string; reply: string }, ctx: CallContext) {
  const row = await visible(ctx, input.id, 'all');
  if (feedbackLength(input.reply) > FEEDBACK_REPLY_MAX_CHARS) throw new AppError(ErrorCode.FEEDBACK_REPLY_TOO_LONG);
  if (row.state === 'closed') throw new AppError(ErrorCode.FEEDBACK_STATE);
  await ctx.db
    .update(feedbacks)
    .set({
      reply: input.reply,
      state: 'replied',
      repliedBy: ctx.user.accountId,
      repliedAt: ctx.now,
      updatedAt: ctx.now,
    })
    .where(eq(feedbacks.id, row.id));
  await createStationLetter(ctx.db, {
    entId: row.entId,
    accountId: row.authorId,
    kind: FEEDBACK_REPLIED_LETTER_KIND,
    params: { feedbackId: row.id, summary: letterSummary(row.content) },
    createdAt: ctx.now,
  });
  await ctx.audit({
    module: 'feedback',
    action: 'feedbackReply',
    targetType: 'feedback',
    targetId: row.id,
    targetName: letterSummary(row.content),
  });
  return { state: 'replied' as const };
}

export async function close(input: { id: string }, ctx: CallContext, view: View) {
  const row = await visible(ctx, input.id, view);
  if (row.state === 'closed') throw new AppError(ErrorCode.FEEDBACK_STATE);
  await ctx.db
    .update(feedbacks)
    .set({ state: 'closed', closedBy: ctx.user.accountId, closedAt: ctx.now, updatedAt: ctx.now })
    .where(eq(feedbacks.id, row.id));
  await ctx.audit({
    module: 'feedback',
    action: 'feedbackClose',
    targetType: 'feedback',
    targetId: row.id,
    targetName: letterSummary(row.content),
  });
  return { state: 'closed' as const };
}
