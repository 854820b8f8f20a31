import {
  ErrorCode,
  SPECIAL_MAX_PHOTOS,
  SPECIAL_PHOTO_MAX_BYTES,
  SPECIAL_PHOTO_TYPES,
  type SpecialInquiry,
  type SpecialInquiryState,
  type SpecialKind,
  type SpecialResource,
  type SpecialResourceState,
} from '@marquee/protocol';
import { and, count, desc, eq, inArray, isNull, ne, or, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import {
  accounts,
  enterprises,
  specialInquiries,
  specialResourcePhotos,
  specialResources,
} from '../../db/schema/index.js';
import { AppError } from '../../protocol/appError.js';
import type { CallContext } from '../../protocol/handlers.js';
import { enterpriseKey, extensionOf } from '../../storage/storage.js';
import { checkTargets } from '../sales/slots.js';
import { createStationLetter } from '../stationLetter/service.js';
import { SPECIAL_DECLINED_LETTER_KIND, SPECIAL_QUOTED_LETTER_KIND } from './letters.js';

/**
 * Special resources (issue 31; packages/protocol/src/endpoints/special.ts). The operator's side
 * (Perm.specialResourceManage is provider-only; the enterprise kind is checked too: audience
 * `platform`) keeps the platform's resources and answers every inquiry on them. The
 * advertiser's side sees listed resources and its own inquiries (inquirer = caller).
 */

type ResourceRow = typeof specialResources.$inferSelect;
type InquiryRow = typeof specialInquiries.$inferSelect;

function operator(ctx: CallContext): string {
  if (ctx.user.entKind !== 'provider') throw new AppError(ErrorCode.NOT_FOUND);
  return ctx.user.entId;
}

/** Inquiries that hold a place (accepted) and that wait for the operator (open), by resource. */
async function inquiryCounts(db: Executor, ids: string[]) {
  const out = new Map<string, { accepted: number; open: number }>();
  if (ids.length === 0) return out;
  const rows = await db
    .select({ resourceId: specialInquiries.resourceId, state: specialInquiries.state, n: count() })
    .from(specialInquiries)
    .where(and(inArray(specialInquiries.resourceId, ids), inArray(specialInquiries.state, ['accepted', 'open'])))
    .groupBy(specialInquiries.resourceId, specialInquiries.state);
  for (const r of rows) {
    const c = out.get(r.resourceId) ?? { accepted: 0, open: 0 };
    if (r.state === 'accepted') c.accepted = Number(r.n);
    else c.open = Number(r.n);
    out.set(r.resourceId, c);
  }
  return out;
}

async function presentResources(ctx: CallContext, rows: ResourceRow[]): Promise<SpecialResource[]> {
  const ids = rows.map((r) => r.id);
  const counts = await inquiryCounts(ctx.db, ids);
  const photos = ids.length
    ? await ctx.db
        .select()
        .from(specialResourcePhotos)
        .where(inArray(specialResourcePhotos.resourceId, ids))
        .orderBy(specialResourcePhotos.sort, specialResourcePhotos.id)
    : [];
  const urls = new Map<string, { id: string; url: string | null }[]>();
  for (const p of photos) {
    const list = urls.get(p.resourceId as string) ?? [];
    list.push({ id: p.id, url: await ctx.services.files.directUrl(p.key) });
    urls.set(p.resourceId as string, list);
  }
  return rows.map((r) => ({
    id: r.id,
    title: r.title,
    description: r.description,
    kind: r.kind as SpecialKind,
    targets: r.targets,
    startDate: r.startDate,
    endDate: r.endDate,
    price: r.price,
    capacity: r.capacity,
    state: r.state as SpecialResourceState,
    photos: urls.get(r.id) ?? [],
    accepted: counts.get(r.id)?.accepted ?? 0,
    open: counts.get(r.id)?.open ?? 0,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  }));
}

async function listResources(ctx: CallContext, where: SQL | undefined, page: number, size: number) {
  const [total] = await ctx.db.select({ n: count() }).from(specialResources).where(where);
  const rows = await ctx.db
    .select()
    .from(specialResources)
    .where(where)
    .orderBy(desc(specialResources.updatedAt), desc(specialResources.id))
    .limit(size)
    .offset((page - 1) * size);
  return { total: Number(total?.n ?? 0), data: await presentResources(ctx, rows) };
}

/** The platform's resources, every state. */
export function resourceList(input: { state?: SpecialResourceState; page: number; size: number }, ctx: CallContext) {
  operator(ctx);
  return listResources(ctx, input.state ? eq(specialResources.state, input.state) : undefined, input.page, input.size);
}

/** The platform's shelf: listed resources, for advertisers. */
export function listed(input: { kind?: SpecialKind; page: number; size: number }, ctx: CallContext) {
  return listResources(
    ctx,
    and(eq(specialResources.state, 'listed'), input.kind ? eq(specialResources.kind, input.kind) : undefined),
    input.page,
    input.size,
  );
}

export async function photoApply(input: { size: number; contentType: string }, ctx: CallContext) {
  const entId = operator(ctx);
  const type = input.contentType.split(';')[0].trim().toLowerCase();
  if (!(SPECIAL_PHOTO_TYPES as readonly string[]).includes(type)) throw new AppError(ErrorCode.FILE_FORMAT_ERROR);
  if (input.size > SPECIAL_PHOTO_MAX_BYTES) throw new AppError(ErrorCode.FILE_TOO_LARGE);
  const [photo] = await ctx.db
    .insert(specialResourcePhotos)
    .values({ entId, key: '', contentType: type, createdAt: ctx.now })
    .returning({ id: specialResourcePhotos.id });
  const key = enterpriseKey(entId, 'special', `${photo.id}.${extensionOf(type)}`);
  await ctx.db.update(specialResourcePhotos).set({ key }).where(eq(specialResourcePhotos.id, photo.id));
  const signature = ctx.services.files.createUpload({
    entId,
    key,
    minBytes: 1,
    maxBytes: SPECIAL_PHOTO_MAX_BYTES,
    contentTypes: [...SPECIAL_PHOTO_TYPES],
    contentType: type,
  });
  await ctx.audit({
    module: 'special',
    action: 'specialPhotoUpload',
    targetType: 'special_resource',
    targetId: photo.id,
    targetName: `photo.${extensionOf(type)}`,
  });
  return { ...signature, photoId: photo.id };
}

export interface ResourceInput {
  id?: string;
  title: string;
  description: string;
  kind: SpecialKind;
  targets: { deviceIds: string[]; groupIds: string[]; tagIds: string[]; spliceIds: string[] };
  startDate: string;
  endDate: string;
  price: number;
  capacity: number;
  state: SpecialResourceState;
  photoIds: string[];
}

function validDay(day: string): boolean {
  const d = new Date(`${day}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === day;
}

export async function resourceSave(input: ResourceInput, ctx: CallContext) {
  const entId = operator(ctx);
  if (!validDay(input.startDate) || !validDay(input.endDate) || input.endDate < input.startDate) {
    throw new AppError(ErrorCode.SPECIAL_DATES_INVALID);
  }
  const photoIds = [...new Set(input.photoIds)].slice(0, SPECIAL_MAX_PHOTOS);
  let existing: ResourceRow | undefined;
  if (input.id) {
    [existing] = await ctx.db.select().from(specialResources).where(eq(specialResources.id, input.id)).for('update');
    if (!existing) throw new AppError(ErrorCode.NOT_FOUND);
    // The capacity cannot fall below the buyers already holding it.
    const held = (await inquiryCounts(ctx.db, [existing.id])).get(existing.id)?.accepted ?? 0;
    if (input.capacity < held) throw new AppError(ErrorCode.SPECIAL_CAPACITY_FULL);
  }
  const targets = await checkTargets(ctx, input.targets);
  // Photos: the operator's own, uploaded, and free or already this resource's.
  const photos = photoIds.length
    ? await ctx.db
        .select()
        .from(specialResourcePhotos)
        .where(
          and(
            inArray(specialResourcePhotos.id, photoIds),
            existing
              ? or(isNull(specialResourcePhotos.resourceId), eq(specialResourcePhotos.resourceId, existing.id))
              : isNull(specialResourcePhotos.resourceId),
          ),
        )
    : [];
  if (photos.length !== photoIds.length) throw new AppError(ErrorCode.SPECIAL_PHOTO_INVALID);
  for (const p of photos) {
    if (!p.key || !(await ctx.services.files.storage.stat(p.key))) throw new AppError(ErrorCode.SPECIAL_PHOTO_INVALID);
  }
  const values = {
    title: input.title,
    description: input.description,
    kind: input.kind,
    targets,
    startDate: input.startDate,
    endDate: input.endDate,
    price: input.price,
    capacity: input.capacity,
    state: input.state,
    updatedAt: ctx.now,
  };
  let id: string;
  if (existing) {
    id = existing.id;
    await ctx.db.update(specialResources).set(values).where(eq(specialResources.id, id));
    // Photos no longer named are detached (their objects stay until storage is swept).
    await ctx.db
      .delete(specialResourcePhotos)
      .where(and(eq(specialResourcePhotos.resourceId, id), photoIds.length ? notIn(photoIds) : undefined));
  } else {
    const [row] = await ctx.db
      .insert(specialResources)
      .values({ ...values, entId, createdBy: ctx.user.accountId, createdAt: ctx.now })
      .returning({ id: specialResources.id });
    id = row.id;
  }
  for (const [i, photoId] of photoIds.entries()) {
    await ctx.db
      .update(specialResourcePhotos)
      .set({ resourceId: id, sort: i })
      .where(eq(specialResourcePhotos.id, photoId));
  }
  await ctx.audit({
    module: 'special',
    action: existing ? 'specialResourceUpdate' : 'specialResourceCreate',
    targetType: 'special_resource',
    targetId: id,
    targetName: input.title,
  });
  return { id };
}

function notIn(ids: string[]): SQL {
  return and(...ids.map((i) => ne(specialResourcePhotos.id, i))) as SQL;
}

// ---- inquiries ----

const inquiryColumns = {
  inquiry: specialInquiries,
  resourceTitle: specialResources.title,
  resourceEntId: specialResources.entId,
  inquirerLogin: accounts.loginName,
  inquirerReal: accounts.realName,
  entName: enterprises.name,
};

type InquiryJoined = {
  inquiry: InquiryRow;
  resourceTitle: string;
  resourceEntId: string;
  inquirerLogin: string;
  inquirerReal: string;
  entName: string;
};

function presentInquiry(r: InquiryJoined): SpecialInquiry {
  const q = r.inquiry;
  return {
    id: q.id,
    resourceId: q.resourceId,
    resourceTitle: r.resourceTitle,
    startDate: q.startDate,
    endDate: q.endDate,
    message: q.message,
    state: q.state as SpecialInquiryState,
    quotedPrice: q.quotedPrice,
    answer: q.answer,
    answeredAt: q.answeredAt?.toISOString() ?? null,
    inquirerName: r.inquirerReal || r.inquirerLogin,
    entName: r.entName,
    createdAt: q.createdAt.toISOString(),
  };
}

async function listInquiries(ctx: CallContext, where: SQL | undefined, page: number, size: number) {
  const [total] = await ctx.db
    .select({ n: count() })
    .from(specialInquiries)
    .innerJoin(specialResources, eq(specialResources.id, specialInquiries.resourceId))
    .where(where);
  const rows = await ctx.db
    .select(inquiryColumns)
    .from(specialInquiries)
    .innerJoin(specialResources, eq(specialResources.id, specialInquiries.resourceId))
    .innerJoin(accounts, eq(accounts.id, specialInquiries.inquirerId))
    .innerJoin(enterprises, eq(enterprises.id, specialInquiries.entId))
    .where(where)
    .orderBy(desc(specialInquiries.createdAt), desc(specialInquiries.id))
    .limit(size)
    .offset((page - 1) * size);
  return { total: Number(total?.n ?? 0), data: rows.map(presentInquiry) };
}

/** Every inquiry on the platform's resources. */
export function inquiryList(
  input: { state?: SpecialInquiryState; resourceId?: string; page: number; size: number },
  ctx: CallContext,
) {
  operator(ctx);
  return listInquiries(
    ctx,
    and(
      input.state ? eq(specialInquiries.state, input.state) : undefined,
      input.resourceId ? eq(specialInquiries.resourceId, input.resourceId) : undefined,
    ),
    input.page,
    input.size,
  );
}

/** The caller's own inquiries. */
export function myInquiries(input: { state?: SpecialInquiryState; page: number; size: number }, ctx: CallContext) {
  return listInquiries(
    ctx,
    and(
      eq(specialInquiries.entId, ctx.user.entId),
      eq(specialInquiries.inquirerId, ctx.user.accountId),
      input.state ? eq(specialInquiries.state, input.state) : undefined,
    ),
    input.page,
    input.size,
  );
}

export async function inquire(
  input: { resourceId: string; startDate: string; endDate: string; message: string },
  ctx: CallContext,
) {
  const [resource] = await ctx.db.select().from(specialResources).where(eq(specialResources.id, input.resourceId));
  // A draft is the platform's alone: to anyone else it does not exist.
  if (!resource || (resource.state === 'draft' && ctx.user.entKind !== 'provider')) {
    throw new AppError(ErrorCode.NOT_FOUND);
  }
  if (resource.state !== 'listed') throw new AppError(ErrorCode.SPECIAL_RESOURCE_STATE);
  if (
    !validDay(input.startDate) ||
    !validDay(input.endDate) ||
    input.endDate < input.startDate ||
    input.startDate < resource.startDate ||
    input.endDate > resource.endDate
  ) {
    throw new AppError(ErrorCode.SPECIAL_DATES_INVALID);
  }
  const [row] = await ctx.db
    .insert(specialInquiries)
    .values({
      resourceId: resource.id,
      entId: ctx.user.entId,
      inquirerId: ctx.user.accountId,
      startDate: input.startDate,
      endDate: input.endDate,
      message: input.message,
      createdAt: ctx.now,
      updatedAt: ctx.now,
    })
    .returning({ id: specialInquiries.id });
  await ctx.audit({
    module: 'special',
    action: 'specialInquire',
    targetType: 'special_inquiry',
    targetId: row.id,
    targetName: resource.title,
  });
  return { id: row.id };
}

/** An inquiry with its resource, locked for the change. */
async function lockInquiry(ctx: CallContext, id: string) {
  const [row] = await ctx.db
    .select({ inquiry: specialInquiries, resource: specialResources })
    .from(specialInquiries)
    .innerJoin(specialResources, eq(specialResources.id, specialInquiries.resourceId))
    .where(eq(specialInquiries.id, id))
    .for('update');
  return row;
}

export async function inquiryAnswer(
  input: { id: string; action: 'quote' | 'decline'; price?: number; answer: string },
  ctx: CallContext,
) {
  operator(ctx);
  const row = await lockInquiry(ctx, input.id);
  if (!row) throw new AppError(ErrorCode.NOT_FOUND);
  const q = row.inquiry;
  if (q.state !== 'open' && q.state !== 'quoted') throw new AppError(ErrorCode.SPECIAL_INQUIRY_STATE);
  const state = input.action === 'quote' ? ('quoted' as const) : ('declined' as const);
  await ctx.db
    .update(specialInquiries)
    .set({
      state,
      quotedPrice: input.action === 'quote' ? (input.price as number) : q.quotedPrice,
      answer: input.answer,
      answeredBy: ctx.user.accountId,
      answeredAt: ctx.now,
      updatedAt: ctx.now,
    })
    .where(eq(specialInquiries.id, q.id));
  await createStationLetter(ctx.db, {
    entId: q.entId,
    accountId: q.inquirerId,
    kind: input.action === 'quote' ? SPECIAL_QUOTED_LETTER_KIND : SPECIAL_DECLINED_LETTER_KIND,
    params:
      input.action === 'quote'
        ? { inquiryId: q.id, title: row.resource.title, price: input.price as number }
        : { inquiryId: q.id, title: row.resource.title, reason: input.answer },
    createdAt: ctx.now,
  });
  await ctx.audit({
    module: 'special',
    action: input.action === 'quote' ? 'specialQuote' : 'specialDecline',
    targetType: 'special_inquiry',
    targetId: q.id,
    targetName: row.resource.title,
  });
  return { state };
}

export async function inquiryRespond(input: { id: string; action: 'accept' | 'withdraw' }, ctx: CallContext) {
  const row = await lockInquiry(ctx, input.id);
  if (!row || row.inquiry.inquirerId !== ctx.user.accountId || row.inquiry.entId !== ctx.user.entId) {
    throw new AppError(ErrorCode.NOT_FOUND);
  }
  const q = row.inquiry;
  let state: SpecialInquiryState;
  if (input.action === 'accept') {
    if (q.state !== 'quoted') throw new AppError(ErrorCode.SPECIAL_INQUIRY_STATE);
    // The resource row is locked: two buyers accepting at once count each other.
    await ctx.db
      .select({ id: specialResources.id })
      .from(specialResources)
      .where(eq(specialResources.id, row.resource.id))
      .for('update');
    const held = (await inquiryCounts(ctx.db, [row.resource.id])).get(row.resource.id)?.accepted ?? 0;
    if (row.resource.state !== 'listed') throw new AppError(ErrorCode.SPECIAL_RESOURCE_STATE);
    if (held >= row.resource.capacity) throw new AppError(ErrorCode.SPECIAL_CAPACITY_FULL);
    state = 'accepted';
  } else {
    if (q.state !== 'open' && q.state !== 'quoted') throw new AppError(ErrorCode.SPECIAL_INQUIRY_STATE);
    state = 'withdrawn';
  }
  await ctx.db.update(specialInquiries).set({ state, updatedAt: ctx.now }).where(eq(specialInquiries.id, q.id));
  await ctx.audit({
    module: 'special',
    action: state === 'accepted' ? 'specialAccept' : 'specialWithdraw',
    targetType: 'special_inquiry',
    targetId: q.id,
    targetName: row.resource.title,
  });
  return { state };
}
