import { z } from 'zod';
import { ErrorCode } from '../errors.js';
import { Perm } from '../permissions.js';
import {
  companyNameSchema,
  contactSchema,
  departmentNameSchema,
  emailSchema,
  loginAccountSchema,
  optionalPhoneSchema,
  pageSchema,
  phoneSchema,
  realNameSchema,
  roleNameSchema,
  socialCreditCodeSchema,
  sortFields,
  strongPasswordSchema,
} from '../validation.js';
import { endpoint, ok, optionSchema } from './common.js';

/**
 * Organisation (issue 3): enterprises (/user/company), accounts with QR invitations,
 * roles with the menu-permission tree (/user/companyRole), departments.
 */

export const ENTERPRISE_KINDS = ['enterprise', 'agent'] as const;
export const ORG_STATUSES = ['enabled', 'paused'] as const;
export const ACCOUNT_TYPES = ['individual', 'enterprise'] as const;
export const DATA_SCOPE_VALUES = ['self', 'dept_and_below', 'dept_only'] as const;
export const ROLE_TYPES = ['admin', 'staff', 'advertiser', 'monitor', 'custom'] as const;
/** The columns each org list sorts by on the server (`sort` of its request). */
export const ENTERPRISE_SORT_KEYS = ['name', 'accountCount', 'createdAt'] as const;
export const ACCOUNT_SORT_KEYS = ['loginName', 'realName', 'lastLoginAt'] as const;
export const ROLE_SORT_KEYS = ['name', 'accountCount', 'createdAt'] as const;
/** Days an invitation stays valid by default, and at most. */
export const INVITATION_DEFAULT_DAYS = 7;
export const INVITATION_MAX_DAYS = 30;

const id = z.string().min(1).max(64);
const ids = z.array(id).min(1).max(500);
const statusSchema = z.enum(ORG_STATUSES);
const text = (max: number) => z.string().max(max).optional();
const listOf = <T extends z.ZodType>(row: T) => z.object({ total: z.number(), data: z.array(row) });

// ---------------------------------------------------------------- enterprises

export const enterpriseSchema = z.object({
  id: z.string(),
  kind: z.enum(['provider', 'enterprise', 'agent']),
  parentId: z.string().nullable(),
  parentName: z.string().nullable(),
  name: z.string(),
  socialCreditCode: z.string().nullable(),
  contact: z.string(),
  phone: z.string(),
  accountType: z.enum(ACCOUNT_TYPES),
  status: statusSchema,
  welcomeSpeech: z.string(),
  adminLoginName: z.string().nullable(),
  accountCount: z.number(),
  createdAt: z.string(),
});
export type EnterpriseRow = z.infer<typeof enterpriseSchema>;

const enterpriseFields = {
  name: companyNameSchema,
  socialCreditCode: socialCreditCodeSchema,
  contact: contactSchema,
  phone: phoneSchema,
  accountType: z.enum(ACCOUNT_TYPES),
};

/** The administrator account created with an enterprise. */
export const enterpriseAdminSchema = z.object({
  loginName: loginAccountSchema,
  password: strongPasswordSchema,
  realName: realNameSchema,
});

// ---------------------------------------------------------------- accounts

export const accountSchema = z.object({
  id: z.string(),
  userNo: z.number(),
  loginName: z.string(),
  realName: z.string(),
  phone: z.string(),
  email: z.string(),
  status: statusSchema,
  accountType: z.enum(ACCOUNT_TYPES),
  isEntAdmin: z.boolean(),
  roles: z.array(z.object({ id: z.string(), name: z.string() })),
  departments: z.array(z.object({ id: z.string(), name: z.string() })),
  currentDeptId: z.string().nullable(),
  lastLoginAt: z.string().nullable(),
  createdAt: z.string(),
});
export type AccountRow = z.infer<typeof accountSchema>;

const accountFields = {
  realName: realNameSchema,
  phone: optionalPhoneSchema,
  email: emailSchema,
  accountType: z.enum(ACCOUNT_TYPES).default('enterprise'),
  roleIds: z.array(id).max(50).default([]),
  /** At least one; the first becomes the current department. */
  deptIds: z.array(id).min(1, 'validation.required').max(50),
};

export const invitationSchema = z.object({
  id: z.string(),
  token: z.string(),
  /** Path of the registration page with the token (the web prefixes its origin). */
  path: z.string(),
  expiresAt: z.string(),
  deptId: z.string().nullable(),
  roleId: z.string().nullable(),
});

