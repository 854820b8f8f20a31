import {
  buildSignedCall,
  DEFAULT_USER_ID,
  type EndpointName,
  type Endpoints,
  type Envelope,
  ErrorCode,
  endpoints,
  LOGOUT_CODES,
  ORIGIN,
  PLATFORM,
  type Req,
  type Res,
  toQueryString,
} from '@marquee/protocol';
import { currentLocale, tr } from '../i18n';
import { navigate } from '../session/navigation';
import { deviceId, randomUuid, setServerLogout, useSession } from '../session/session';
import { apiBase } from './hosts';
import { showErrorToast } from './notify';

/**
 * The one client every console call goes through (spec section 7, guide "console protocol").
 *
 * A call is a form-encoded POST of `payload=<json with strings trimmed>` to the endpoint's
 * path, with the signed query (appid, sequence, timestamp, token, language, origin, uuid,
 * version, traceKey, sign) and the headers `user-id` and `Platform: 2`. Answers (spec section 8):
 * code 0 gives the payload; -11004/-10008 end the session; other codes toast the server's
 * message (or 'Server Error【code】') and reject with ApiError; HTTP >= 400 goes to /{status}.
 *
 * A mutation whose answer was lost (the connection failed, or a gateway answered 502/503/504)
 * is sent again, at most twice, with the same sequence and payload, signed anew: the server
 * answers a retry with the first call's stored answer, so it never runs twice
 * (docs/protocol.md "Retries"). Reads are not retried here (TanStack Query retries them as
 * new calls).
 */
export type ApiErrorKind = 'server' | 'http' | 'network';

export class ApiError extends Error {
  readonly code: number;
  readonly kind: ApiErrorKind;
  constructor(code: number, message: string, kind: ApiErrorKind = 'server') {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.kind = kind;
  }
}

export interface CallOptions {
  /** No toast on failure (the caller handles or only logs it); logout codes still log out. */
  silent?: boolean;
  signal?: AbortSignal;
}

/** The fetch the client uses; unit tests replace it. */
let fetchImpl: typeof fetch = (...args) => globalThis.fetch(...args);

export function setFetch(next: typeof fetch): void {
  fetchImpl = next;
}

/** The waits before each retry of a mutation whose answer was lost; unit tests shorten them. */
let retryDelays: readonly number[] = [500, 2000];

export function setRetryDelays(next: readonly number[]): void {
  retryDelays = next;
}

/** Gateway answers that mean the call's answer may be lost (the server behind went away). */
const LOST_ANSWER_STATUSES = new Set([502, 503, 504]);

function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

let sequenceCounter = 0;

/** Unique per call and per page load: time, a counter and randomness. */
function nextSequence(): string {
  sequenceCounter = (sequenceCounter + 1) % 1_000_000;
  return `${Date.now().toString(36)}${sequenceCounter.toString(36).padStart(4, '0')}${randomUuid().slice(0, 8)}`;
}

/**
 * The request of one call: URL, headers and body (exported for tests and tooling). A retry
 * passes the first attempt's sequence.
 */
export function prepareCall(name: EndpointName, data: unknown, now: number = Date.now(), sequence = nextSequence()) {
  const def = endpoints[name];
  const session = useSession.getState();
  const { query, body, payload } = buildSignedCall(data, {
    token: session.token || null,
    language: currentLocale(),
    uuid: deviceId(),
    sequence,
    traceKey: randomUuid().replace(/-/g, ''),
    now,
  });
  return {
    url: `${apiBase(ORIGIN)}${def.path}?${toQueryString(query)}`,
    query,
    payload,
    init: {
      method: 'POST',
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded;charset=UTF-8',
        'user-id': session.userId || DEFAULT_USER_ID,
        Platform: PLATFORM,
      },
      body,
      credentials: 'same-origin',
    } satisfies RequestInit,
  };
}

function serverErrorText(code: number, message: string | undefined): string {
  return message?.trim() ? message : tr('errors', 'serverError', { code });
}

/** Handles a non-zero answer code: logout codes end the session; others toast. Always throws. */
function failWithCode(name: EndpointName, code: number, message: string | undefined, silent?: boolean): never {
  const text = serverErrorText(code, message);
  if (LOGOUT_CODES.includes(code)) {
    // Not awaited: logout itself calls auth.logout, whose own -11004 must not wait on itself.
    if (name !== 'logout') void useSession.getState().logout();
  } else if (code === ErrorCode.PASSWORD_CHANGE_REQUIRED) {
    // The server requires the password change first (updatePwd): the guard keeps the user there.
    useSession.setState({ updatePwd: true });
    navigate('/changePassword', { replace: true });
  } else if (!silent) {
    showErrorToast(text);
  }
  throw new ApiError(code, text, 'server');
}

