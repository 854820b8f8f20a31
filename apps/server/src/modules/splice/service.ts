import { ErrorCode, type SpliceDetail, type SpliceRow } from '@marquee/protocol';
import { and, count, eq, ilike, inArray, isNotNull, ne, type SQL } from 'drizzle-orm';
import { scopeWhere } from '../../auth/scope.js';
import { departments, devices, spliceTiles, spliceWalls } from '../../db/schema/index.js';
import { newestFirst } from '../../db/sort.js';
import { AppError } from '../../protocol/appError.js';
import type { CallContext } from '../../protocol/handlers.js';
import { requestContentSync } from '../content/service.js';
import { loadVisibleDept } from '../dept/manage.js';
import { effectiveStatus } from '../devices/repository.js';
import { resolveDeviceTargets } from '../devices/targets.js';
import { spliceScope } from './repository.js';
import { SpliceText } from './texts.js';

const escapeLike = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);

interface WallFields {
  name: string;
  rows: number;
  cols: number;
  deptId?: string;
  scaling: boolean;
  rotation: number;
  tiles: { row: number; col: number; deviceId: string }[];
}

/** A page of the split screens the caller can see, newest first. */
export async function listWalls(
  input: { page: number; size: number; keyword?: string },
  ctx: CallContext,
): Promise<{ total: number; data: SpliceRow[] }> {
  const conds: SQL[] = [scopeWhere(ctx.user, spliceScope)];
  if (input.keyword) conds.push(ilike(spliceWalls.name, `%${escapeLike(input.keyword)}%`));
  const where = and(...conds);
  const [rows, [{ total }]] = await Promise.all([
    ctx.db
      .select({ wall: spliceWalls, deptName: departments.name })
      .from(spliceWalls)
      .leftJoin(departments, eq(departments.id, spliceWalls.deptId))
      .where(where)
      .orderBy(...newestFirst(spliceWalls.createdAt, spliceWalls.id))
      .limit(input.size)
      .offset((input.page - 1) * input.size),
    ctx.db.select({ total: count() }).from(spliceWalls).where(where),
  ]);
  const tiles = await tilesOf(
    ctx,
    rows.map((r) => r.wall.id),
  );
  return {
    total,
    data: rows.map(({ wall, deptName }) => toRow(wall, deptName, tiles.get(wall.id) ?? [])),
  };
}

type WallRecord = typeof spliceWalls.$inferSelect;
type TileRecord = Awaited<ReturnType<typeof tilesOf>> extends Map<string, infer T> ? T : never;

async function tilesOf(ctx: CallContext, wallIds: string[]) {
  const byWall = new Map<string, SpliceDetail['tiles']>();
  if (wallIds.length === 0) return byWall;
  const rows = await ctx.db
    .select({ tile: spliceTiles, device: devices })
    .from(spliceTiles)
    .innerJoin(devices, eq(devices.id, spliceTiles.deviceId))
    .where(inArray(spliceTiles.wallId, wallIds))
    .orderBy(spliceTiles.row, spliceTiles.col);
  const now = ctx.now.getTime();
  for (const { tile, device } of rows) {
    const list = byWall.get(tile.wallId) ?? [];
    list.push({
      row: tile.row,
      col: tile.col,
      deviceId: device.id,
      deviceName: device.name,
      deviceNumber: device.number,
      status: effectiveStatus(device, now),
    });
    byWall.set(tile.wallId, list);
  }
  return byWall;
}

function toRow(wall: WallRecord, deptName: string | null, tiles: TileRecord): SpliceRow {
  return {
    id: wall.id,
    name: wall.name,
    rows: wall.rows,
    cols: wall.cols,
    deptId: wall.deptId,
    deptName: deptName ?? '',
    scaling: wall.scaling,
    rotation: wall.rotation,
    tileCount: tiles.length,
    onlineCount: tiles.filter((t) => t.status === 'online').length,
    createdAt: wall.createdAt.toISOString(),
    updatedAt: wall.updatedAt.toISOString(),
  };
}

async function loadWall(ctx: CallContext, id: string) {
  const [row] = await ctx.db
    .select({ wall: spliceWalls, deptName: departments.name })
    .from(spliceWalls)
    .leftJoin(departments, eq(departments.id, spliceWalls.deptId))
    .where(and(scopeWhere(ctx.user, spliceScope), eq(spliceWalls.id, id)));
  if (!row) throw new AppError(ErrorCode.NOT_FOUND, SpliceText.notFound);
  return row;
}

/** One split screen with its tiles. */
export async function wallDetail(input: { id: string }, ctx: CallContext): Promise<SpliceDetail> {
  const { wall, deptName } = await loadWall(ctx, input.id);
  const tiles = (await tilesOf(ctx, [wall.id])).get(wall.id) ?? [];
  return { ...toRow(wall, deptName, tiles), tiles };
}

/**
 * The wall's rules: rotation needs tile scaling (spec section 9), tiles inside the grid,
 * one device per position and one position per device, every device visible to the caller
 * and not a tile of another wall. Answers the tiles' devices.
 */
