import { ErrorCode, type TagRow } from '@marquee/protocol';
import { and, asc, count, desc, eq, ilike, inArray, type SQL } from 'drizzle-orm';
import { devices, deviceTags, tagCategories, tags } from '../../db/schema/index.js';
import { AppError } from '../../protocol/appError.js';
import { type CallContext, joinTargetNames } from '../../protocol/handlers.js';
import { nameTaken, tagDeviceCounts, visibleDeviceIds, visibleDevicesWhere } from './repository.js';
import { GroupText } from './texts.js';

/**
 * Tags and tag categories: the enterprise's vocabulary (tenant-wide, names unique within the
 * enterprise). Tagging needs the devices visible to the caller; what a tag counts and lists
 * is the caller's visible devices carrying it.
 */

const escapeLike = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);

async function loadCategory(ctx: CallContext, id: string) {
  const [row] = await ctx.db
    .select({ id: tagCategories.id, name: tagCategories.name })
    .from(tagCategories)
    .where(and(eq(tagCategories.entId, ctx.user.entId), eq(tagCategories.id, id)));
  if (!row) throw new AppError(ErrorCode.NOT_FOUND, GroupText.categoryNotFound);
  return row;
}

async function loadTags(ctx: CallContext, ids: readonly string[]) {
  const unique = [...new Set(ids)];
  const rows = await ctx.db
    .select({ id: tags.id, name: tags.name })
    .from(tags)
    .where(and(eq(tags.entId, ctx.user.entId), inArray(tags.id, unique)));
  if (rows.length !== unique.length) throw new AppError(ErrorCode.NOT_FOUND, GroupText.tagNotFound);
  return rows;
}

async function checkVisibleDevices(ctx: CallContext, ids: readonly string[]) {
  const unique = [...new Set(ids)];
  const visible = await visibleDeviceIds(ctx.db, ctx.user, unique);
  if (unique.some((id) => !visible.has(id))) throw new AppError(ErrorCode.NOT_FOUND);
  return visible;
}

/** The enterprise's categories by sort and name, with how many tags each holds. */
export async function listCategories(ctx: CallContext) {
  const rows = await ctx.db
    .select({ id: tagCategories.id, name: tagCategories.name, tagCount: count(tags.id) })
    .from(tagCategories)
    .leftJoin(tags, eq(tags.categoryId, tagCategories.id))
    .where(eq(tagCategories.entId, ctx.user.entId))
    .groupBy(tagCategories.id)
    .orderBy(asc(tagCategories.sort), asc(tagCategories.name), asc(tagCategories.id));
  return rows;
}

export async function createCategory(input: { name: string }, ctx: CallContext) {
  if (await nameTaken(ctx.db, tagCategories, ctx.user.entId, input.name)) {
    throw new AppError(ErrorCode.CONFLICT, GroupText.categoryNameTaken);
  }
  const [{ n }] = await ctx.db
    .select({ n: count() })
    .from(tagCategories)
    .where(eq(tagCategories.entId, ctx.user.entId));
  const [row] = await ctx.db
    .insert(tagCategories)
    .values({ entId: ctx.user.entId, name: input.name, sort: n + 1, createdAt: ctx.now, updatedAt: ctx.now })
    .returning({ id: tagCategories.id });
  await ctx.audit({
    module: 'deviceTag',
    action: 'createCategory',
    targetType: 'tagCategory',
    targetId: row.id,
    targetName: input.name,
  });
  return { id: row.id };
}

export async function updateCategory(input: { id: string; name: string }, ctx: CallContext): Promise<null> {
  const category = await loadCategory(ctx, input.id);
  if (await nameTaken(ctx.db, tagCategories, ctx.user.entId, input.name, input.id)) {
    throw new AppError(ErrorCode.CONFLICT, GroupText.categoryNameTaken);
  }
  await ctx.db
    .update(tagCategories)
    .set({ name: input.name, updatedAt: ctx.now })
    .where(eq(tagCategories.id, input.id));
  await ctx.audit({
    module: 'deviceTag',
    action: 'updateCategory',
    targetType: 'tagCategory',
    targetId: input.id,
    targetName: input.name,
    detail: { from: category.name },
  });
  return null;
}

