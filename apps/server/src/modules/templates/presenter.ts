import type { TemplateRow } from '@marquee/protocol';

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
}): TemplateRow {
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
  };
}
