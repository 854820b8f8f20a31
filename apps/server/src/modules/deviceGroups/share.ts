import { type AllocateEntry, ErrorCode, isLocale, MAX_RESOLVED_DEVICES, RefType } from '@marquee/protocol';
import { and, inArray, or, type SQL } from 'drizzle-orm';
import { inDeptSubtree, scopeWhere } from '../../auth/scope.js';
import { devices } from '../../db/schema/index.js';
import { AppError } from '../../protocol/appError.js';
import { type CallContext, type FileAnswer, joinTargetNames } from '../../protocol/handlers.js';
import { loadVisibleDept } from '../dept/manage.js';
import { deviceScope } from '../devices/repository.js';
import { resolveDeviceTargets } from '../devices/targets.js';
import { changeAllocations } from '../sharing/service.js';
import { manageableDeviceIds } from './repository.js';
import { GroupText } from './texts.js';

/**
 * Device permission sharing in bulk (spec section 6: assignment or recycling by tag, group,
 * department or table import). The devices are chosen here; the allocations are written by
 * the sharing module (changeAllocations), the same rows the permission dialog edits.
 */

/** Most rows an imported sheet may hold. */
const IMPORT_MAX_ROWS = MAX_RESOLVED_DEVICES;

/** The devices of visible departments (and their sub-departments) the caller can see. */
async function departmentDevices(ctx: CallContext, deptIds: readonly string[]) {
  const parts: SQL[] = [];
  for (const id of new Set(deptIds)) {
    const dept = await loadVisibleDept(ctx, id).catch(() => {
      throw new AppError(ErrorCode.NOT_FOUND, GroupText.departmentNotFound);
    });
    parts.push(inDeptSubtree(devices.deptId, ctx.user.entId, dept.path));
  }
  return ctx.db
    .select({ id: devices.id, name: devices.name })
    .from(devices)
    .where(and(scopeWhere(ctx.user, deviceScope), parts.length === 1 ? parts[0] : (or(...parts) as SQL)))
    .limit(MAX_RESOLVED_DEVICES + 1);
}

/**
 * Allocates the chosen devices to the targets, or recycles them. Devices chosen by tag, group
 * or department that the caller may see but not share (shared with it) are skipped and
 * counted; devices chosen by id must all be the caller's to share (NO_PERMISSION).
 */
export async function applyShare(
  input: {
    by: 'tag' | 'group' | 'department' | 'devices';
    ids: string[];
    action: 'allocate' | 'recycle';
    allocateInfos: AllocateEntry[];
  },
  ctx: CallContext,
): Promise<{ devices: number; skipped: number }> {
  let chosen: { id: string; name: string }[];
  if (input.by === 'devices') chosen = await resolveDeviceTargets(ctx, { deviceIds: input.ids });
  else if (input.by === 'group') chosen = await resolveDeviceTargets(ctx, { groupIds: input.ids });
  else if (input.by === 'tag') chosen = await resolveDeviceTargets(ctx, { tagIds: input.ids });
  else chosen = await departmentDevices(ctx, input.ids);
  if (chosen.length > MAX_RESOLVED_DEVICES) throw new AppError(ErrorCode.INVALID_PARAMS, GroupText.noDevices);
  let ids = chosen.map((d) => d.id);
  let skipped = 0;
  if (input.by !== 'devices') {
    const managed = await manageableDeviceIds(ctx.db, ctx.user, ids);
    skipped = ids.length - managed.size;
    ids = ids.filter((id) => managed.has(id));
  }
  if (ids.length === 0) throw new AppError(ErrorCode.NOT_FOUND, GroupText.noDevices);
  const { names, entries } = await changeAllocations(ctx, {
    refType: RefType.device,
    refIds: ids,
    action: input.action,
    allocateInfos: input.allocateInfos,
  });
  await ctx.audit({
    module: 'sharing',
    action: input.action,
    targetType: `ref:${RefType.device}`,
    targetId: ids.length === 1 ? ids[0] : undefined,
    targetName: joinTargetNames(names),
    detail: {
      by: input.by,
      ids: input.ids,
      devices: ids.length,
      skipped,
      allocateInfos: entries.map((e) => ({ id: e.targetId, type: e.targetType, deptDataType: e.deptDataType })),
    },
  });
  return { devices: ids.length, skipped };
}