/** Deletes an empty category; one that still has tags answers CONFLICT. */
export async function deleteCategory(input: { id: string }, ctx: CallContext): Promise<null> {
  const category = await loadCategory(ctx, input.id);
  const [{ n }] = await ctx.db.select({ n: count() }).from(tags).where(eq(tags.categoryId, input.id));
  if (n > 0) throw new AppError(ErrorCode.CONFLICT, GroupText.categoryHasTags);
  await ctx.db.delete(tagCategories).where(eq(tagCategories.id, input.id));
  await ctx.audit({
    module: 'deviceTag',
    action: 'deleteCategory',
    targetType: 'tagCategory',
    targetId: input.id,
    targetName: category.name,
  });
  return null;
}

function tagSelect(ctx: CallContext, where: SQL) {
  return ctx.db
    .select({
      id: tags.id,
      name: tags.name,
      categoryId: tags.categoryId,
      categoryName: tagCategories.name,
      updatedAt: tags.updatedAt,
    })
    .from(tags)
    .innerJoin(tagCategories, eq(tagCategories.id, tags.categoryId))
    .where(where);
}

/** A page of the enterprise's tags (by category and name), with the caller's visible device counts. */
export async function listTags(
  input: { page: number; size: number; name?: string; categoryId?: string },
  ctx: CallContext,
): Promise<{ total: number; data: TagRow[] }> {
  const conds: SQL[] = [eq(tags.entId, ctx.user.entId)];
  if (input.name) conds.push(ilike(tags.name, `%${escapeLike(input.name)}%`));
  if (input.categoryId) conds.push(eq(tags.categoryId, input.categoryId));
  const where = and(...conds) as SQL;
  const [rows, [{ total }]] = await Promise.all([
    tagSelect(ctx, where)
      .orderBy(asc(tagCategories.sort), asc(tagCategories.name), desc(tags.updatedAt), asc(tags.id))
      .limit(input.size)
      .offset((input.page - 1) * input.size),
    ctx.db.select({ total: count() }).from(tags).where(where),
  ]);
  const counts = await tagDeviceCounts(
    ctx.db,
    ctx.user,
    rows.map((r) => r.id),
  );
  return {
    total,
    data: rows.map((r) => ({ ...r, deviceCount: counts.get(r.id) ?? 0, updatedAt: r.updatedAt.toISOString() })),
  };
}

/** Every tag of the enterprise with its category: pickers and the device list's filter. */
export async function tagOptions(ctx: CallContext) {
  return tagSelect(ctx, eq(tags.entId, ctx.user.entId))
    .orderBy(asc(tagCategories.sort), asc(tagCategories.name), asc(tags.name))
    .limit(5000)
    .then((rows) => rows.map(({ updatedAt: _u, ...r }) => r));
}

/** One tag with the caller's visible devices carrying it. */
export async function tagDetail(input: { id: string }, ctx: CallContext) {
  const [row] = await tagSelect(ctx, and(eq(tags.entId, ctx.user.entId), eq(tags.id, input.id)) as SQL);
  if (!row) throw new AppError(ErrorCode.NOT_FOUND, GroupText.tagNotFound);
  const members = await visibleDevicesWhere(
    ctx.db,
    ctx.user,
    inArray(
      devices.id,
      ctx.db.select({ id: deviceTags.deviceId }).from(deviceTags).where(eq(deviceTags.tagId, input.id)),
    ),
  );
  return { ...row, deviceCount: members.length, updatedAt: row.updatedAt.toISOString(), devices: members };
}

async function addTagged(ctx: CallContext, tagIds: readonly string[], deviceIds: readonly string[]) {
  const values = tagIds.flatMap((tagId) =>
    deviceIds.map((deviceId) => ({ tagId, deviceId, entId: ctx.user.entId, createdAt: ctx.now })),
  );
  for (let i = 0; i < values.length; i += 1000) {
    await ctx.db
      .insert(deviceTags)
      .values(values.slice(i, i + 1000))
      .onConflictDoNothing();
  }
}

async function removeTagged(ctx: CallContext, tagIds: readonly string[], deviceIds: readonly string[]) {
  if (tagIds.length === 0 || deviceIds.length === 0) return;
  await ctx.db
    .delete(deviceTags)
    .where(and(inArray(deviceTags.tagId, [...tagIds]), inArray(deviceTags.deviceId, [...deviceIds])));
}

