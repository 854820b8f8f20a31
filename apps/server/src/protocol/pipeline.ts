import {
  type EndpointDef,
  type Envelope,
  ErrorCode,
  errorMessage,
  FALLBACK_LOCALE,
  findUnsafeValue,
  hasPermission,
  isLocale,
  issueMessage,
  type ValidationMessage,
} from '@marquee/protocol';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { Principal } from '../auth/principal.js';
import type { Executor } from '../db/client.js';
import type { AppServices } from '../services.js';
import { AppError } from './appError.js';
import { insertOperationLog } from './auditLog.js';
import { contentDisposition } from './download.js';
import { languageOf, NOT_A_FORM, readEnvelope, verifyCall } from './envelope.js';
import { type AuditEntry, type CallContext, type Handler, isFileAnswer, TARGET_NAME_MAX } from './handlers.js';
import {
  type CallIdentity,
  callIdentity,
  claimCall,
  findAnswer,
  isStoredAnswer,
  type StoredAnswer,
  storeAnswer,
} from './idempotency.js';
import { messages } from './messages.js';

/** What the per-request log line reports about a console call. */
export interface CallInfo {
  endpoint: string;
  code?: number;
  traceKey?: string;
  accountId?: string;
  /** A mutation's retry answered with the first call's stored envelope (docs/protocol.md "Retries"). */
  retried?: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    callInfo: CallInfo | null;
  }
}

const BODY_LIMIT = 1024 * 1024;

/**
 * Registers every handler as `POST <path>` in an encapsulated scope whose only body format
 * is the console's form encoding; any other body reaches the handler as NOT_A_FORM and is
 * answered BAD_ENVELOPE in the envelope, not with an HTTP error.
 */
export async function registerCalls(app: FastifyInstance, handlers: readonly Handler[], services: AppServices) {
  await app.register(async (api) => {
    api.removeAllContentTypeParsers();
    api.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: BODY_LIMIT },
      (_req, body, done) => done(null, new URLSearchParams(body as string)),
    );
    api.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: BODY_LIMIT }, (_req, _body, done) =>
      done(null, NOT_A_FORM),
    );
    for (const handler of handlers) {
      api.post(handler.def.path, (request, reply) => runCall(handler, request, reply, services));
    }
  });
}

/** The envelope of an error code, in the caller's language. */
export function errorEnvelope(code: number, message: string): Envelope<null> {
  return { code, message, payload: null };
}

/** The first zod issue as its field path and the message of its rule (validation catalogue). */
function describeIssue(error: z.ZodError): { field: string; reason: ValidationMessage } {
  const issue = error.issues[0];
  let path = issue ? issue.path.map(String).join('.') : '';
  if (issue?.code === 'unrecognized_keys') {
    path = [path, ...issue.keys].filter(Boolean).join('.');
  }
  return { field: path || 'payload', reason: issueMessage(issue) };
}