async function checkWall(ctx: CallContext, input: WallFields, wallId: string | null) {
  if (input.rotation !== 0 && !input.scaling) {
    throw new AppError(ErrorCode.INVALID_PARAMS, SpliceText.rotationNeedsScaling);
  }
  const positions = new Set<string>();
  const deviceIds = new Set<string>();
  for (const tile of input.tiles) {
    if (tile.row >= input.rows || tile.col >= input.cols) {
      throw new AppError(ErrorCode.INVALID_PARAMS, SpliceText.outsideGrid);
    }
    const key = `${tile.row}:${tile.col}`;
    if (positions.has(key)) throw new AppError(ErrorCode.INVALID_PARAMS, SpliceText.positionTwice);
    if (deviceIds.has(tile.deviceId)) throw new AppError(ErrorCode.INVALID_PARAMS, SpliceText.deviceTwice);
    positions.add(key);
    deviceIds.add(tile.deviceId);
  }
  const targets = await resolveDeviceTargets(ctx, { deviceIds: [...deviceIds] });
  if (targets.length > 0) {
    const conds: SQL[] = [inArray(spliceTiles.deviceId, [...deviceIds])];
    if (wallId) conds.push(ne(spliceTiles.wallId, wallId));
    const taken = await ctx.db
      .select({ deviceId: spliceTiles.deviceId })
      .from(spliceTiles)
      .where(and(...conds));
    if (taken.length > 0) {
      const names = targets.filter((t) => taken.some((x) => x.deviceId === t.id)).map((t) => t.name);
      throw new AppError(ErrorCode.CONFLICT, SpliceText.deviceInOtherWall(names.join(', ')));
    }
  }
  const deptId = input.deptId ?? null;
  if (deptId && deptId !== ctx.user.deptId) await loadVisibleDept(ctx, deptId);
  return targets;
}

async function writeTiles(ctx: CallContext, wallId: string, tiles: WallFields['tiles']) {
  await ctx.db.delete(spliceTiles).where(eq(spliceTiles.wallId, wallId));
  if (tiles.length === 0) return;
  await ctx.db
    .insert(spliceTiles)
    .values(tiles.map((t) => ({ entId: ctx.user.entId, wallId, row: t.row, col: t.col, deviceId: t.deviceId })));
}

/** The devices that are tiles of the wall now. */
async function tileDeviceIds(ctx: CallContext, wallId: string): Promise<string[]> {
  const rows = await ctx.db
    .select({ deviceId: spliceTiles.deviceId })
    .from(spliceTiles)
    .where(eq(spliceTiles.wallId, wallId));
  return rows.map((r) => r.deviceId);
}

/**
 * A wall change changes its tiles' manifests (the wall block, docs/device-protocol.md 2.7.3):
 * the activated devices among the old and new tiles fetch theirs now (one push, reason 'splice').
 */
async function pushToTiles(ctx: CallContext, deviceIds: readonly string[]) {
  const unique = [...new Set(deviceIds)];
  if (unique.length === 0) return;
  const active = await ctx.db
    .select({ id: devices.id })
    .from(devices)
    .where(and(eq(devices.entId, ctx.user.entId), inArray(devices.id, unique), isNotNull(devices.activatedAt)));
  await requestContentSync(
    ctx,
    active.map((d) => d.id),
    { reason: 'splice' },
  );
}

function auditDetail(input: WallFields) {
  return {
    name: input.name,
    rows: input.rows,
    cols: input.cols,
    scaling: input.scaling,
    rotation: input.rotation,
    tiles: input.tiles.map((t) => `${t.row + 1}-${t.col + 1}:${t.deviceId}`),
  };
}

export async function createWall(input: WallFields, ctx: CallContext): Promise<{ id: string }> {
  await checkWall(ctx, input, null);
  const [wall] = await ctx.db
    .insert(spliceWalls)
    .values({
      entId: ctx.user.entId,
      deptId: input.deptId ?? ctx.user.deptId ?? null,
      ownerId: ctx.user.accountId,
      name: input.name,
      rows: input.rows,
      cols: input.cols,
      scaling: input.scaling,
      rotation: input.rotation,
      createdAt: ctx.now,
      updatedAt: ctx.now,
    })
    .returning({ id: spliceWalls.id });
  await writeTiles(ctx, wall.id, input.tiles);
  await pushToTiles(
    ctx,
    input.tiles.map((t) => t.deviceId),
  );
  await ctx.audit({
    module: 'device',
    action: 'spliceCreate',
    targetType: 'splice',
    targetId: wall.id,
    targetName: input.name,
    detail: auditDetail(input),
  });
  return { id: wall.id };
}

export async function updateWall(input: WallFields & { id: string }, ctx: CallContext): Promise<null> {
  const { wall } = await loadWall(ctx, input.id);
  await checkWall(ctx, input, wall.id);
  const before = await tileDeviceIds(ctx, wall.id);
  await ctx.db
    .update(spliceWalls)
    .set({
      name: input.name,
      rows: input.rows,
      cols: input.cols,
      deptId: input.deptId ?? wall.deptId,
      scaling: input.scaling,
      rotation: input.rotation,
      updatedAt: ctx.now,
    })
    .where(eq(spliceWalls.id, wall.id));
  await writeTiles(ctx, wall.id, input.tiles);
  await pushToTiles(ctx, [...before, ...input.tiles.map((t) => t.deviceId)]);
  await ctx.audit({
    module: 'device',
    action: 'spliceUpdate',
    targetType: 'splice',
    targetId: wall.id,
    targetName: input.name,
    detail: { ...auditDetail(input), before: wall.name !== input.name ? wall.name : undefined },
  });
  return null;
}

export async function deleteWall(input: { id: string }, ctx: CallContext): Promise<null> {
  const { wall } = await loadWall(ctx, input.id);
  const before = await tileDeviceIds(ctx, wall.id);
  await ctx.db.delete(spliceWalls).where(eq(spliceWalls.id, wall.id));
  await pushToTiles(ctx, before);
  await ctx.audit({
    module: 'device',
    action: 'spliceDelete',
    targetType: 'splice',
    targetId: wall.id,
    targetName: wall.name,
    detail: { rows: wall.rows, cols: wall.cols },
  });
  return null;
}
