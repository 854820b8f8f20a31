import pino, { type DestinationStream, type Logger } from 'pino';

/** Keys whose values never reach the log, at any depth. */
const SECRET_KEY = /token|password|passwd|pwd|authorization|cookie|secret/i;
const REDACTED = '[Redacted]';

/** Copies a log object with every secret-looking key's value replaced (plain objects and arrays only). */
export function redactDeep(value: unknown, depth = 0): unknown {
  if (depth > 8 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => redactDeep(item, depth + 1));
  if (Object.getPrototypeOf(value) !== Object.prototype) return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    out[key] = SECRET_KEY.test(key) ? REDACTED : redactDeep(inner, depth + 1);
  }
  return out;
}

/** A URL without its query string: console calls carry the token in the query. */
export function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}

// Drizzle's query errors append the bound parameters to the message; keep them out of logs.
const stripParams = (text: string | undefined) =>
  text?.replace(/\nparams: [\s\S]*?(?=\n {4}at |$)/, '\nparams: [omitted]');

function serializeError(err: unknown): unknown {
  if (!(err instanceof Error)) return redactDeep(err);
  const cause = err.cause instanceof Error ? err.cause : undefined;
  return {
    type: err.name,
    message: stripParams(err.message),
    stack: stripParams(err.stack),
    code: (err as { code?: unknown }).code,
    ...(cause ? { cause: { type: cause.name, message: cause.message, code: (cause as { code?: unknown }).code } } : {}),
  };
}

/**
 * The process logger: JSON lines, secrets redacted anywhere in a log object, requests
 * serialized without their query string.
 */
export function createLogger(level: string, stream?: DestinationStream): Logger {
  return pino(
    {
      level,
      formatters: { log: (object) => redactDeep(object) as Record<string, unknown> },
      serializers: {
        err: serializeError,
        error: serializeError,
        req: (req: { method?: string; url?: string }) => ({ method: req.method, path: pathOf(req.url ?? '') }),
        res: (res: { statusCode?: number }) => ({ statusCode: res.statusCode }),
      },
    },
    stream,
  );
}