async function runCall(handler: Handler, request: FastifyRequest, reply: FastifyReply, services: AppServices) {
  const def = handler.def;
  const info: CallInfo = { endpoint: def.name };
  request.callInfo = info;
  const language = languageOf(request.query);
  try {
    const { fields, payload } = readEnvelope(request.query, request.body);
    info.traceKey = fields.traceKey.slice(0, 64);
    const now = services.clock();
    // A mutation's sequence names its stored answer (idempotency.ts) instead of a replay-guard
    // row: a retry of it is answered, not refused. Reads keep the replay guard.
    const idempotent = def.mutation === true && !def.download;
    await verifyCall(fields, payload, now, idempotent ? null : services.replay);

    let raw: unknown;
    try {
      raw = JSON.parse(payload);
    } catch {
      throw new AppError(ErrorCode.INVALID_PARAMS, messages.invalidParams('payload', 'json'));
    }
    // Before any schema or query: a NUL or a lone surrogate anywhere (PostgreSQL refuses the
    // first, no encoding holds the second) and absurd nesting are the caller's mistake.
    const unsafe = findUnsafeValue(raw);
    if (unsafe) throw new AppError(ErrorCode.INVALID_PARAMS, messages.invalidParams(unsafe.path, unsafe.reason));
    const parsed = def.request.safeParse(raw);
    if (!parsed.success) {
      const { field, reason } = describeIssue(parsed.error);
      throw new AppError(ErrorCode.INVALID_PARAMS, messages.invalidParams(field, reason));
    }

    let principal: Principal | null = null;
    if (def.auth === 'session') {
      principal = await services.sessions.authenticate(fields.token, now);
      info.accountId = principal.accountId;
      // updatePwd: nothing but the password change (and logout, user info) until it is done.
      if (principal.updatePwd && !def.allowDuringPasswordChange) {
        throw new AppError(ErrorCode.PASSWORD_CHANGE_REQUIRED);
      }
      if (def.permission && !hasPermission(principal.permissions, def.permission)) {
        throw new AppError(ErrorCode.NO_PERMISSION);
      }
      if (def.notForMonitor && principal.thirdMonitor) throw new AppError(ErrorCode.NO_PERMISSION);
    }

    const result = await execute(handler, parsed.data, {
      def,
      request,
      services,
      principal,
      // Handlers index per-locale tables with it: only a console locale reaches them.
      language: isLocale(fields.language) ? fields.language : FALLBACK_LOCALE,
      traceKey: info.traceKey,
      deviceUuid: fields.uuid,
      now: new Date(now),
      info,
      call: idempotent ? callIdentity(services.secret, fields, payload, def.name, now) : null,
      answerLanguage: fields.language,
    });
    if (isStoredAnswer(result)) {
      info.code = result.code;
      info.retried = true;
      return reply.type('application/json; charset=utf-8').send(result.envelope);
    }
    info.code = ErrorCode.OK;
    if (def.download) {
      if (!isFileAnswer(result)) throw new Error(`${def.name} answered something other than a file`);
      return reply
        .header('content-type', result.contentType)
        .header('content-disposition', contentDisposition(result.fileName))
        .header('cache-control', 'no-store')
        .send(result.data);
    }
    return reply.type('application/json; charset=utf-8').send(okEnvelope(result as CheckedAnswer, fields.language));
  } catch (error) {
    if (error instanceof AppError) {
      info.code = error.code;
      return reply.send(errorEnvelope(error.code, error.messageFor(language)));
    }
    info.code = ErrorCode.SERVER_ERROR;
    request.log.error({ err: error, endpoint: def.name, traceKey: info.traceKey }, 'call failed');
    return reply.send(errorEnvelope(ErrorCode.SERVER_ERROR, errorMessage(ErrorCode.SERVER_ERROR, language)));
  }
}

/**
 * The success envelope, written by hand so a frozen answer's cached JSON can be reused; key
 * order (code first) is what clients and the benchmark's quick check rely on.
 */
function okEnvelope(answer: CheckedAnswer, language: string): string {
  return `{"code":0,"message":${JSON.stringify(errorMessage(ErrorCode.OK, language))},"payload":${answer.json}}`;
}

interface CallState {
  def: EndpointDef;
  request: FastifyRequest;
  services: AppServices;
  principal: Principal | null;
  language: string;
  traceKey: string;
  deviceUuid: string;
  now: Date;
  info: CallInfo;
  /** A mutation's idempotency key and request hash; null for reads and downloads. */
  call: CallIdentity | null;
  /** The language field as sent: the stored envelope's message is the one the first call got. */
  answerLanguage: string;
}

/**
 * Runs the handler: queries on the root database, mutations in one transaction with one log
 * row and, when idempotent, their stored answer (or the earlier call's answer instead).
 */