/** The device numbers of the first column of the first sheet, from row 2 (row 1 is the header). */
async function readNumbers(file: string): Promise<{ row: number; number: string }[]> {
  const { default: ExcelJS } = await import('exceljs');
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(Buffer.from(file, 'base64') as unknown as ArrayBuffer);
  } catch {
    throw new AppError(ErrorCode.INVALID_PARAMS, GroupText.importBadFile);
  }
  const sheet = workbook.worksheets[0];
  if (!sheet) throw new AppError(ErrorCode.INVALID_PARAMS, GroupText.importBadFile);
  const out: { row: number; number: string }[] = [];
  sheet.eachRow({ includeEmpty: false }, (row, rowNumber) => {
    if (rowNumber === 1) return;
    const cell = row.getCell(1);
    const value = cell.text ?? String(cell.value ?? '');
    const number = value.trim();
    if (number) out.push({ row: rowNumber, number });
  });
  if (out.length === 0) throw new AppError(ErrorCode.INVALID_PARAMS, GroupText.importEmpty);
  if (out.length > IMPORT_MAX_ROWS) throw new AppError(ErrorCode.INVALID_PARAMS, GroupText.noDevices);
  return out;
}

/**
 * Table import: a sheet of device numbers. Every row must name a device the caller can see
 * and share, once; with any bad row nothing is written and every bad row is answered.
 */
export async function importShare(
  input: { file: string; action: 'allocate' | 'recycle'; allocateInfos: AllocateEntry[] },
  ctx: CallContext,
): Promise<{ devices: number; errors: { row: number; number: string; reason: string }[] }> {
  const rows = await readNumbers(input.file);
  const lang = isLocale(ctx.language) ? ctx.language : 'zh-CN';
  const numbers = [...new Set(rows.map((r) => r.number).filter((n) => n.length <= 64))];
  const found = new Map<string, { id: string; name: string }>();
  for (let i = 0; i < numbers.length; i += 5000) {
    const slice = await ctx.db
      .select({ id: devices.id, name: devices.name, number: devices.number })
      .from(devices)
      .where(and(scopeWhere(ctx.user, deviceScope), inArray(devices.number, numbers.slice(i, i + 5000))));
    for (const d of slice) found.set(d.number as string, { id: d.id, name: d.name });
  }
  const managed = await manageableDeviceIds(
    ctx.db,
    ctx.user,
    [...found.values()].map((d) => d.id),
  );
  const errors: { row: number; number: string; reason: string }[] = [];
  const seen = new Set<string>();
  const ids: string[] = [];
  for (const r of rows) {
    const device = found.get(r.number);
    let reason: string | undefined;
    if (r.number.length > 64) reason = GroupText.rowTooLong[lang];
    else if (seen.has(r.number)) reason = GroupText.rowDuplicate[lang];
    else if (!device) reason = GroupText.rowUnknown[lang];
    else if (!managed.has(device.id)) reason = GroupText.rowNotManaged[lang];
    seen.add(r.number);
    if (reason) errors.push({ row: r.row, number: r.number.slice(0, 64), reason });
    else if (device) ids.push(device.id);
  }
  if (errors.length > 0) {
    await ctx.audit({
      module: 'sharing',
      action: `import.${input.action}`,
      targetType: `ref:${RefType.device}`,
      targetName: joinTargetNames(rows.map((r) => r.number.slice(0, 64))),
      result: 'failure',
      detail: { rows: rows.length, errors: errors.length },
    });
    return { devices: 0, errors };
  }
  const { names, entries } = await changeAllocations(ctx, {
    refType: RefType.device,
    refIds: ids,
    action: input.action,
    allocateInfos: input.allocateInfos,
  });
  await ctx.audit({
    module: 'sharing',
    action: `import.${input.action}`,
    targetType: `ref:${RefType.device}`,
    targetId: ids.length === 1 ? ids[0] : undefined,
    targetName: joinTargetNames(names),
    detail: {
      devices: ids.length,
      allocateInfos: entries.map((e) => ({ id: e.targetId, type: e.targetType, deptDataType: e.deptDataType })),
    },
  });
  return { devices: ids.length, errors: [] };
}

/** The import template: one column of device numbers under a header in the caller's language. */
export async function shareTemplate(ctx: CallContext): Promise<FileAnswer> {
  const lang = isLocale(ctx.language) ? ctx.language : 'zh-CN';
  const { default: ExcelJS } = await import('exceljs');
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet(GroupText.templateSheet[lang]);
  sheet.columns = [{ header: GroupText.templateHeader[lang], width: 28 }];
  sheet.getRow(1).font = { bold: true };
  sheet.getColumn(1).numFmt = '@';
  const data = Buffer.from(await workbook.xlsx.writeBuffer());
  return {
    fileName: `${GroupText.templateFile[lang]}.xlsx`,
    contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    data,
  };
}
