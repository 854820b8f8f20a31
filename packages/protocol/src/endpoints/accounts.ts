import { z } from 'zod';
import { ErrorCode } from '../errors.js';
import { Perm } from '../permissions.js';
import {
  emailSchema,
  loginAccountSchema,
  optionalPhoneSchema,
  pageSchema,
  realNameSchema,
  sortFields,
  strongPasswordSchema,
} from '../validation.js';
import { endpoint, ok } from './common.js';

/**
 * Accounts (issue 3): the sub-accounts of an enterprise and their QR invitations. Served by the
 * server's accounts module.
 */

export const ORG_STATUSES = ['enabled', 'paused'] as const;
export const ACCOUNT_TYPES = ['individual', 'enterprise'] as const;
/** The columns the list sorts by on the server (`sort` of its request). */
export const ACCOUNT_SORT_KEYS = ['loginName', 'realName', 'lastLoginAt'] as const;
/** Days an invitation stays valid by default, and at most. */
export const INVITATION_DEFAULT_DAYS = 7;
export const INVITATION_MAX_DAYS = 30;

const id = z.string().min(1).max(64);
const ids = z.array(id).min(1).max(500);
const statusSchema = z.enum(ORG_STATUSES);
const text = (max: number) => z.string().max(max).optional();
const listOf = <T extends z.ZodType>(row: T) => z.object({ total: z.number(), data: z.array(row) });

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

// ---------------------------------------------------------------- catalogue

export const accountEndpoints = {
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
} as const;
