import { z } from 'zod';
import type { ErrorCodeValue } from '../errors.js';
import type { MenuItem } from '../routes.js';

/**
 * The endpoint catalogue (guide convention 1): one entry per console call with its name,
 * path, required permission code and the request and response schemas. The server
 * registers its routes from this list and validates both directions; the web calls by entry.
 *
 * `auth`: 'public' needs no token; 'session' needs a valid token. `permission` is checked
 * after authentication with the rules of spec section 6 (see hasPermission).
 */
export interface EndpointDef<Req extends z.ZodType = z.ZodType, Res extends z.ZodType = z.ZodType> {
  name: string;
  path: string;
  auth: 'public' | 'session';
  permission?: string;
  request: Req;
  response: Res;
  /** The answer is a file download, not JSON. */
  download?: boolean;
  /** Writes data: the call runs in one transaction and writes the operation log. */
  mutation?: boolean;
  /** Callable while the account must change its password (updatePwd); others answer PASSWORD_CHANGE_REQUIRED. */
  allowDuringPasswordChange?: boolean;
  /**
   * The call reads enterprise data: which object, and who may see one (`audience`). The
   * isolation matrix (apps/server/test/isolation.test.ts) calls every such endpoint, about
   * one object, as callers of another enterprise, a sibling department, each data scope and
   * without the permission, and fails on any leak. Every session read without a mutation
   * declares either `scope` or `unscoped`.
   */
  scope?: EndpointScope;
  /** Why a session read is outside the isolation matrix (it answers only the caller's own data). */
  unscoped?: string;
  /** Spec section 6: marked for non-monitor users; a third-party monitor gets NO_PERMISSION. */
  notForMonitor?: boolean;
  /**
   * The codes the handler answers besides the pipeline's (CONFLICT, NOT_FOUND...), for the
   * generated reference (docs/endpoints.md); the pipeline's codes follow from the entry.
   */
  errors?: readonly ErrorCodeValue[];
}

/**
 * Who may see an object an endpoint reads (EndpointScope.audience):
 * - `scoped`: guide convention 3 — the enterprise administrator, the owner, the role's data
 *   scope over the object's department, and whoever it was shared with (allocations, or an
 *   advertiser's assignment to staff);
 * - `tenant`: everyone of the object's enterprise who holds the endpoint's permission;
 * - `owner`: only the account it belongs to (its exports, its letters);
 * - `managed`: the enterprise's managing agent and the platform operator (enterprises);
 * - `platform`: only the platform operator's accounts;
 * - `wallet` (issue 26): money and what names it (a wallet, its movements, payment orders,
 *   invoices). An enterprise's wallet: the accounts of its enterprise holding the permission,
 *   except its advertisers; an advertiser's wallet: the advertiser and the enterprise
 *   administrator; every wallet: the platform operator holding yxf_new_finance_manage.
 */
export type Audience = 'scoped' | 'tenant' | 'owner' | 'managed' | 'platform' | 'wallet';

/** What the isolation matrix needs to know of an endpoint that reads enterprise data. */
export interface EndpointScope {
  /** The kind of object read: a fixture of the isolation matrix makes one ('template', 'account', ...). */
  object: string;
  /**
   * `list` answers many (the matrix looks for the object in the answer), `detail` the one named
   * by `idField`, `count` a figure counting such objects (`figure`, a dotted path in the answer):
   * the matrix makes one in a fresh enterprise and expects the figure above 0 exactly for those
   * who may see it, and absent for those without the figure's `permission`.
   */
  kind: 'list' | 'detail' | 'count';
  /** For `count`: where the figure is in the answer ('figures.templates'). */
  figure?: string;
  /** For `count`: the permission the figure needs besides the endpoint's. */
  permission?: string;
  /** The request field naming the object of a `detail` (default `id`). */
  idField?: string;
  /** The request field naming the object's parent, for a list of one parent's children: the caller must see both. */
  parentField?: string;
  /** Fixed fields the request needs besides the id (e.g. the refType of a generic call, a page). */
  with?: Record<string, unknown>;
  /** Default `scoped`. */
  audience?: Audience;
}

export function endpoint<Req extends z.ZodType, Res extends z.ZodType>(
  def: EndpointDef<Req, Res>,
): EndpointDef<Req, Res> {
  return def;
}

export type Req<E> = E extends EndpointDef<infer R, z.ZodType> ? z.input<R> : never;
export type Res<E> = E extends EndpointDef<z.ZodType, infer R> ? z.output<R> : never;

export const empty = z.object({}).strict();
export const ok = z.null();

const menuItem: z.ZodType<MenuItem> = z.lazy(() =>
  z.object({ code: z.string(), url: z.string(), icon: z.string().optional(), children: z.array(menuItem).optional() }),
);

/** What the console keeps of the signed-in user (spec section 3 session state, login response). */
export const userInfoSchema = z.object({
  id: z.string(),
  userId: z.string(),
  /** The enterprise the user acts in (its own, or one it acts for after 'change enterprise'). */
  entId: z.string(),
  entName: z.string(),
  /** The user's own enterprise: differs from entId while acting for another one. */
  homeEntId: z.string(),
  userName: z.string(),
  loginName: z.string(),
  deptId: z.string(),
  deptName: z.string(),
  welcomeSpeech: z.string(),
  logo: z.string(),
  /** The user belongs to the platform provider (fixed welcome text, spec section 2 Header). */
  isYXF: z.boolean(),
  openWxLogin: z.enum(['Y', 'N']),
  thirdMonitorUser: z.boolean(),
  updatePwd: z.boolean(),
  permissionList: z.array(z.string()),
  folderMenuList: z.array(menuItem),
});
export type UserInfo = z.infer<typeof userInfoSchema>;

export const loginResponseSchema = userInfoSchema.extend({
  token: z.string(),
  /** Seconds until the token expires without use. */
  expiresIn: z.number(),
  /** The password does not meet the strength rule: the console shows the weak-password warning. */
  weakPassword: z.boolean(),
});
export type LoginResponse = z.infer<typeof loginResponseSchema>;

export const noticeSchema = z.object({
  id: z.string(),
  type: z.string(),
  title: z.string(),
  content: z.string(),
  createdAt: z.string(),
  /** For system notices with a monitor application: pending, agreed or refused. */
  monitorStatus: z.enum(['pending', 'agreed', 'refused']).nullable(),
});
export type Notice = z.infer<typeof noticeSchema>;

export const optionSchema = z.object({ value: z.string(), label: z.string() });

/** The answer envelope of every JSON call. */
export interface Envelope<T = unknown> {
  code: number;
  message: string;
  payload: T;
}
