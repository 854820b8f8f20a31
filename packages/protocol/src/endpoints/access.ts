import { z } from 'zod';
import { ErrorCode } from '../errors.js';
import { Perm } from '../permissions.js';
import {
  codeTargetSchema,
  companyNameSchema,
  loginAccountSchema,
  loginPasswordSchema,
  mobileSchema,
  PASSWORD_CONFIRM_ISSUE,
  pageSchema,
  passwordsMatch,
  realNameSchema,
  socialCreditCodeSchema,
  strongPasswordSchema,
  verificationCodeSchema,
} from '../validation.js';
import { endpoint, loginResponseSchema, ok } from './common.js';

/** Why a verification code is sent; a code only verifies for its own purpose. */
export const CODE_PURPOSES = ['login', 'register', 'reset_password', 'bind_phone'] as const;
export type CodePurpose = (typeof CODE_PURPOSES)[number];
/**
 * What a message of the sender (SMS, e-mail; the development outbox without a provider) is
 * for: a verification code, or a notice without a code (a warning that opened, an alarm).
 */
export const MESSAGE_PURPOSES = [...CODE_PURPOSES, 'warning', 'alarm'] as const;
export type MessagePurpose = (typeof MESSAGE_PURPOSES)[number];

/** Verification-code rules (documented in docs/protocol.md). */
export const VERIFICATION_RULES = {
  digits: 6,
  ttlSeconds: 300,
  resendSeconds: 60,
  attemptsPerCode: 5,
} as const;

/** Scan-login providers (spec section 2 'Login': WeChat scan, DingTalk scan). */
export const OAUTH_PROVIDERS = ['wechat', 'dingtalk'] as const;
export type OAuthProvider = (typeof OAUTH_PROVIDERS)[number];
const providerSchema = z.enum(OAUTH_PROVIDERS);

/**
 * Where a scan (OAuth2 state) stands: waiting for the scan; scanned and bound to an account
 * (login can complete); scanned but no account is bound ('not registered'); scanned for a
 * bind (bind can complete); the identity is bound to another account; failed at the
 * provider; expired or already used.
 */
export const OAUTH_STATUSES = ['pending', 'ready', 'unbound', 'scanned', 'conflict', 'failed', 'expired'] as const;

const codeSent = z.object({
  /** Seconds the code stays valid. */
  expiresIn: z.number(),
  /** Seconds before another code may be sent to the same target. */
  resendIn: z.number(),
});

const scanStart = z.object({
  /** The signed, single-use state (also a parameter of the authorization URL). */
  state: z.string(),
  /** The provider's authorization URL: shown as a QR code. */
  authorizeUrl: z.string(),
  expiresIn: z.number(),
});

const bindingSchema = z.object({
  provider: providerSchema,
  nickname: z.string(),
  boundAt: z.string(),
});

export const profileSchema = z.object({
  id: z.string(),
  loginName: z.string(),
  realName: z.string(),
  phone: z.string(),
  email: z.string(),
  entName: z.string(),
  departments: z.array(z.object({ id: z.string(), name: z.string() })),
  bindings: z.array(bindingSchema),
  /** Which scan providers the server has configured. */
  providers: z.object({ wechat: z.boolean(), dingtalk: z.boolean() }),
});
export type Profile = z.infer<typeof profileSchema>;

export const outboxMessageSchema = z.object({
  id: z.string(),
  channel: z.enum(['sms', 'email']),
  target: z.string(),
  purpose: z.enum(MESSAGE_PURPOSES),
  /** The code itself ('' for a notice): the development outbox exists so codes can be read without a provider. */
  code: z.string(),
  text: z.string(),
  createdAt: z.string(),
});
export type OutboxMessage = z.infer<typeof outboxMessageSchema>;

const newPassword = { password: strongPasswordSchema, confirmPassword: z.string().max(128) };

/**
 * Every way in (issue 3 "access"): verification codes, code login, company registration,
 * password retrieval, WeChat/DingTalk scan login and binding, the personal centre and the
 * development outbox.
 */