export async function createTag(
  input: { name: string; categoryId: string; deviceIds?: string[] },
  ctx: CallContext,
): Promise<{ id: string }> {
  await loadCategory(ctx, input.categoryId);
  if (await nameTaken(ctx.db, tags, ctx.user.entId, input.name)) {
    throw new AppError(ErrorCode.CONFLICT, GroupText.tagNameTaken);
  }
  const visible = await checkVisibleDevices(ctx, input.deviceIds ?? []);
  const [row] = await ctx.db
    .insert(tags)
    .values({
      entId: ctx.user.entId,
      categoryId: input.categoryId,
      name: input.name,
      createdAt: ctx.now,
      updatedAt: ctx.now,
    })
    .returning({ id: tags.id });
  await addTagged(ctx, [row.id], [...visible.keys()]);
  await ctx.audit({
    module: 'deviceTag',
    action: 'create',
    targetType: 'tag',
    targetId: row.id,
    targetName: input.name,
    detail: { categoryId: input.categoryId, devices: visible.size },
  });
  return { id: row.id };
}

/** Renames or moves a tag; with `deviceIds`, its devices the caller can see become exactly those. */
export async function updateTag(
  input: { id: string; name: string; categoryId: string; deviceIds?: string[] },
  ctx: CallContext,
): Promise<null> {
  const [tag] = await loadTags(ctx, [input.id]);
  await loadCategory(ctx, input.categoryId);
  if (await nameTaken(ctx.db, tags, ctx.user.entId, input.name, input.id)) {
    throw new AppError(ErrorCode.CONFLICT, GroupText.tagNameTaken);
  }
  let change: { added: number; removed: number } | undefined;
  if (input.deviceIds) {
    const wanted = [...new Set(input.deviceIds)];
    await checkVisibleDevices(ctx, wanted);
    const current = (
      await visibleDevicesWhere(
        ctx.db,
        ctx.user,
        inArray(
          devices.id,
          ctx.db.select({ id: deviceTags.deviceId }).from(deviceTags).where(eq(deviceTags.tagId, input.id)),
        ),
      )
    ).map((d) => d.id);
    const added = wanted.filter((id) => !current.includes(id));
    const removed = current.filter((id) => !wanted.includes(id));
    await addTagged(ctx, [input.id], added);
    await removeTagged(ctx, [input.id], removed);
    change = { added: added.length, removed: removed.length };
  }
  await ctx.db
    .update(tags)
    .set({ name: input.name, categoryId: input.categoryId, updatedAt: ctx.now })
    .where(eq(tags.id, input.id));
  await ctx.audit({
    module: 'deviceTag',
    action: 'update',
    targetType: 'tag',
    targetId: input.id,
    targetName: input.name,
    detail: { from: tag.name, categoryId: input.categoryId, ...change },
  });
  return null;
}

/** Deletes tags (devices lose them). */
export async function deleteTags(input: { ids: string[] }, ctx: CallContext): Promise<null> {
  const rows = await loadTags(ctx, input.ids);
  const ids = rows.map((r) => r.id);
  await ctx.db.delete(tags).where(and(eq(tags.entId, ctx.user.entId), inArray(tags.id, ids)));
  await ctx.audit({
    module: 'deviceTag',
    action: 'delete',
    targetType: 'tag',
    targetId: ids.length === 1 ? ids[0] : undefined,
    targetName: joinTargetNames(rows.map((r) => r.name)),
    detail: { ids },
  });
  return null;
}

/** Bulk tagging: every device gains (or loses) every tag. Devices must be visible. */
export async function assignTags(
  input: { tagIds: string[]; action: 'add' | 'remove'; deviceIds: string[] },
  ctx: CallContext,
): Promise<{ devices: number }> {
  const rows = await loadTags(ctx, input.tagIds);
  const visible = await checkVisibleDevices(ctx, input.deviceIds);
  const tagIds = rows.map((r) => r.id);
  const deviceIds = [...visible.keys()];
  if (input.action === 'add') await addTagged(ctx, tagIds, deviceIds);
  else await removeTagged(ctx, tagIds, deviceIds);
  await ctx.db.update(tags).set({ updatedAt: ctx.now }).where(inArray(tags.id, tagIds));
  await ctx.audit({
    module: 'deviceTag',
    action: input.action === 'add' ? 'tagDevices' : 'untagDevices',
    targetType: 'tag',
    targetId: tagIds.length === 1 ? tagIds[0] : undefined,
    targetName: joinTargetNames(rows.map((r) => r.name)),
    detail: { tagIds, deviceIds, devices: joinTargetNames([...visible.values()]) },
  });
  return { devices: deviceIds.length };
}
