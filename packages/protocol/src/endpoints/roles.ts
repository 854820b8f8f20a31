import { z } from 'zod';
import { ErrorCode } from '../errors.js';
import { Perm } from '../permissions.js';
import { pageSchema, roleNameSchema, sortFields } from '../validation.js';
import { endpoint, ok, optionSchema } from './common.js';

/**
 * Roles (issue 3, /user/companyRole) with the menu-permission tree. Served by the server's roles module.
 */

export const DATA_SCOPE_VALUES = ['self', 'dept_and_below', 'dept_only'] as const;
export const ROLE_TYPES = ['admin', 'staff', 'advertiser', 'monitor', 'custom'] as const;
/** The columns the list sorts by on the server (`sort` of its request). */
export const ROLE_SORT_KEYS = ['name', 'accountCount', 'createdAt'] as const;

const id = z.string().min(1).max(64);
const text = (max: number) => z.string().max(max).optional();
const listOf = <T extends z.ZodType>(row: T) => z.object({ total: z.number(), data: z.array(row) });

// ---------------------------------------------------------------- roles

export const roleSchema = z.object({
  id: z.string(),
  name: z.string(),
  type: z.string(),
  deptId: z.string().nullable(),
  deptName: z.string().nullable(),
  dataScope: z.enum(DATA_SCOPE_VALUES),
  permissionCodes: z.array(z.string()),
  builtin: z.boolean(),
  accountCount: z.number(),
  createdAt: z.string(),
});
export type RoleRow = z.infer<typeof roleSchema>;

const roleFields = {
  name: roleNameSchema,
  type: z.enum(ROLE_TYPES).default('custom'),
  deptId: id.nullable().optional(),
  dataScope: z.enum(DATA_SCOPE_VALUES),
  permissionCodes: z.array(z.string().max(64)).max(500),
};

/**
 * A node of the menu-permission tree: a section, a page or an action. `title` is an i18n
 * key `namespace:key` (menu titles, or `roles:perm.<code>` for actions).
 */
export interface PermissionNode {
  code: string;
  title: string;
  children?: PermissionNode[];
}
const permissionNode: z.ZodType<PermissionNode> = z.lazy(() =>
  z.object({ code: z.string(), title: z.string(), children: z.array(permissionNode).optional() }),
);

// ---------------------------------------------------------------- catalogue

export const roleEndpoints = {
  // Roles
  roleList: endpoint({
    name: 'role.list',
    path: '/api/role/list.shtm',
    auth: 'session',
    scope: { object: 'role', kind: 'list' },
    permission: Perm.userCompanyRole,
    request: pageSchema.extend({
      ...sortFields(ROLE_SORT_KEYS),
      name: text(64),
      type: z.enum(ROLE_TYPES).optional(),
      deptId: id.optional(),
    }),
    response: listOf(roleSchema),
  }),
  roleDetail: endpoint({
    name: 'role.detail',
    path: '/api/role/detail.shtm',
    errors: [ErrorCode.NOT_FOUND],
    auth: 'session',
    scope: { object: 'role', kind: 'detail' },
    permission: Perm.userCompanyRole,
    request: z.object({ id }),
    response: roleSchema,
  }),
  roleAdd: endpoint({
    name: 'role.add',
    path: '/api/role/add.shtm',
    errors: [ErrorCode.CONFLICT, ErrorCode.NOT_FOUND, ErrorCode.NO_PERMISSION],
    auth: 'session',
    permission: Perm.userRoleManage,
    mutation: true,
    request: z.object(roleFields),
    response: z.object({ id: z.string() }),
  }),
  roleUpdate: endpoint({
    name: 'role.update',
    path: '/api/role/update.shtm',
    errors: [ErrorCode.CONFLICT, ErrorCode.NOT_FOUND, ErrorCode.NO_PERMISSION],
    auth: 'session',
    permission: Perm.userRoleManage,
    mutation: true,
    request: z.object({ id, ...roleFields }),
    response: ok,
  }),
  roleDelete: endpoint({
    name: 'role.delete',
    path: '/api/role/delete.shtm',
    errors: [ErrorCode.CONFLICT, ErrorCode.NOT_FOUND, ErrorCode.NO_PERMISSION],
    auth: 'session',
    permission: Perm.userRoleManage,
    mutation: true,
    request: z.object({ id }),
    response: ok,
  }),
  roleOptions: endpoint({
    name: 'role.options',
    path: '/api/role/options.shtm',
    auth: 'session',
    scope: { object: 'role', kind: 'list' },
    permission: `${Perm.userCompany},${Perm.userCompanyRole}`,
    request: z.object({}).strict(),
    response: z.array(optionSchema),
  }),
  rolePermissionTree: endpoint({
    name: 'role.permissionTree',
    path: '/api/role/permissionTree.shtm',
    auth: 'session',
    unscoped: "the permission catalogue, limited to the caller's own codes",
    permission: Perm.userCompanyRole,
    request: z.object({}).strict(),
    response: z.array(permissionNode),
  }),
} as const;
