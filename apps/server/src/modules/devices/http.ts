import { timingSafeEqual } from 'node:crypto';
import { DEVICE_API_PREFIX, deviceHttpCalls, ErrorCode, errorMessage, MAX_POLL_WAIT_MS } from '@marquee/protocol';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError } from '../../protocol/appError.js';
import { errorEnvelope } from '../../protocol/pipeline.js';
import type { AppServices } from '../../services.js';
import { deviceApiErrorHandler, deviceLanguage, NOT_JSON, parseDeviceBody } from './deviceApi.js';
import {
  brokerUrls,
  claimCredentials,
  PAIRING_BOUND_TOPIC,
  pairingWaits,
  pollPairing,
  startPairing,
} from './pairing.js';

/** Largest JSON body of the pairing and status calls (docs/device-protocol.md 2). */
export const BODY_LIMIT = 16 * 1024;
/** Pairing requests one address may make per window (a screen needs one every 15 minutes). */
const PAIRINGS_PER_WINDOW = 30;
const PAIRING_WINDOW_MS = 10 * 60_000;
const MAX_TRACKED_ADDRESSES = 50_000;

/**
 * Counts pairing requests per client address in fixed windows, in memory and bounded (the
 * oldest addresses are forgotten first). Per process: several instances each allow the limit.
 */
export class PairingLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(
    private readonly limit = PAIRINGS_PER_WINDOW,
    private readonly windowMs = PAIRING_WINDOW_MS,
  ) {}

  /** Counts one request of `address` at `now`; false when over the limit. */
  take(address: string, now: number): boolean {
    let entry = this.windows.get(address);
    if (!entry || now - entry.start >= this.windowMs) {
      this.windows.delete(address);
      if (this.windows.size >= MAX_TRACKED_ADDRESSES) {
        const oldest = this.windows.keys().next().value;
        if (oldest !== undefined) this.windows.delete(oldest);
      }
      entry = { start: now, count: 0 };
      this.windows.set(address, entry);
    }
    entry.count++;
    return entry.count <= this.limit;
  }
}

