import {
  CUSTOM_FIELDS_MAX,
  type CustomField,
  type CustomFieldType,
  type CustomFieldValues,
  checkCustomValue,
  ErrorCode,
} from '@marquee/protocol';
import { and, asc, count, eq, sql } from 'drizzle-orm';
import { deviceCustomFields, devices } from '../../db/schema/index.js';
import { AppError, type LocalizedText } from '../../protocol/appError.js';
import type { CallContext } from '../../protocol/handlers.js';
import { noPermission } from '../org/messages.js';

// Device custom fields (issue 31; protocol endpoints/customFields.ts): an enterprise's
// definitions, and the one check of a device's values against them that the form's update,
// the Excel import and the definitions' own edits use.

type Executor = CallContext['db'];
export type CustomFieldDef = typeof deviceCustomFields.$inferSelect;

const text = (zh: string, en: string, ja: string): LocalizedText => ({ 'zh-CN': zh, 'en-US': en, ja });

/** The message of a value that does not fit, naming the field (the form, the update, the import's row errors). */
export const CustomFieldText = {
  invalid: (f: Pick<CustomFieldDef, 'label' | 'type' | 'options'>) => {
    switch (f.type) {
      case 'number':
        return text(
          `「${f.label}」须为数字`,
          `"${f.label}" must be a number`,
          `「${f.label}」には数値を入力してください`,
        );
      case 'date':
        return text(
          `「${f.label}」须为日期（YYYY-MM-DD）`,
          `"${f.label}" must be a date (YYYY-MM-DD)`,
          `「${f.label}」には日付（YYYY-MM-DD）を入力してください`,
        );
      case 'option':
        return text(
          `「${f.label}」须为以下选项之一：${f.options.join('、')}`,
          `"${f.label}" must be one of: ${f.options.join(', ')}`,
          `「${f.label}」は次のいずれかにしてください：${f.options.join('、')}`,
        );
      default:
        return text(`「${f.label}」过长`, `"${f.label}" is too long`, `「${f.label}」が長すぎます`);
    }
  },
  required: (f: Pick<CustomFieldDef, 'label'>) =>
    text(`请填写「${f.label}」`, `Fill in "${f.label}"`, `「${f.label}」を入力してください`),
  notFound: text('自定义字段不存在', 'The custom field does not exist', 'カスタム項目が存在しません'),
  adminOnly: text(
    '只有企业管理员可以定义自定义字段',
    'Only the enterprise administrator can define custom fields',
    '企業管理者のみがカスタム項目を定義できます',
  ),
};

/** The enterprise's definitions in their order. */
export async function customFieldDefs(db: Executor, entId: string): Promise<CustomFieldDef[]> {
  return db
    .select()
    .from(deviceCustomFields)
    .where(eq(deviceCustomFields.entId, entId))
    .orderBy(asc(deviceCustomFields.sort), asc(deviceCustomFields.createdAt), asc(deviceCustomFields.key));
}

/** The SQL text of a device's value of `key` (filters, counts). */
export const customValueSql = (key: string) => sql`(${devices.customFields} ->> ${key})`;

/**
 * A device's values after `input` (null clears a key; keys left out are kept), checked
 * against the definitions: a key no field has, a value that does not fit, or a required field
 * left empty is an AppError naming the field. `current` is what the device holds now.
 */
export function mergeCustomValues(
  defs: readonly Pick<CustomFieldDef, 'key' | 'label' | 'type' | 'options' | 'required'>[],
  current: Record<string, string | number>,
  input: CustomFieldValues | undefined,
  options: { checkRequired: boolean } = { checkRequired: true },
): Record<string, string | number> {
  const byKey = new Map(defs.map((d) => [d.key, d]));
  // Values of fields deleted meanwhile are dropped.
  const next: Record<string, string | number> = {};
  for (const [k, v] of Object.entries(current)) if (byKey.has(k)) next[k] = v;
  for (const [k, raw] of Object.entries(input ?? {})) {
    const def = byKey.get(k);
    if (!def) throw new AppError(ErrorCode.CUSTOM_FIELD_VALUE_INVALID, CustomFieldText.notFound);
    if (raw === null || (typeof raw === 'string' && raw.trim() === '')) {
      delete next[k];
      continue;
    }
    // An option a device already holds stays valid though removed from the list (edited elsewhere).
    if (def.type === 'option' && next[k] === raw) continue;
    const checked = checkCustomValue(def, raw);
    if ('error' in checked) throw new AppError(ErrorCode.CUSTOM_FIELD_VALUE_INVALID, CustomFieldText.invalid(def));
    next[k] = checked.value;
  }
  if (options.checkRequired) {
    for (const def of defs) {
      if (def.required && next[def.key] === undefined) {
        throw new AppError(ErrorCode.CUSTOM_FIELD_REQUIRED, CustomFieldText.required(def));
      }
    }
  }
  return next;
}

