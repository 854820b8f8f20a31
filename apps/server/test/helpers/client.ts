import { randomUUID } from 'node:crypto';
import {
  type BuildCallOptions,
  buildSignedCall,
  type CallQuery,
  type EndpointDef,
  type Envelope,
  endpoints,
  type LoginResponse,
  type Res,
  toQueryString,
} from '@marquee/protocol';
import type { FastifyInstance } from 'fastify';
import type { TestClock } from './clock.js';

export interface CallOptions {
  /** Overrides the client's token; null sends the default '-1'. */
  token?: string | null;
  language?: string;
  sequence?: string;
  uuid?: string;
  /** Timestamp of the call (default: the test clock). */
  now?: number;
  app?: BuildCallOptions['app'];
  /** Changes the signed call before it is sent (tampering tests). */
  tamper?: (call: { query: Record<string, string>; body: string }) => { query: Record<string, string>; body: string };
  ip?: string;
  /** The Accept-Encoding header (default: none, so answers come uncompressed). */
  acceptEncoding?: string;
}

export interface CallResult<T> {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  /** The parsed answer (undefined when the body is not JSON, e.g. a download). */
  envelope: Envelope<T>;
  body: string;
  rawPayload: Buffer;
}

let sequence = 0;

/**
 * A console client over app.inject: signs every call as the web client does (protocol's
 * buildSignedCall) with the test clock, and keeps the token after login().
 */
export class ApiClient {
  token: string | null = null;
  readonly uuid: string;
  language: string;
  ip: string;

  constructor(
    private readonly app: FastifyInstance,
    private readonly clock: TestClock,
    options: { language?: string; uuid?: string; ip?: string; token?: string | null } = {},
  ) {
    this.uuid = options.uuid ?? randomUUID();
    this.language = options.language ?? 'en-US';
    this.ip = options.ip ?? '127.0.0.1';
    this.token = options.token ?? null;
  }

  /** Calls a catalogue endpoint (or any def with a path) with `data` as its payload. */
  async call<E extends EndpointDef>(
    def: E,
    data: unknown = {},
    options: CallOptions = {},
  ): Promise<CallResult<Res<E>>> {
    const signed = buildSignedCall(data, {
      token: options.token === undefined ? this.token : options.token,
      language: options.language ?? this.language,
      uuid: options.uuid ?? this.uuid,
      sequence: options.sequence ?? `s${process.pid}-${String(++sequence).padStart(6, '0')}`,
      traceKey: `trace-${sequence}`,
      now: options.now ?? this.clock.now(),
      app: options.app,
    });
    let query: Record<string, string> = { ...(signed.query as CallQuery) };
    let body = signed.body;
    if (options.tamper) ({ query, body } = options.tamper({ query, body }));
    return this.raw({ path: def.path, query, body, ip: options.ip, acceptEncoding: options.acceptEncoding });
  }

  /** Sends a request as given (no signing): for envelope tests. */
  async raw(request: {
    path: string;
    query?: Record<string, string> | string;
    body?: string;
    method?: 'POST' | 'GET';
    contentType?: string | null;
    ip?: string;
    acceptEncoding?: string;
  }): Promise<CallResult<never>> {
    const qs = typeof request.query === 'string' ? request.query : toQueryString((request.query ?? {}) as CallQuery);
    const headers: Record<string, string> = { 'user-id': '86', platform: '2' };
    const contentType = request.contentType === undefined ? 'application/x-www-form-urlencoded' : request.contentType;
    if (contentType) headers['content-type'] = contentType;
    if (request.acceptEncoding) headers['accept-encoding'] = request.acceptEncoding;
    const res = await this.app.inject({
      method: request.method ?? 'POST',
      url: qs ? `${request.path}?${qs}` : request.path,
      headers,
      payload: request.body,
      remoteAddress: request.ip ?? this.ip,
    });
    let envelope: Envelope<never>;
    try {
      envelope = res.json();
    } catch {
      envelope = undefined as unknown as Envelope<never>;
    }
    return { status: res.statusCode, headers: res.headers, envelope, body: res.body, rawPayload: res.rawPayload };
  }

  /** Logs in and keeps the token; throws unless the answer is code 0. */
  async login(loginName: string, password: string): Promise<LoginResponse> {
    const res = await this.call(endpoints.login, { loginName, password }, { token: null });
    if (res.envelope?.code !== 0) throw new Error(`login of ${loginName} failed: ${res.body}`);
    this.token = res.envelope.payload.token;
    return res.envelope.payload;
  }
}
