import {
  checkLayoutRules,
  createEmptyLayout,
  LAYOUT_LIMITS,
  type LayoutDocument,
  layoutDocumentShapeSchema,
  materialIdsOf,
  parseLayoutDocument,
  upgradeLayoutDocument,
} from '@marquee/layout/schema';
import { ErrorCode, isLocale, layoutRuleErrorCode, RefType, type TemplateInfo } from '@marquee/protocol';
import { AppError } from '../../protocol/appError.js';
import type { CallContext } from '../../protocol/handlers.js';
import { registerStat } from '../home/stats.js';
import { registerShareable } from '../sharing/registry.js';
import { resolveLayoutMaterials } from './materials.js';
import { toTemplateInfo, toTemplateRow } from './presenter.js';
import { templatesInUse } from './references.js';
import {
  countSharedTemplates,
  countVisibleTemplates,
  deleteTemplateRow,
  findVisibleTemplate,
  insertTemplate,
  listTemplates,
  manageableTemplateIds,
  updateTemplateDocument,
  visibleTemplateIds,
} from './repository.js';
import { TemplateText } from './texts.js';

registerShareable({
  refType: RefType.template,
  visibleIds: visibleTemplateIds,
  manageableIds: manageableTemplateIds,
});

// Home page figures (issue 8): the templates the caller's list shows, and those shared with it.
registerStat({ key: 'templates', count: (db, caller) => countVisibleTemplates(db, caller) });
registerStat({ key: 'sharedWithMe', count: (db, caller) => countSharedTemplates(db, caller) });

/** Spec section 7 'Template page list': size, page, name -> payload.data (data-scoped, sharing-aware). */
export async function templatePage(input: { page: number; size: number; name?: string }, ctx: CallContext) {
  const { total, rows } = await listTemplates(ctx.db, ctx.user, input);
  return { total, data: rows.map(toTemplateRow) };
}

/**
 * The stored document of a row, upgraded to the current version; a row from before layouts
 * had documents (or one that no longer parses) reads as an empty layout of its size, so it
 * can be opened and saved again rather than lost.
 */
function storedDocument(row: { document: unknown; width: number; height: number }): LayoutDocument {
  if (row.document) {
    const parsed = parseLayoutDocument(row.document);
    if (parsed.success) return parsed.data;
    const shape = layoutDocumentShapeSchema.safeParse(upgradeLayoutDocument(row.document));
    if (shape.success && shape.data.pages.length > 0) return shape.data;
  }
  return createEmptyLayout({ width: clampSize(row.width), height: clampSize(row.height) });
}

const clampSize = (n: number) =>
  Math.min(LAYOUT_LIMITS.maxSize, Math.max(LAYOUT_LIMITS.minSize, Math.round(n) || 1920));

/** The section 5 rules on a document the request schema already shaped; each broken rule has its code. */
function checkRules(document: LayoutDocument): LayoutDocument {
  const issues = checkLayoutRules(document);
  if (issues.length > 0) throw new AppError(layoutRuleErrorCode(issues[0].rule));
  return document;
}

async function loadVisible(ctx: CallContext, id: string) {
  const row = await findVisibleTemplate(ctx.db, ctx.user, id);
  if (!row) throw new AppError(ErrorCode.NOT_FOUND, TemplateText.notFound);
  return row;
}

/** A template the caller may change: visible, manageable, and not a default layout. */
async function loadEditable(ctx: CallContext, id: string) {
  const row = await loadVisible(ctx, id);
  if (row.template.isDefault) throw new AppError(ErrorCode.LAYOUT_NOT_EDITABLE);
  if (!row.canManage) throw new AppError(ErrorCode.NO_PERMISSION, TemplateText.notManageable);
  return row;
}

/** template.info: the layout with its document and the URLs of its materials. */
export async function templateInfo(input: { id: string }, ctx: CallContext): Promise<TemplateInfo> {
  const row = await loadVisible(ctx, input.id);
  const document = storedDocument(row.template);
  const [used, materials] = await Promise.all([
    templatesInUse(ctx.db, ctx.user.entId, [row.template.id]),
    resolveLayoutMaterials(ctx.db, ctx.user.entId, materialIdsOf(document)),
  ]);
  return toTemplateInfo(row, document, used.has(row.template.id), materials);
}