async function execute(
  handler: Handler,
  input: unknown,
  state: CallState,
): Promise<CheckedAnswer | StoredAnswer | unknown> {
  const { def, services, call } = state;
  const now = state.now.getTime();
  if (!def.mutation) {
    const ctx = makeContext(state, services.db, null);
    const result = await handler.handle(input as never, ctx, undefined);
    return def.download ? result : checkAnswer(def, result);
  }
  if (call && handler.prepare) {
    // prepare's checks (an upload still waiting to be verified) may no longer hold once the
    // first call committed: its answer comes first.
    const stored = await findAnswer(services.db, call, now);
    if (stored) return stored;
  }
  const prepared = handler.prepare
    ? await handler.prepare(input as never, makeContext(state, services.db, null))
    : undefined;
  const committed: (() => void)[] = [];
  const result = await services.db.transaction(async (tx) => {
    if (call) {
      const stored = await claimCall(tx as unknown as Executor, call, now);
      if (stored) return stored;
    }
    const audits = { count: 0 };
    const ctx = makeContext(state, tx as unknown as Executor, { committed, audits });
    const answer = await handler.handle(input as never, ctx, prepared);
    if (audits.count !== 1) throw new Error(`mutation ${def.name} wrote ${audits.count} operation-log rows, not 1`);
    // Checked inside the transaction: a wrong answer is a bug, and its changes roll back.
    if (def.download) return answer;
    const checked = checkAnswer(def, answer);
    if (call)
      await storeAnswer(tx as unknown as Executor, call, ErrorCode.OK, okEnvelope(checked, state.answerLanguage));
    return checked;
  });
  for (const fn of committed) {
    try {
      fn();
    } catch (error) {
      state.request.log.error({ err: error, endpoint: def.name }, 'after-commit hook failed');
    }
  }
  return result;
}

/** A checked answer, serialized. */
interface CheckedAnswer {
  json: string;
}

// Answers a handler froze (cached pages) are checked and serialized once, by identity.
const checkedFrozen = new WeakMap<object, Map<EndpointDef, CheckedAnswer>>();

/** Validates an answer against the endpoint's response schema and serializes the result. */
function checkAnswer(def: EndpointDef, answer: unknown): CheckedAnswer {
  const frozen = answer !== null && typeof answer === 'object' && Object.isFrozen(answer);
  const known = frozen ? checkedFrozen.get(answer)?.get(def) : undefined;
  if (known) return known;
  const checked = def.response.safeParse(answer);
  if (!checked.success) {
    const { field, reason } = describeIssue(checked.error);
    throw new Error(`${def.name} answer fails its response schema at ${field} (${reason})`);
  }
  const result = { json: JSON.stringify(checked.data) ?? 'null' };
  if (frozen) {
    let byDef = checkedFrozen.get(answer);
    if (!byDef) {
      byDef = new Map();
      checkedFrozen.set(answer, byDef);
    }
    byDef.set(def, result);
  }
  return result;
}

function makeContext(
  state: CallState,
  db: Executor,
  mutation: { committed: (() => void)[]; audits: { count: number } } | null,
): CallContext {
  const { request, principal, def } = state;
  return {
    endpoint: def,
    db,
    principal,
    get user(): Principal {
      if (!principal) throw new Error(`${def.name} has no signed-in caller`);
      return principal;
    },
    language: state.language,
    ip: request.ip,
    traceKey: state.traceKey,
    deviceUuid: state.deviceUuid,
    userAgent: request.headers['user-agent'],
    now: state.now,
    log: request.log,
    services: state.services,
    async audit(entry: AuditEntry) {
      if (!mutation) throw new Error(`${def.name} is not a mutation and cannot write the operation log`);
      const actor =
        entry.actor ??
        (principal && { entId: principal.entId, accountId: principal.accountId, loginName: principal.loginName });
      if (!actor) throw new Error(`${def.name} audited without an actor`);
      if (!entry.targetName.trim()) throw new Error(`${def.name} audited a target without its name`);
      mutation.audits.count += 1;
      state.info.accountId ??= actor.accountId;
      await insertOperationLog(db, {
        entId: actor.entId,
        accountId: actor.accountId,
        loginName: actor.loginName,
        module: entry.module,
        action: entry.action,
        targetType: entry.targetType,
        targetId: entry.targetId,
        targetName: entry.targetName.slice(0, TARGET_NAME_MAX),
        detail: entry.detail,
        ip: request.ip,
        traceKey: state.traceKey,
        endpoint: def.name,
        result: entry.result ?? 'success',
        createdAt: state.now,
      });
    },
    afterCommit(fn: () => void) {
      if (mutation) mutation.committed.push(fn);
      else fn();
    },
  };
}
