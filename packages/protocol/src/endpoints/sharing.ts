import { z } from 'zod';
import { ErrorCode } from '../errors.js';
import { Perm } from '../permissions.js';
import { REF_TYPES, RefType } from '../refTypes.js';
import { empty, endpoint, ok } from './common.js';

/**
 * Data sharing (spec sections 4 and 7: the permission dialog's four calls). The calls are generic over ref-types
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
} as const;