export const accessEndpoints = {
  codeSend: endpoint({
    name: 'verification.send',
    path: '/api/verification/send.shtm',
    errors: [ErrorCode.CONFLICT, ErrorCode.NOT_REGISTERED, ErrorCode.RATE_LIMITED],
    auth: 'public',
    request: z.object({ purpose: z.enum(['login', 'register', 'reset_password']), target: codeTargetSchema }).strict(),
    response: codeSent,
  }),
  codeLogin: endpoint({
    name: 'auth.codeLogin',
    path: '/api/auth/codeLogin.shtm',
    errors: [ErrorCode.ACCOUNT_PAUSED, ErrorCode.CODE_INVALID, ErrorCode.NOT_REGISTERED, ErrorCode.RATE_LIMITED],
    auth: 'public',
    mutation: true,
    request: z.object({ target: codeTargetSchema, code: verificationCodeSchema }).strict(),
    response: loginResponseSchema,
  }),
  register: endpoint({
    name: 'registration.register',
    path: '/api/registration/register.shtm',
    errors: [ErrorCode.ACCOUNT_PAUSED, ErrorCode.CODE_INVALID, ErrorCode.CONFLICT, ErrorCode.RATE_LIMITED],
    auth: 'public',
    mutation: true,
    request: z
      .object({
        companyName: companyNameSchema,
        socialCreditCode: socialCreditCodeSchema,
        loginName: loginAccountSchema,
        ...newPassword,
        phone: mobileSchema,
        code: verificationCodeSchema,
      })
      .strict()
      .refine(passwordsMatch, PASSWORD_CONFIRM_ISSUE),
    response: loginResponseSchema,
  }),
  passwordReset: endpoint({
    name: 'auth.resetPassword',
    path: '/api/auth/resetPassword.shtm',
    errors: [ErrorCode.CODE_INVALID, ErrorCode.NOT_REGISTERED, ErrorCode.RATE_LIMITED],
    auth: 'public',
    mutation: true,
    request: z
      .object({ target: codeTargetSchema, code: verificationCodeSchema, ...newPassword })
      .strict()
      .refine(passwordsMatch, PASSWORD_CONFIRM_ISSUE),
    response: ok,
  }),
  oauthProviders: endpoint({
    name: 'oauth.providers',
    path: '/api/oauth/providers.shtm',
    auth: 'public',
    request: z.object({}).strict(),
    response: z.object({ wechat: z.boolean(), dingtalk: z.boolean() }),
  }),
  oauthStart: endpoint({
    name: 'oauth.start',
    path: '/api/oauth/start.shtm',
    errors: [ErrorCode.FEATURE_NOT_ONLINE],
    auth: 'public',
    request: z.object({ provider: providerSchema }).strict(),
    response: scanStart,
  }),
  oauthPoll: endpoint({
    name: 'oauth.poll',
    path: '/api/oauth/poll.shtm',
    errors: [ErrorCode.NOT_FOUND],
    auth: 'public',
    request: z.object({ state: z.string().min(1).max(200) }).strict(),
    response: z.object({ status: z.enum(OAUTH_STATUSES) }),
  }),
  oauthLogin: endpoint({
    name: 'oauth.login',
    path: '/api/oauth/login.shtm',
    errors: [ErrorCode.ACCOUNT_PAUSED, ErrorCode.CONFLICT, ErrorCode.NOT_REGISTERED],
    auth: 'public',
    mutation: true,
    request: z.object({ state: z.string().min(1).max(200) }).strict(),
    response: loginResponseSchema,
  }),
  oauthBindStart: endpoint({
    name: 'oauth.bindStart',
    path: '/api/oauth/bindStart.shtm',
    errors: [ErrorCode.FEATURE_NOT_ONLINE],
    auth: 'session',
    unscoped: "starts a binding of the caller's own account",
    request: z.object({ provider: providerSchema }).strict(),
    response: scanStart,
  }),
  oauthBind: endpoint({
    name: 'oauth.bind',
    path: '/api/oauth/bind.shtm',
    errors: [ErrorCode.CONFLICT, ErrorCode.NOT_FOUND],
    auth: 'session',
    mutation: true,
    request: z.object({ state: z.string().min(1).max(200) }).strict(),
    response: z.array(bindingSchema),
  }),
  oauthUnbind: endpoint({
    name: 'oauth.unbind',
    path: '/api/oauth/unbind.shtm',
    errors: [ErrorCode.NOT_FOUND],
    auth: 'session',
    mutation: true,
    request: z.object({ provider: providerSchema }).strict(),
    response: z.array(bindingSchema),
  }),
  profileGet: endpoint({
    name: 'profile.get',
    path: '/api/profile/get.shtm',
    errors: [ErrorCode.NOT_FOUND],
    auth: 'session',
    unscoped: "the caller's own profile",
    request: z.object({}).strict(),
    response: profileSchema,
  }),
  profileUpdate: endpoint({
    name: 'profile.update',
    path: '/api/profile/update.shtm',
    errors: [ErrorCode.NOT_FOUND],
    auth: 'session',
    mutation: true,
    request: z
      .object({
        realName: realNameSchema,
        email: z.union([z.literal(''), z.email('validation.email').max(254, 'validation.email')]),
      })
      .strict(),
    response: profileSchema,
  }),
  profilePhoneCode: endpoint({
    name: 'profile.sendPhoneCode',
    path: '/api/profile/sendPhoneCode.shtm',
    errors: [ErrorCode.CONFLICT, ErrorCode.RATE_LIMITED],
    auth: 'session',
    unscoped: 'sends a code to a phone the caller is binding to their own account',
    request: z.object({ phone: mobileSchema }).strict(),
    response: codeSent,
  }),
  profileBindPhone: endpoint({
    name: 'profile.bindPhone',
    path: '/api/profile/bindPhone.shtm',
    errors: [ErrorCode.CODE_INVALID, ErrorCode.CONFLICT, ErrorCode.NOT_FOUND, ErrorCode.RATE_LIMITED],
    auth: 'session',
    mutation: true,
    request: z.object({ phone: mobileSchema, code: verificationCodeSchema }).strict(),
    response: profileSchema,
  }),
  changePassword: endpoint({
    name: 'profile.changePassword',
    path: '/api/profile/changePassword.shtm',
    errors: [ErrorCode.CONFLICT, ErrorCode.LOGIN_FAILED, ErrorCode.RATE_LIMITED],
    auth: 'session',
    mutation: true,
    allowDuringPasswordChange: true,
    request: z
      .object({ oldPassword: loginPasswordSchema, ...newPassword })
      .strict()
      .refine(passwordsMatch, PASSWORD_CONFIRM_ISSUE),
    response: ok,
  }),
  outboxList: endpoint({
    name: 'devOutbox.list',
    path: '/api/devOutbox/list.shtm',
    errors: [ErrorCode.NO_PERMISSION],
    auth: 'session',
    scope: { object: 'outboxMessage', kind: 'list', audience: 'platform' },
    permission: Perm.devOutbox,
    request: pageSchema.extend({ target: z.string().max(254).optional() }).strict(),
    response: z.object({ total: z.number(), data: z.array(outboxMessageSchema) }),
  }),
} as const;
