import { z } from 'zod';
import { ErrorCode } from '../errors.js';
import { Perm } from '../permissions.js';
import { loginAccountSchema, loginPasswordSchema } from '../validation.js';
import { empty, endpoint, loginResponseSchema, noticeSchema, ok, optionSchema, userInfoSchema } from './common.js';

/** The foundation's calls: session, header (notices, station letters, departments). */
export const foundationEndpoints = {
  login: endpoint({
    name: 'auth.login',
    path: '/api/auth/login.shtm',
    errors: [ErrorCode.ACCOUNT_PAUSED, ErrorCode.LOGIN_FAILED, ErrorCode.RATE_LIMITED],
    auth: 'public',
    mutation: true,
    request: z.object({ loginName: loginAccountSchema, password: loginPasswordSchema }),
    response: loginResponseSchema,
  }),
  logout: endpoint({
    name: 'auth.logout',
    path: '/api/auth/logout.shtm',
    auth: 'session',
    allowDuringPasswordChange: true,
    mutation: true,
    request: empty,
    response: ok,
  }),
  authInfo: endpoint({
    name: 'auth.info',
    path: '/api/auth/info.shtm',
    auth: 'session',
    unscoped: "the caller's own session and menu",
    allowDuringPasswordChange: true,
    request: empty,
    response: userInfoSchema,
  }),
  noticeList: endpoint({
    name: 'notice.list',
    path: '/api/notice/list.shtm',
    auth: 'session',
    scope: { object: 'notice', kind: 'list', audience: 'tenant' },
    request: z.object({
      page: z.number().int().min(1).default(1),
      size: z.number().int().min(1).max(100).default(10),
      pushPlatform: z.number().int().min(1).max(9).default(1),
    }),
    response: z.object({ total: z.number(), data: z.array(noticeSchema) }),
  }),
  monitorApply: endpoint({
    name: 'notice.monitorApply',
    path: '/api/notice/monitorApply.shtm',
    errors: [ErrorCode.CONFLICT, ErrorCode.NOT_FOUND],
    auth: 'session',
    permission: Perm.notice,
    mutation: true,
    request: z.object({ noticeId: z.string().min(1), status: z.union([z.literal(0), z.literal(1)]) }),
    response: ok,
  }),
  stationLetterList: endpoint({
    name: 'stationLetter.list',
    path: '/api/stationLetter/list.shtm',
    auth: 'session',
    scope: { object: 'stationLetter', kind: 'list', audience: 'owner' },
    request: empty,
    response: z.array(z.string()),
  }),
  deptUserList: endpoint({
    name: 'dept.userList',
    path: '/api/dept/userList.shtm',
    auth: 'session',
    unscoped: "the caller's own departments",
    permission: Perm.deptSwitch,
    request: empty,
    response: z.array(optionSchema),
  }),
  // Spec section 7, account and auth: 'change enterprise'. An account that acts for several
  // enterprises (an agent's for its customers, the platform operator's for any) switches the
  // enterprise its session acts in, as it switches department.
  enterpriseOptions: endpoint({
    name: 'auth.enterpriseOptions',
    path: '/api/auth/enterpriseOptions.shtm',
    auth: 'session',
    permission: Perm.userCompanyManage,
    scope: { object: 'enterprise', kind: 'list', audience: 'managed' },
    request: empty,
    response: z.array(optionSchema),
  }),
  changeEnterprise: endpoint({
    name: 'auth.changeEnterprise',
    path: '/api/auth/changeEnterprise.shtm',
    auth: 'session',
    permission: Perm.userCompanyManage,
    mutation: true,
    request: z.object({ entId: z.string().min(1).max(64) }),
    response: userInfoSchema,
  }),
  deptChange: endpoint({
    name: 'dept.change',
    path: '/api/dept/change.shtm',
    errors: [ErrorCode.NOT_FOUND],
    auth: 'session',
    permission: Perm.deptSwitch,
    mutation: true,
    request: z.object({ deptId: z.string().min(1) }),
    response: userInfoSchema,
  }),
} as const;
