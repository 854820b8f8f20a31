import { z } from 'zod';
import { ErrorCode } from '../errors.js';
import { Perm } from '../permissions.js';
import { timeZoneSchema } from '../timeZone.js';
import {
  companyNameSchema,
  contactSchema,
  loginAccountSchema,
  pageSchema,
  phoneSchema,
  realNameSchema,
  socialCreditCodeSchema,
  sortFields,
  strongPasswordSchema,
} from '../validation.js';
import { ACCOUNT_TYPES, ORG_STATUSES } from './accounts.js';
import { endpoint, ok } from './common.js';

/**
 * Enterprises (issue 3, /user/company): the platform operator manages companies and agent companies; an
 * enterprise administrator reads and edits their own. Served by the server's enterprise module.
 */

export const ENTERPRISE_KINDS = ['enterprise', 'agent'] as const;
/** The columns the list sorts by on the server (`sort` of its request). */
export const ENTERPRISE_SORT_KEYS = ['name', 'accountCount', 'createdAt'] as const;

const id = z.string().min(1).max(64);
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
  /** The enterprise's IANA time zone (issue 31): its screens' wall clock unless one overrides it. */
  timeZone: z.string(),
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

// ---------------------------------------------------------------- catalogue

export const enterpriseEndpoints = {
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
    /** `timeZone`: default the server's DEFAULT_TIME_ZONE. */
    request: z.object({
      kind: z.enum(ENTERPRISE_KINDS),
      ...enterpriseFields,
      timeZone: timeZoneSchema.optional(),
      admin: enterpriseAdminSchema,
    }),
    response: z.object({ id: z.string(), adminId: z.string() }),
  }),
  enterpriseUpdate: endpoint({
    name: 'enterprise.update',
    path: '/api/enterprise/update.shtm',
    errors: [ErrorCode.CONFLICT, ErrorCode.NOT_FOUND, ErrorCode.NO_PERMISSION],
    auth: 'session',
    permission: Perm.userCompany,
    mutation: true,
    /** `timeZone` absent: unchanged. */
    request: z.object({ id, ...enterpriseFields, welcomeSpeech: text(200), timeZone: timeZoneSchema.optional() }),
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
} as const;
