import { type LayoutDocument, layoutDocumentShapeSchema, type RenderMaterial } from '@marquee/layout/schema';
import type { TemplateInfo, TemplateRow } from '@marquee/protocol';

/** A template row of the page list (protocol shape). */
export function toTemplateRow(row: {
  id: string;
  name: string;
  width: number;
  height: number;
  ownerId: string;
  ownerLogin: string | null;
  ownerReal: string | null;
  deptId: string | null;
  deptName: string | null;
  hasPermission: boolean;
  updatedAt: Date;
  isDefault: boolean;
  version: number;
  firstPage: unknown;
}): TemplateRow {
  const thumb = row.firstPage
    ? layoutDocumentShapeSchema.safeParse({ v: 1, width: row.width, height: row.height, pages: [row.firstPage] })
    : null;
  return {
    id: row.id,
    name: row.name,
    width: row.width,
    height: row.height,
    ownerId: row.ownerId,
    ownerName: row.ownerReal?.trim() || row.ownerLogin || '',
    deptId: row.deptId,
    deptName: row.deptName ?? '',
    hasPermission: row.hasPermission,
    updatedAt: row.updatedAt.toISOString(),
    isDefault: row.isDefault,
    version: row.version,
    thumb: thumb?.success ? thumb.data : null,
  };
}

/** A template with its document and resolved materials (template.info). */
export function toTemplateInfo(
  row: {
    template: {
      id: string;
      name: string;
      width: number;
      height: number;
      version: number;
      isDefault: boolean;
      deptId: string | null;
      updatedAt: Date;
    };
    ownerLogin: string | null;
    ownerReal: string | null;
    deptName: string | null;
    canManage: boolean;
  },
  document: LayoutDocument,
  inUse: boolean,
  materials: Record<string, RenderMaterial>,
): TemplateInfo {
  const t = row.template;
  return {
    id: t.id,
    name: t.name,
    width: document.width,
    height: document.height,
    version: t.version,
    isDefault: t.isDefault,
    hasPermission: row.canManage,
    inUse,
    ownerName: row.ownerReal?.trim() || row.ownerLogin || '',
    deptId: t.deptId,
    deptName: row.deptName ?? '',
    updatedAt: t.updatedAt.toISOString(),
    document,
    materials,
  };
}
