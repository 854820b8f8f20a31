/**
 * The layout rules of spec section 5, checked on the web (editor) and on the server (save) with
 * the same code. `layoutDocumentSchema` is the shape plus these rules: what the server accepts.
 */
import type { z } from 'zod';
import {
  LAYOUT_LIMITS,
  type LayoutComponent,
  type LayoutDocument,
  LIVE_COMPONENT_TYPES,
  layoutDocumentShapeSchema,
} from './schema.js';

export type LayoutRule =
  /** 'delete failed as a layout must keep one page' */
  | 'minPages'
  /** at most 6 live components per layout */
  | 'maxLiveComponents'
  /** only one auto-jump interactive button */
  | 'oneAutoJump'
  /** too many components in the layout */
  | 'maxComponents'
  /** page and component ids are unique in the document */
  | 'uniqueIds'
  /** a button jumps to a page of this layout */
  | 'jumpTarget';

export interface LayoutRuleIssue {
  rule: LayoutRule;
  /** Where in the document (zod-style path). */
  path: (string | number)[];
  /** A key of the package's message table (messages.ts). */
  messageKey: LayoutMessageKey;
}

export type LayoutMessageKey =
  | 'rule.minPages'
  | 'rule.maxLiveComponents'
  | 'rule.oneAutoJump'
  | 'rule.maxComponents'
  | 'rule.uniqueIds'
  | 'rule.jumpTarget';

export function isLiveComponent(c: Pick<LayoutComponent, 'type'>): boolean {
  return LIVE_COMPONENT_TYPES.includes(c.type);
}

export function isAutoJumpButton(c: LayoutComponent): boolean {
  return c.type === 'button' && c.props.autoJump !== null;
}

/** Every component of the document with its page index. */
export function allComponents(
  doc: Pick<LayoutDocument, 'pages'>,
): { page: number; index: number; component: LayoutComponent }[] {
  const out: { page: number; index: number; component: LayoutComponent }[] = [];
  doc.pages.forEach((p, page) => {
    p.components.forEach((component, index) => {
      out.push({ page, index, component });
    });
  });
  return out;
}

export function countLiveComponents(doc: Pick<LayoutDocument, 'pages'>): number {
  return allComponents(doc).filter((e) => isLiveComponent(e.component)).length;
}

/** Checks the cross-field rules; an empty list means the document may be saved. */
export function checkLayoutRules(doc: LayoutDocument): LayoutRuleIssue[] {
  const issues: LayoutRuleIssue[] = [];
  if (doc.pages.length < LAYOUT_LIMITS.minPages) {
    issues.push({ rule: 'minPages', path: ['pages'], messageKey: 'rule.minPages' });
  }
  const entries = allComponents(doc);
  if (entries.length > LAYOUT_LIMITS.maxComponentsTotal) {
    issues.push({ rule: 'maxComponents', path: ['pages'], messageKey: 'rule.maxComponents' });
  }
  const live = entries.filter((e) => isLiveComponent(e.component));
  if (live.length > LAYOUT_LIMITS.maxLiveComponents) {
    const e = live[LAYOUT_LIMITS.maxLiveComponents];
    issues.push({
      rule: 'maxLiveComponents',
      path: ['pages', e.page, 'components', e.index],
      messageKey: 'rule.maxLiveComponents',
    });
  }
  const autoJump = entries.filter((e) => isAutoJumpButton(e.component));
  if (autoJump.length > LAYOUT_LIMITS.maxAutoJumpButtons) {
    const e = autoJump[LAYOUT_LIMITS.maxAutoJumpButtons];
    issues.push({
      rule: 'oneAutoJump',
      path: ['pages', e.page, 'components', e.index, 'props', 'autoJump'],
      messageKey: 'rule.oneAutoJump',
    });
  }
  const pageIds = new Set<string>();
  doc.pages.forEach((p, i) => {
    if (pageIds.has(p.id)) issues.push({ rule: 'uniqueIds', path: ['pages', i, 'id'], messageKey: 'rule.uniqueIds' });
    pageIds.add(p.id);
  });
  const componentIds = new Set<string>();
  for (const e of entries) {
    const c = e.component;
    if (componentIds.has(c.id)) {
      issues.push({
        rule: 'uniqueIds',
        path: ['pages', e.page, 'components', e.index, 'id'],
        messageKey: 'rule.uniqueIds',
      });
    }
    componentIds.add(c.id);
    if (c.type === 'button' && c.props.action.kind === 'jumpPage' && !pageIds.has(c.props.action.pageId)) {
      // pageIds is complete here: pages were all visited above.
      issues.push({
        rule: 'jumpTarget',
        path: ['pages', e.page, 'components', e.index, 'props', 'action', 'pageId'],
        messageKey: 'rule.jumpTarget',
      });
    }
  }
  return issues;
}

/**
 * The saved document: the shape and the rules of spec section 5. Rule violations are zod
 * issues with `params.rule` set, so a caller can map them to its error code.
 */
export const layoutDocumentSchema = layoutDocumentShapeSchema.superRefine((doc, ctx) => {
  for (const issue of checkLayoutRules(doc)) {
    ctx.addIssue({ code: 'custom', path: issue.path, message: issue.messageKey, params: { rule: issue.rule } });
  }
});

/** The first rule a zod error breaks, if the failure is a rule (not the shape). */
export function ruleOfError(error: z.ZodError): LayoutRule | null {
  for (const issue of error.issues) {
    if (issue.code === 'custom') {
      const rule = (issue as { params?: { rule?: LayoutRule } }).params?.rule;
      if (rule) return rule;
    }
  }
  return null;
}

/** The page may be deleted: a layout keeps at least one page ('delete failed as a layout must keep one page'). */
export function canDeletePage(doc: Pick<LayoutDocument, 'pages'>): boolean {
  return doc.pages.length > LAYOUT_LIMITS.minPages;
}

/** The material ids the document refers to (playlists and page backgrounds), unique, in order. */
export function materialIdsOf(doc: Pick<LayoutDocument, 'pages'>): string[] {
  const ids = new Set<string>();
  for (const p of doc.pages) {
    if (p.background.materialId) ids.add(p.background.materialId);
    for (const c of p.components) {
      if (c.type === 'picture' || c.type === 'video' || c.type === 'music') {
        for (const m of c.props.materials) ids.add(m.materialId);
      }
    }
  }
  return [...ids];
}
