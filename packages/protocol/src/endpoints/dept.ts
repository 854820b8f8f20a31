import { z } from 'zod';
import { ErrorCode } from '../errors.js';
import { Perm } from '../permissions.js';
import { departmentNameSchema } from '../validation.js';
import { endpoint, ok } from './common.js';

/**
 * Departments (issue 3): the department tree of an enterprise. Served by the server's dept module.
 */

const id = z.string().min(1).max(64);

// ---------------------------------------------------------------- departments

/** Department tree node (spec section 3: id, name, child list, disabled). */
export interface DeptNode {
  id: string;
  name: string;
  parentId: string | null;
  disabled: boolean;
  memberCount: number;
  children: DeptNode[];
}
const deptNode: z.ZodType<DeptNode> = z.lazy(() =>
  z.object({
    id: z.string(),
    name: z.string(),
    parentId: z.string().nullable(),
    disabled: z.boolean(),
    memberCount: z.number(),
    children: z.array(deptNode),
  }),
);

export const subDeptSchema = z.object({
  id: z.string(),
  name: z.string(),
  parentId: z.string().nullable(),
  hasChildren: z.boolean(),
});

// ---------------------------------------------------------------- catalogue

export const deptEndpoints = {
  // Departments
  deptTree: endpoint({
    name: 'dept.tree',
    path: '/api/dept/tree.shtm',
    auth: 'session',
    scope: { object: 'department', kind: 'list' },
    permission: `${Perm.userCompany},${Perm.userCompanyRole}`,
    request: z.object({}).strict(),
    response: z.array(deptNode),
  }),
  deptSubList: endpoint({
    name: 'dept.subList',
    path: '/api/dept/subList.shtm',
    errors: [ErrorCode.NOT_FOUND],
    auth: 'session',
    scope: { object: 'department', kind: 'list', parentField: 'parentId' },
    permission: Perm.subDeptList,
    /** Children of `parentId`; without it, of the caller's current department. */
    request: z.object({ parentId: id.optional() }),
    response: z.array(subDeptSchema),
  }),
  deptAdd: endpoint({
    name: 'dept.add',
    path: '/api/dept/add.shtm',
    errors: [ErrorCode.CONFLICT, ErrorCode.NOT_FOUND, ErrorCode.NO_PERMISSION],
    auth: 'session',
    permission: Perm.userDeptManage,
    mutation: true,
    request: z.object({ parentId: id.nullable(), name: departmentNameSchema }),
    response: z.object({ id: z.string() }),
  }),
  deptUpdate: endpoint({
    name: 'dept.update',
    path: '/api/dept/update.shtm',
    errors: [ErrorCode.CONFLICT, ErrorCode.NOT_FOUND],
    auth: 'session',
    permission: Perm.userDeptManage,
    mutation: true,
    request: z.object({ id, name: departmentNameSchema }),
    response: ok,
  }),
  deptMove: endpoint({
    name: 'dept.move',
    path: '/api/dept/move.shtm',
    errors: [ErrorCode.CONFLICT, ErrorCode.NOT_FOUND, ErrorCode.NO_PERMISSION],
    auth: 'session',
    permission: Perm.userDeptManage,
    mutation: true,
    /** parentId null makes it a root department. */
    request: z.object({ id, parentId: id.nullable() }),
    response: ok,
  }),
  deptDelete: endpoint({
    name: 'dept.delete',
    path: '/api/dept/delete.shtm',
    errors: [ErrorCode.CONFLICT, ErrorCode.NOT_FOUND],
    auth: 'session',
    permission: Perm.userDeptManage,
    mutation: true,
    request: z.object({ id }),
    response: ok,
  }),
} as const;