/** The username and password of an HTTP Basic authorization header, or null. */
export function basicCredentials(header: string | undefined): { username: string; password: string } | null {
  const match = /^Basic\s+([A-Za-z0-9+/=]{1,512})$/i.exec(header ?? '');
  if (!match) return null;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0) return null;
  return { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/** Runs one player call: JSON in, the envelope out; bad input is INVALID_PARAMS naming the field, never a server error. */
async function answer<S extends z.ZodType>(
  request: FastifyRequest,
  reply: FastifyReply,
  schema: S,
  run: (input: z.output<S>) => Promise<unknown>,
) {
  const lang = deviceLanguage(request);
  try {
    const payload = await run(parseDeviceBody(schema, request.body));
    return reply.send({ code: 0, message: errorMessage(ErrorCode.OK, lang), payload });
  } catch (error) {
    if (error instanceof AppError) return reply.send(errorEnvelope(error.code, error.messageFor(lang)));
    request.log.error({ err: error }, 'device call failed');
    return reply.send(errorEnvelope(ErrorCode.SERVER_ERROR, errorMessage(ErrorCode.SERVER_ERROR, lang)));
  }
}

/** EMQX HTTP authentication request (its default body template). */
const emqxAuthnSchema = z.object({
  username: z.string().default(''),
  password: z.string().default(''),
  clientid: z.string().default(''),
});
/** EMQX HTTP authorization request: `action` is publish or subscribe. */
const emqxAuthzSchema = z.object({
  username: z.string().default(''),
  clientid: z.string().default(''),
  topic: z.string(),
  action: z.enum(['publish', 'subscribe', 'all']),
});

export const EMQX_AUTHN_PATH = `${DEVICE_API_PREFIX}/broker/emqx/authn`;
export const EMQX_AUTHZ_PATH = `${DEVICE_API_PREFIX}/broker/emqx/authz`;
export const BROKER_SECRET_HEADER = 'x-marquee-broker';

/**
 * The device API (docs/device-protocol.md): the player's pairing calls, and the EMQX HTTP
 * authenticator and authorizer, in their own scope with a JSON body parser.
 */
export async function registerDeviceApi(app: FastifyInstance, services: AppServices) {
  // Held polls (long poll) answer as soon as their pairing is bound on any instance, and all
  // at once when this server stops (before it waits for the requests in flight).
  const waits = pairingWaits(services);
  services.bus.subscribe(PAIRING_BOUND_TOPIC, {
    evict: (_kind, pairingId) => waits.wake(pairingId),
    evictAll: () => waits.wakeAll(),
  });
  app.addHook('preClose', (done) => {
    waits.close();
    done();
  });
  await app.register(async (api) => {
    api.removeAllContentTypeParsers();
    api.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: BODY_LIMIT }, (_req, body, done) => {
      try {
        done(null, body === '' ? {} : JSON.parse(body as string));
      } catch {
        // Not JSON: refused as INVALID_PARAMS naming the body.
        done(null, NOT_JSON);
      }
    });
    api.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: BODY_LIMIT }, (_req, _body, done) =>
      done(null, NOT_JSON),
    );
    // A body over BODY_LIMIT: the envelope (INVALID_PARAMS naming the body), not Fastify's 413.
    api.setErrorHandler(deviceApiErrorHandler(BODY_LIMIT));

    const limiter = new PairingLimiter();
    api.post(deviceHttpCalls.pair.path, (request, reply) =>
      answer(request, reply, deviceHttpCalls.pair.request, (input) => {
        if (!limiter.take(request.ip, services.clock())) throw new AppError(ErrorCode.RATE_LIMITED);
        return startPairing(services, input, request.ip);
      }),
    );
    api.post(deviceHttpCalls.poll.path, (request, reply) => {
      // The player went away (its connection closed before the answer was written): stop
      // holding. Not the request's 'close': that one fires once its body has been read.
      const aborted = new AbortController();
      reply.raw.on('close', () => {
        if (!reply.raw.writableFinished) aborted.abort();
      });
      reply.raw.setTimeout?.(MAX_POLL_WAIT_MS + 10_000);
      return answer(request, reply, deviceHttpCalls.poll.request, async (input) => {
        const result = await pollPairing(services, input, aborted.signal);
        // Released by a stop: the connection closes with the answer, so the stop need not wait for it.
        if (waits.isClosed) reply.header('connection', 'close');
        return result;
      });
    });
    api.post(deviceHttpCalls.credentials.path, (request, reply) =>
      answer(request, reply, deviceHttpCalls.credentials.request, (input) =>
        claimCredentials(services, input, brokerUrls(services, request), request.ip),
      ),
    );

    // A player refused by the broker asks why (HTTP Basic with its MQTT credentials).
    api.post(deviceHttpCalls.status.path, (request, reply) =>
      answer(request, reply, deviceHttpCalls.status.request, async () => {
        const basic = basicCredentials(request.headers.authorization);
        if (!basic) throw new AppError(ErrorCode.DEVICE_REMOVED);
        const state = await services.devices.access.credentialStatus(basic.username, basic.password);
        if (state.status === 'removed') throw new AppError(ErrorCode.DEVICE_REMOVED);
        if (state.status === 'disabled') throw new AppError(ErrorCode.DEVICE_DISABLED);
        return { status: 'active' as const, name: state.name };
      }),
    );

    // EMQX calls these as the broker: {"result": "allow" | "deny"} (HTTP 200 either way).
    const brokerAllowed = (request: FastifyRequest) => {
      const secret = services.config.mqtt.httpAuthSecret;
      if (!secret) return true;
      const given = Buffer.from(String(request.headers[BROKER_SECRET_HEADER] ?? ''));
      const expected = Buffer.from(secret);
      return given.length === expected.length && timingSafeEqual(given, expected);
    };
    api.post(EMQX_AUTHN_PATH, async (request, reply) => {
      const body = emqxAuthnSchema.safeParse(request.body ?? {});
      if (!brokerAllowed(request) || !body.success) return reply.send({ result: 'deny' });
      const role = await services.devices.access.authenticate(
        body.data.username,
        body.data.password,
        body.data.clientid,
      );
      return reply.send(role ? { result: 'allow', is_superuser: role === 'internal' } : { result: 'deny' });
    });
    api.post(EMQX_AUTHZ_PATH, async (request, reply) => {
      const body = emqxAuthzSchema.safeParse(request.body ?? {});
      if (!brokerAllowed(request) || !body.success) return reply.send({ result: 'deny' });
      const { username, clientid, topic, action } = body.data;
      const access = services.devices.access;
      const internal = username === access.internal.username;
      // A device's client id is its username (checked at connection; checked again here).
      if (!internal && clientid !== username) return reply.send({ result: 'deny' });
      const allowed =
        action === 'all'
          ? (await access.authorizeLive(username, 'publish', topic)) && access.authorize(username, 'subscribe', topic)
          : await access.authorizeLive(username, action, topic);
      return reply.send({ result: allowed ? 'allow' : 'deny' });
    });
  });
}
