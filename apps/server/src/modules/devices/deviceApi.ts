import { ErrorCode, errorMessage, findUnsafeValue, issueMessage } from '@marquee/protocol';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { AppError } from '../../protocol/appError.js';
import { messages } from '../../protocol/messages.js';
import { errorEnvelope } from '../../protocol/pipeline.js';

/**
 * What the player's HTTP calls share (docs/device-protocol.md 2): bodies checked as the
 * console's calls are, INVALID_PARAMS naming the field, and framework refusals (a body over
 * the limit) answered with the envelope, never Fastify's bare JSON error.
 */

/** Marker the device API's content-type parsers yield for a body that is not JSON. */
export const NOT_JSON: unique symbol = Symbol('not json');

/** The language of a player's call: its `accept-language` header's first tag. */
export function deviceLanguage(request: FastifyRequest): string | undefined {
  const header = request.headers['accept-language'];
  return typeof header === 'string' ? header.split(',')[0]?.trim() : undefined;
}

/**
 * The body of a player's call read by `schema`; INVALID_PARAMS naming the first bad field
 * (`body` when it is not JSON; a NUL or lone surrogate anywhere; the schema's first issue).
 */
export function parseDeviceBody<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  if (typeof body === 'symbol') throw new AppError(ErrorCode.INVALID_PARAMS, messages.invalidParams('body', 'json'));
  const unsafe = findUnsafeValue(body ?? {});
  if (unsafe) throw new AppError(ErrorCode.INVALID_PARAMS, messages.invalidParams(unsafe.path, unsafe.reason));
  const parsed = schema.safeParse(body ?? {});
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new AppError(
    ErrorCode.INVALID_PARAMS,
    messages.invalidParams(issueField(parsed.error, 'body'), issueMessage(issue)),
  );
}

/** The dotted path of a schema failure's first issue (`player.version`, `events.0.id`), or `root`. */
export function issueField(error: z.ZodError, root = 'payload'): string {
  const issue = error.issues[0];
  let path = issue ? issue.path.map(String).join('.') : '';
  if (issue?.code === 'unrecognized_keys') path = [path, ...issue.keys].filter(Boolean).join('.');
  return path || root;
}

/**
 * The error handler of a device API scope: a client error raised before the handler (a body
 * over `bodyLimit` bytes, a malformed request) answers INVALID_PARAMS naming the body, and
 * anything else SERVER_ERROR (logged), both as the envelope with HTTP 200 like every answer.
 */
export function deviceApiErrorHandler(bodyLimit: number) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const lang = deviceLanguage(request);
    if (typeof error.statusCode === 'number' && error.statusCode < 500) {
      const reason = error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' ? `> ${bodyLimit} bytes` : (error.code ?? 'invalid');
      const refusal = new AppError(ErrorCode.INVALID_PARAMS, messages.invalidParams('body', reason));
      return reply.code(200).send(errorEnvelope(refusal.code, refusal.messageFor(lang)));
    }
    request.log.error({ err: error }, 'device call failed');
    return reply.code(200).send(errorEnvelope(ErrorCode.SERVER_ERROR, errorMessage(ErrorCode.SERVER_ERROR, lang)));
  };
}

/**
 * A device API scope taking JSON bodies up to `bodyLimit` bytes: a body that is not JSON reaches
 * the handler as NOT_JSON (parseDeviceBody refuses it naming `body`), and a refusal before the
 * handler answers the envelope (deviceApiErrorHandler).
 */
export function acceptDeviceJson(api: FastifyInstance, bodyLimit: number): void {
  api.removeAllContentTypeParsers();
  api.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit }, (_req, body, done) => {
    try {
      done(null, body === '' ? {} : JSON.parse(body as string));
    } catch {
      done(null, NOT_JSON);
    }
  });
  api.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit }, (_req, _body, done) => done(null, NOT_JSON));
  // A body over the limit answers the envelope (INVALID_PARAMS naming the body), not Fastify's 413.
  api.setErrorHandler(deviceApiErrorHandler(bodyLimit));
}

/**
 * Answers a player's call with the envelope: `run`'s result as the payload, an AppError as its
 * code and message in the call's language, anything else SERVER_ERROR (logged as `what`).
 */
export async function deviceEnvelope(
  request: FastifyRequest,
  reply: FastifyReply,
  what: string,
  run: () => Promise<unknown>,
) {
  const lang = deviceLanguage(request);
  try {
    const payload = await run();
    return reply
      .header('cache-control', 'no-store')
      .send({ code: 0, message: errorMessage(ErrorCode.OK, lang), payload });
  } catch (error) {
    if (error instanceof AppError) return reply.send(errorEnvelope(error.code, error.messageFor(lang)));
    request.log.error({ err: error }, what);
    return reply.send(errorEnvelope(ErrorCode.SERVER_ERROR, errorMessage(ErrorCode.SERVER_ERROR, lang)));
  }
}
