import { layoutDocumentShapeSchema } from '@marquee/layout/schema';
import { z } from 'zod';
import { ErrorCode } from '../errors.js';
import { Perm } from '../permissions.js';
import { REF_TYPES, RefType } from '../refTypes.js';
import { PAGE_SIZES } from '../validation.js';
import { empty, endpoint, ok } from './common.js';

/**
 * Data sharing (spec sections 4 and 7: the permission dialog's four calls) and the template
 * page list (spec section 2 'Template page'). The calls are generic over ref-types
 * (refTypes.ts); a module whose objects can be shared registers them on the server.
 */

export const refTypeSchema = z.enum(REF_TYPES as unknown as [string, ...string[]]);

/** Department tree node (spec section 3). */
export interface DeptTreeNode {
  id: string;
  name: string;
  children: DeptTreeNode[];
  disabled: boolean;
}
export const deptTreeNodeSchema: z.ZodType<DeptTreeNode> = z.lazy(() =>
  z.object({ id: z.string(), name: z.string(), children: z.array(deptTreeNodeSchema), disabled: z.boolean() }),
);

/** Allocation info (spec section 3). */
export const allocateInfoSchema = z.object({
  /** The department or account shared with. */
  id: z.string(),
  name: z.string(),
  /** Inherited from a parent department or a container: locked in the dialog. */
  isExtends: z.boolean(),
  /** 1 department, 2 account. */
  allocateType: z.union([z.literal(1), z.literal(2)]),
  /** 1 the department and its sub-departments, 2 the department alone (accounts: 2). */
  allocateDeptDataType: z.union([z.literal(1), z.literal(2)]),
  /**
   * Where an inherited entry comes from: the id of the department whose type-1 allocation
   * covers it, or `<refType>:<refId>` of the container shared; null for own entries.
   */
  extendsFrom: z.string().nullable().optional(),
});
export type AllocateInfo = z.infer<typeof allocateInfoSchema>;

/** One entry of a refresh (spec: id, type, dept-data-type). */
export const allocateEntrySchema = z
  .object({
    id: z.string().min(1).max(64),
    type: z.union([z.literal(1), z.literal(2)]),
    deptDataType: z.union([z.literal(1), z.literal(2)]).default(1),
  })
  .strict();
export type AllocateEntry = z.input<typeof allocateEntrySchema>;

/** The template page's default page size (spec section 9). */
export const TEMPLATE_PAGE_SIZE = 20;

export const templateRowSchema = z.object({
  id: z.string(),
  name: z.string(),
  width: z.number(),
  height: z.number(),
  ownerId: z.string(),
  ownerName: z.string(),
  deptId: z.string().nullable(),
  deptName: z.string(),
  /** The caller may share it: the owner, the administrator, or a department-and-below scope covering it. */
  hasPermission: z.boolean(),
  updatedAt: z.string(),
  /** A default layout (issue 11): copied, never edited or deleted. */
  isDefault: z.boolean(),
  version: z.number(),
  /** The layout with its first page only, to draw the row's thumbnail; null before it has a document. */
  thumb: layoutDocumentShapeSchema.nullable(),
});
export type TemplateRow = z.infer<typeof templateRowSchema>;

export const sharingEndpoints = {
  permissionSubAccounts: endpoint({
    name: 'permission.subAccounts',
    path: '/api/permission/subAccounts.shtm',
    auth: 'session',
    scope: { object: 'account', kind: 'list', audience: 'tenant' },
    permission: Perm.dataAllocation,
    request: empty,
    response: z.array(z.object({ id: z.string(), name: z.string() })),
  }),
  permissionDeptTree: endpoint({
    name: 'permission.deptTree',
    path: '/api/permission/deptTree.shtm',
    auth: 'session',
    scope: { object: 'department', kind: 'list', audience: 'tenant' },
    permission: Perm.dataAllocation,
    request: empty,
    response: z.object({
      trees: z.array(deptTreeNodeSchema),
      /** Department id to the ids of all its descendants. */
      deptChildMap: z.record(z.string(), z.array(z.string())),
    }),
  }),
  permissionAllocation: endpoint({
    name: 'permission.allocation',
    path: '/api/permission/allocation.shtm',
    errors: [ErrorCode.NOT_FOUND],
    auth: 'session',
    permission: Perm.dataAllocation,
    // Generic over ref-types; the isolation matrix tries it on templates.
    scope: { object: 'template', kind: 'detail', idField: 'refId', with: { refType: RefType.template } },
    request: z.object({ refType: refTypeSchema, refId: z.string().min(1).max(64) }).strict(),
    response: z.object({ allocateInfos: z.array(allocateInfoSchema) }),
  }),
  permissionRefresh: endpoint({
    name: 'permission.refresh',
    path: '/api/permission/refresh.shtm',
    errors: [ErrorCode.NOT_FOUND, ErrorCode.NO_PERMISSION],
    auth: 'session',
    permission: Perm.dataAllocation,
    mutation: true,
    request: z
      .object({
        refType: refTypeSchema,
        refIds: z.array(z.string().min(1).max(64)).min(1).max(500),
        allocateInfos: z.array(allocateEntrySchema).max(1000),
      })
      .strict(),
    response: ok,
  }),
  templatePage: endpoint({
    name: 'template.page',
    path: '/api/template/page.shtm',
    auth: 'session',
    permission: Perm.template,
    scope: { object: 'template', kind: 'list' },
    request: z
      .object({
        page: z.number().int().min(1).default(1),
        size: z
          .number()
          .int()
          .refine((n) => (PAGE_SIZES as readonly number[]).includes(n))
          .default(TEMPLATE_PAGE_SIZE),
        name: z.string().max(100).optional(),
      })
      .strict(),
    response: z.object({ total: z.number(), data: z.array(templateRowSchema) }),
  }),
} as const;