/** How many devices of the enterprise hold a value of each key. */
async function valueCounts(db: Executor, entId: string, keys: readonly string[]): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const key of keys) {
    const [row] = await db
      .select({ n: count() })
      .from(devices)
      .where(and(eq(devices.entId, entId), sql`${devices.customFields} ? ${key}`));
    out.set(key, Number(row?.n ?? 0));
  }
  return out;
}

const present = (d: CustomFieldDef, deviceCount: number): CustomField => ({
  id: d.id,
  key: d.key,
  label: d.label,
  type: d.type,
  options: d.options,
  required: d.required,
  sort: d.sort,
  showInList: d.showInList,
  deviceCount,
});

export async function listCustomFields(ctx: CallContext): Promise<{ data: CustomField[] }> {
  const defs = await customFieldDefs(ctx.db, ctx.user.entId);
  const counts = await valueCounts(
    ctx.db,
    ctx.user.entId,
    defs.map((d) => d.key),
  );
  return { data: defs.map((d) => present(d, counts.get(d.key) ?? 0)) };
}

function requireWholeEnterprise(ctx: CallContext) {
  if (ctx.user.dataScope !== 'all') throw noPermission(CustomFieldText.adminOnly);
}

async function loadDef(ctx: CallContext, id: string): Promise<CustomFieldDef> {
  const [def] = await ctx.db
    .select()
    .from(deviceCustomFields)
    .where(and(eq(deviceCustomFields.id, id), eq(deviceCustomFields.entId, ctx.user.entId)));
  if (!def) throw new AppError(ErrorCode.NOT_FOUND, CustomFieldText.notFound);
  return def;
}

export async function saveCustomField(
  input: {
    id?: string;
    key: string;
    label: string;
    type: CustomFieldType;
    options: string[];
    required: boolean;
    sort: number;
    showInList: boolean;
  },
  ctx: CallContext,
): Promise<{ id: string }> {
  requireWholeEnterprise(ctx);
  const entId = ctx.user.entId;
  const options = input.type === 'option' ? input.options : [];
  const values = {
    label: input.label,
    type: input.type,
    options,
    required: input.required,
    sort: input.sort,
    showInList: input.showInList,
  };
  if (input.id) {
    const def = await loadDef(ctx, input.id);
    // The key names the stored values: fixed once made.
    if (input.key !== def.key) throw new AppError(ErrorCode.CUSTOM_FIELD_KEY_TAKEN);
    if (input.type !== def.type) {
      const held = (await valueCounts(ctx.db, entId, [def.key])).get(def.key) ?? 0;
      if (held > 0) throw new AppError(ErrorCode.CUSTOM_FIELD_TYPE_LOCKED);
    }
    await ctx.db
      .update(deviceCustomFields)
      .set({ ...values, updatedAt: ctx.now })
      .where(eq(deviceCustomFields.id, def.id));
    await ctx.audit({
      module: 'device',
      action: 'customFieldSave',
      targetType: 'customField',
      targetId: def.id,
      targetName: input.label,
      detail: { key: def.key, ...values },
    });
    return { id: def.id };
  }
  const existing = await customFieldDefs(ctx.db, entId);
  if (existing.some((d) => d.key === input.key)) throw new AppError(ErrorCode.CUSTOM_FIELD_KEY_TAKEN);
  if (existing.length >= CUSTOM_FIELDS_MAX) throw new AppError(ErrorCode.CUSTOM_FIELD_LIMIT);
  const [row] = await ctx.db
    .insert(deviceCustomFields)
    .values({ entId, key: input.key, ...values })
    .returning({ id: deviceCustomFields.id });
  await ctx.audit({
    module: 'device',
    action: 'customFieldSave',
    targetType: 'customField',
    targetId: row.id,
    targetName: input.label,
    detail: { key: input.key, ...values },
  });
  return { id: row.id };
}

/** Deletes a field and clears its values on the enterprise's devices. */
export async function deleteCustomField(input: { id: string }, ctx: CallContext): Promise<{ cleared: number }> {
  requireWholeEnterprise(ctx);
  const def = await loadDef(ctx, input.id);
  const cleared = await ctx.db
    .update(devices)
    .set({ customFields: sql`${devices.customFields} - ${def.key}` })
    .where(and(eq(devices.entId, def.entId), sql`${devices.customFields} ? ${def.key}`))
    .returning({ id: devices.id });
  await ctx.db.delete(deviceCustomFields).where(eq(deviceCustomFields.id, def.id));
  await ctx.audit({
    module: 'device',
    action: 'customFieldDelete',
    targetType: 'customField',
    targetId: def.id,
    targetName: def.label,
    detail: { key: def.key, cleared: cleared.length },
  });
  return { cleared: cleared.length };
}