async function send(name: EndpointName, data: unknown, opts: CallOptions): Promise<Response> {
  const def = endpoints[name];
  const retries = def.mutation && !def.download ? retryDelays : [];
  const sequence = nextSequence();
  let res: Response;
  for (let attempt = 0; ; attempt++) {
    const { url, init } = prepareCall(name, data, Date.now(), sequence);
    try {
      res = await fetchImpl(url, { ...init, signal: opts.signal });
    } catch (err) {
      if ((err as { name?: string })?.name === 'AbortError') throw err;
      if (attempt < retries.length) {
        await pause(retries[attempt], opts.signal);
        continue;
      }
      const text = tr('errors', 'network');
      if (!opts.silent) showErrorToast(text);
      throw new ApiError(-1, text, 'network');
    }
    if (!LOST_ANSWER_STATUSES.has(res.status) || attempt >= retries.length) break;
    await pause(retries[attempt], opts.signal);
  }
  if (res.status >= 400) {
    // Spec section 8: HTTP status 400 or above goes to /{status}.
    navigate(`/${res.status}`);
    throw new ApiError(res.status, tr('errors', 'httpStatus', { status: res.status }), 'http');
  }
  return res;
}

function parseEnvelope(text: string): Envelope | null {
  try {
    const value = JSON.parse(text) as Envelope;
    return value && typeof value === 'object' && typeof value.code === 'number' ? value : null;
  } catch {
    return null;
  }
}

/** Calls one endpoint of the catalogue and resolves with its payload. */
export async function call<N extends EndpointName>(
  name: N,
  data: Req<Endpoints[N]>,
  opts: CallOptions = {},
): Promise<Res<Endpoints[N]>> {
  const res = await send(name, data, opts);
  const envelope = parseEnvelope(await res.text());
  if (!envelope) {
    const text = tr('errors', 'badAnswer');
    if (!opts.silent) showErrorToast(text);
    throw new ApiError(-1, text, 'server');
  }
  if (envelope.code !== 0) failWithCode(name, envelope.code, envelope.message, opts.silent);
  const parsed = endpoints[name].response.safeParse(envelope.payload);
  if (!parsed.success) {
    // The server validates its answers too, so this means web and server run different versions.
    console.warn(`[api] ${name}: answer does not match the protocol schema`, parsed.error);
    return envelope.payload as Res<Endpoints[N]>;
  }
  return parsed.data as Res<Endpoints[N]>;
}

// The session (the layer below) ends itself on the server through this client.
setServerLogout(() => call('logout', {}, { silent: true }));

/** The file name of a Content-Disposition header (RFC 6266 `filename*` first). */
export function dispositionFilename(header: string | null): string | undefined {
  if (!header) return undefined;
  const star = /filename\*\s*=\s*([^']*)'[^']*'([^;]+)/i.exec(header);
  if (star) {
    try {
      return decodeURIComponent(star[2].trim().replace(/^"|"$/g, ''));
    } catch {
      // fall through to the plain parameter
    }
  }
  const plain = /filename\s*=\s*("([^"]*)"|[^;]+)/i.exec(header);
  if (!plain) return undefined;
  const value = (plain[2] ?? plain[1]).trim();
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** Saves a blob under a file name through a temporary link. */
export function saveBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.style.display = 'none';
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/**
 * Calls a download endpoint: the file is saved under the server's Content-Disposition name.
 * A JSON answer instead of a file is an error envelope and is handled like `call`'s.
 * Resolves with the saved file name.
 */
export async function download<N extends EndpointName>(
  name: N,
  data: Req<Endpoints[N]>,
  opts: CallOptions & { fallbackName?: string } = {},
): Promise<string> {
  const res = await send(name, data, opts);
  const blob = await res.blob();
  const type = res.headers.get('Content-Type') ?? blob.type;
  if (/application\/json/i.test(type)) {
    // Spec section 8: a download whose reply is JSON is an error answer: same toast.
    const envelope = parseEnvelope(await blob.text());
    if (envelope?.code !== 0) failWithCode(name, envelope?.code ?? -1, envelope?.message, opts.silent);
  }
  const filename = dispositionFilename(res.headers.get('Content-Disposition')) ?? opts.fallbackName ?? 'download';
  saveBlob(blob, filename);
  return filename;
}