/** What the invitee sees before registering (public). */
export const invitationInfoSchema = z.object({
  enterpriseName: z.string(),
  deptName: z.string().nullable(),
  roleName: z.string().nullable(),
  expiresAt: z.string(),
});

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

export const orgEndpoints = {
  // Enterprises: the platform operator manages companies and agent companies; an
  // enterprise administrator reads and edits their own.
  enterpriseList: endpoint({
    name: 'enterprise.list',
    path: '/api/enterprise/list.shtm',
    errors: [ErrorCode.NO_PERMISSION],
    auth: 'session',
    scope: { object: 'enterprise', kind: 'list', audience: 'managed' },
    permission: Perm.userCompanyManage,
    request: pageSchema.extend({
      ...sortFields(ENTERPRISE_SORT_KEYS),
      name: text(100),
      socialCreditCode: text(18),
      kind: z.enum(ENTERPRISE_KINDS).optional(),
      status: statusSchema.optional(),
    }),
    response: listOf(enterpriseSchema),
  }),
  enterpriseDetail: endpoint({
    name: 'enterprise.detail',
    path: '/api/enterprise/detail.shtm',
    errors: [ErrorCode.NOT_FOUND, ErrorCode.NO_PERMISSION],
    auth: 'session',
    scope: { object: 'enterprise', kind: 'detail', audience: 'managed' },
    permission: Perm.userCompany,
    /** Without id: the caller's own enterprise. */
    request: z.object({ id: id.optional() }),
    response: enterpriseSchema,
  }),
  enterpriseAdd: endpoint({
    name: 'enterprise.add',
    path: '/api/enterprise/add.shtm',
    errors: [ErrorCode.CONFLICT, ErrorCode.NO_PERMISSION],
    auth: 'session',
    permission: Perm.userCompanyManage,
    mutation: true,
    request: z.object({ kind: z.enum(ENTERPRISE_KINDS), ...enterpriseFields, admin: enterpriseAdminSchema }),
    response: z.object({ id: z.string(), adminId: z.string() }),
  }),
  enterpriseUpdate: endpoint({
    name: 'enterprise.update',
    path: '/api/enterprise/update.shtm',
    errors: [ErrorCode.CONFLICT, ErrorCode.NOT_FOUND, ErrorCode.NO_PERMISSION],
    auth: 'session',
    permission: Perm.userCompany,
    mutation: true,
    request: z.object({ id, ...enterpriseFields, welcomeSpeech: text(200) }),
    response: ok,
  }),
  enterpriseSetStatus: endpoint({
    name: 'enterprise.setStatus',
    path: '/api/enterprise/setStatus.shtm',
    errors: [ErrorCode.CONFLICT, ErrorCode.NOT_FOUND, ErrorCode.NO_PERMISSION],
    auth: 'session',
    permission: Perm.userCompanyManage,
    mutation: true,
    request: z.object({ id, status: statusSchema }),
    response: ok,
  }),

  // Accounts (sub-accounts) of the caller's enterprise, within the caller's data scope.
  accountList: endpoint({
    name: 'account.list',
    path: '/api/account/list.shtm',
    auth: 'session',
    scope: { object: 'account', kind: 'list' },
    permission: Perm.userCompany,
    request: pageSchema.extend({
      ...sortFields(ACCOUNT_SORT_KEYS),
      loginName: text(64),
      realName: text(64),
      roleId: id.optional(),
      deptId: id.optional(),
      phone: text(32),
      status: statusSchema.optional(),
    }),
    response: listOf(accountSchema),
  }),
  accountDetail: endpoint({
    name: 'account.detail',
    path: '/api/account/detail.shtm',
    errors: [ErrorCode.NOT_FOUND],
    auth: 'session',
    scope: { object: 'account', kind: 'detail' },
    permission: Perm.userCompany,
    request: z.object({ id }),
    response: accountSchema,
  }),
  accountAdd: endpoint({
    name: 'account.add',
    path: '/api/account/add.shtm',
    errors: [ErrorCode.CONFLICT, ErrorCode.NOT_FOUND, ErrorCode.NO_PERMISSION],
    auth: 'session',
    permission: Perm.userAccountManage,
    mutation: true,
    request: z
      .object({
        loginName: loginAccountSchema,
        password: strongPasswordSchema,
        confirmPassword: z.string(),
        ...accountFields,
      })
      .refine((v) => v.password === v.confirmPassword, {
        message: 'validation.passwordConfirm',
        path: ['confirmPassword'],
      }),
    response: z.object({ id: z.string() }),
  }),
  accountUpdate: endpoint({
    name: 'account.update',
    path: '/api/account/update.shtm',
    errors: [ErrorCode.NOT_FOUND, ErrorCode.NO_PERMISSION],
    auth: 'session',
    permission: Perm.userAccountManage,
    mutation: true,
    request: z.object({ id, ...accountFields }),
    response: ok,
  }),
  accountSetStatus: endpoint({
    name: 'account.setStatus',
    path: '/api/account/setStatus.shtm',
    errors: [ErrorCode.CONFLICT, ErrorCode.NOT_FOUND, ErrorCode.NO_PERMISSION],
    auth: 'session',
    permission: Perm.userAccountManage,
    mutation: true,
    request: z.object({ id, status: statusSchema }),
    response: ok,
  }),
  accountResetPassword: endpoint({
    name: 'account.resetPassword',
    path: '/api/account/resetPassword.shtm',
    errors: [ErrorCode.NOT_FOUND, ErrorCode.NO_PERMISSION],
    auth: 'session',
    permission: Perm.userAccountManage,
    mutation: true,
    request: z
      .object({ id, password: strongPasswordSchema, confirmPassword: z.string() })
      .refine((v) => v.password === v.confirmPassword, {
        message: 'validation.passwordConfirm',
        path: ['confirmPassword'],
      }),
    response: ok,
  }),
  accountDelete: endpoint({
    name: 'account.delete',
    path: '/api/account/delete.shtm',
    errors: [ErrorCode.CONFLICT, ErrorCode.NOT_FOUND, ErrorCode.NO_PERMISSION],
    auth: 'session',
    permission: Perm.userAccountManage,
    mutation: true,
    request: z.object({ id }),
    response: ok,
  }),
  accountBatchRoles: endpoint({
    name: 'account.batchRoles',
    path: '/api/account/batchRoles.shtm',
    errors: [ErrorCode.NOT_FOUND, ErrorCode.NO_PERMISSION],
    auth: 'session',
    permission: Perm.userAccountManage,
    mutation: true,
    /** Replaces the roles of every selected account. */
    request: z.object({ ids, roleIds: z.array(id).max(50) }),
    response: ok,
  }),
  accountBatchDepts: endpoint({
    name: 'account.batchDepts',
    path: '/api/account/batchDepts.shtm',
    errors: [ErrorCode.NOT_FOUND, ErrorCode.NO_PERMISSION],
    auth: 'session',
    permission: Perm.userAccountManage,
    mutation: true,
    /** Replaces the departments of every selected account (the first becomes current). */
    request: z.object({ ids, deptIds: z.array(id).min(1).max(50) }),
    response: ok,
  }),

  // QR invitations: the administrator makes a signed, expiring link; the invitee opens
  // /login/register?invite=<token>, the page calls inspect, then accept.
  invitationCreate: endpoint({
    name: 'invitation.create',
    path: '/api/invitation/create.shtm',
    errors: [ErrorCode.NOT_FOUND, ErrorCode.NO_PERMISSION],
    auth: 'session',
    permission: Perm.userAccountManage,
    mutation: true,
    request: z.object({
      deptId: id.nullable().optional(),
      roleId: id.nullable().optional(),
      days: z.number().int().min(1).max(INVITATION_MAX_DAYS).default(INVITATION_DEFAULT_DAYS),
    }),
    response: invitationSchema,
  }),
  invitationInspect: endpoint({
    name: 'invitation.inspect',
    path: '/api/invitation/inspect.shtm',
    errors: [ErrorCode.CONFLICT, ErrorCode.NOT_FOUND],
    auth: 'public',
    request: z.object({ token: z.string().min(1).max(512) }),
    response: invitationInfoSchema,
  }),
  invitationAccept: endpoint({
    name: 'invitation.accept',
    path: '/api/invitation/accept.shtm',
    errors: [ErrorCode.CONFLICT, ErrorCode.NOT_FOUND],
    auth: 'public',
    mutation: true,
    request: z.object({
      token: z.string().min(1).max(512),
      loginName: loginAccountSchema,
      password: strongPasswordSchema,
      realName: realNameSchema,
      phone: optionalPhoneSchema,
    }),
    response: z.object({ loginName: z.string() }),
  }),

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