/** template.save: a new layout in the caller's department, version 1. */
export async function saveTemplate(
  input: { name: string; document: LayoutDocument },
  ctx: CallContext,
): Promise<{ id: string; version: number }> {
  const document = checkRules(input.document);
  const row = await insertTemplate(ctx.db, {
    entId: ctx.user.entId,
    deptId: ctx.user.deptId ?? null,
    ownerId: ctx.user.accountId,
    name: input.name,
    document,
    at: ctx.now,
  });
  await ctx.audit({
    module: 'template',
    action: 'templateSave',
    targetType: 'template',
    targetId: row.id,
    targetName: input.name,
    detail: auditDetail(document),
  });
  return row;
}

/** template.update: a new version, if nobody saved since `expectedVersion` (else LAYOUT_VERSION_CONFLICT). */
export async function updateTemplate(
  input: { id: string; name: string; document: LayoutDocument; expectedVersion: number },
  ctx: CallContext,
): Promise<{ version: number }> {
  const row = await loadEditable(ctx, input.id);
  const document = checkRules(input.document);
  if (row.template.version !== input.expectedVersion) throw new AppError(ErrorCode.LAYOUT_VERSION_CONFLICT);
  const saved = await updateTemplateDocument(ctx.db, {
    id: row.template.id,
    entId: ctx.user.entId,
    name: input.name,
    document,
    expectedVersion: input.expectedVersion,
    at: ctx.now,
  });
  if (!saved) throw new AppError(ErrorCode.LAYOUT_VERSION_CONFLICT);
  await ctx.audit({
    module: 'template',
    action: 'templateUpdate',
    targetType: 'template',
    targetId: row.template.id,
    targetName: input.name,
    detail: {
      ...auditDetail(document),
      version: saved.version,
      before: row.template.name !== input.name ? row.template.name : undefined,
    },
  });
  return saved;
}

/** template.copy: a new layout of the caller from one it can see (default layouts included: that is how they are customised). */
export async function copyTemplate(input: { id: string; name?: string }, ctx: CallContext): Promise<{ id: string }> {
  const row = await loadVisible(ctx, input.id);
  const document = storedDocument(row.template);
  const suffix = TemplateText.copySuffix[isLocale(ctx.language) ? ctx.language : 'zh-CN'];
  const name = input.name ?? `${row.template.name} ${suffix}`.slice(0, 100);
  const copy = await insertTemplate(ctx.db, {
    entId: ctx.user.entId,
    deptId: ctx.user.deptId ?? null,
    ownerId: ctx.user.accountId,
    name,
    document,
    at: ctx.now,
  });
  await ctx.audit({
    module: 'template',
    action: 'templateCopy',
    targetType: 'template',
    targetId: copy.id,
    targetName: name,
    detail: { from: row.template.id, fromName: row.template.name },
  });
  return { id: copy.id };
}

/** template.delete: refused for default layouts and for layouts in use. */
export async function deleteTemplate(input: { id: string }, ctx: CallContext): Promise<null> {
  const row = await loadEditable(ctx, input.id);
  const used = await templatesInUse(ctx.db, ctx.user.entId, [row.template.id]);
  if (used.has(row.template.id)) throw new AppError(ErrorCode.LAYOUT_IN_USE);
  await deleteTemplateRow(ctx.db, ctx.user.entId, row.template.id);
  await ctx.audit({
    module: 'template',
    action: 'templateDelete',
    targetType: 'template',
    targetId: row.template.id,
    targetName: row.template.name,
    detail: { width: row.template.width, height: row.template.height, version: row.template.version },
  });
  return null;
}

function auditDetail(document: LayoutDocument) {
  return {
    width: document.width,
    height: document.height,
    pages: document.pages.length,
    components: document.pages.reduce((n, p) => n + p.components.length, 0),
  };
}
