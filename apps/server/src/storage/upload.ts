import type { Readable } from 'node:stream';
import { ErrorCode, type ErrorCodeValue, errorMessage, type UploadResult } from '@marquee/protocol';
import busboy from 'busboy';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../protocol/appError.js';
import { errorEnvelope } from '../protocol/pipeline.js';
import { type Files, UPLOAD_PATH } from './files.js';
import { FileTooLargeError } from './storage.js';

/** The HTTP status of a refused upload (the body is the `{ code, message, payload }` envelope). */
export function uploadStatus(code: ErrorCodeValue): number {
  switch (code) {
    case ErrorCode.UPLOAD_POLICY_INVALID:
    case ErrorCode.UPLOAD_POLICY_EXPIRED:
    case ErrorCode.NO_PERMISSION:
      return 403;
    case ErrorCode.FILE_TOO_LARGE:
      return 413;
    case ErrorCode.FILE_FORMAT_ERROR:
      return 415;
    case ErrorCode.NOT_FOUND:
      return 404;
    case ErrorCode.CONFLICT:
      return 409;
    case ErrorCode.UPLOAD_FAILED:
      return 503;
    case ErrorCode.SERVER_ERROR:
      return 500;
    default:
      return 400;
  }
}

/** Form fields are small (the policy is the largest, well under this). */
const FIELD_LIMITS = { fields: 24, fieldSize: 16_384, fieldNameSize: 100, files: 1, parts: 40, headerPairs: 100 };

class Incomplete extends Error {}

/**
 * Receives one direct upload: the multipart form's fields, then `file`, which is checked
 * against the signed policy (Files.checkUpload) before a byte is stored and then streamed to
 * storage with the policy's maximum (never held in memory). An upload that breaks off, is
 * too large or too small, or whose callback refuses it leaves no object behind.
 */
function receiveUpload(files: Files, request: FastifyRequest): Promise<UploadResult> {
  const raw = request.raw;
  const body = (request.body as Readable | undefined) ?? raw;
  return new Promise<UploadResult>((resolve, reject) => {
    const type = String(request.headers['content-type'] ?? '').toLowerCase();
    if (!type.startsWith('multipart/form-data')) {
      reject(new AppError(ErrorCode.UPLOAD_MALFORMED));
      return;
    }
    let parser: busboy.Busboy;
    try {
      // Larger buffers than the 16 KiB default: fewer, larger disk writes for big files.
      parser = busboy({
        headers: request.headers,
        limits: FIELD_LIMITS,
        highWaterMark: 1024 * 1024,
        fileHwm: 1024 * 1024,
      });
    } catch {
      reject(new AppError(ErrorCode.UPLOAD_MALFORMED));
      return;
    }
    const fields: Record<string, string> = {};
    let file: Readable | null = null;
    /** The file being stored: errors wait for it, so the answer comes after its cleanup. */
    let storing: Promise<unknown> | null = null;
    let settled = false;
    let cut = false;
    const settle = (error: unknown, result?: UploadResult) => {
      if (settled) return;
      settled = true;
      if (error) reject(error);
      else resolve(result as UploadResult);
    };
    const broken = () => {
      cut = true;
      if (storing) file?.destroy(new Incomplete('upload broke off'));
      else settle(new AppError(ErrorCode.UPLOAD_INCOMPLETE));
    };
    // The client went away (or the body ended early): the file being stored fails, leaving nothing.
    raw.on('close', () => {
      if (!raw.complete) broken();
    });
    parser.on('field', (name, value, info) => {
      if (file) return; // S3 ignores what follows the file
      if (info.valueTruncated || info.nameTruncated) settle(new AppError(ErrorCode.UPLOAD_MALFORMED));
      else fields[name] = value;
    });
    parser.on('file', (name, stream, info) => {
      if (name !== 'file' || file || settled) {
        stream.resume();
        return;
      }
      file = stream;
      // Its failures reach the storage's put (and the flags above); none may go unhandled.
      stream.on('error', () => {});
      storing = store(files, fields, stream, info.mimeType, () => cut).then(
        (result) => settle(null, result),
        (error) => {
          stream.resume();
          settle(error);
        },
      );
    });
    const malformed = () => {
      if (!file) settle(new AppError(ErrorCode.UPLOAD_MALFORMED));
    };
    parser.on('partsLimit', malformed);
    parser.on('fieldsLimit', malformed);
    parser.on('close', malformed);
    parser.on('error', () => {
      // Busboy says the form broke off ('Unexpected end of form') or is not one.
      if (file) broken();
      else malformed();
    });
    body.on('error', broken);
    body.pipe(parser);
  });
}

async function store(
  files: Files,
  fields: Record<string, string>,
  stream: Readable,
  mimeType: string,
  isBroken: () => boolean,
): Promise<UploadResult> {
  const policy = files.checkUpload(fields, mimeType);
  const contentType = (fields['Content-Type'] ?? fields['content-type'] ?? mimeType).split(';')[0].trim().toLowerCase();
  let size: number;
  try {
    ({ size } = await files.storage.put(policy.key, stream, { contentType, maxBytes: policy.max }));
  } catch (error) {
    if (error instanceof FileTooLargeError) throw new AppError(ErrorCode.FILE_TOO_LARGE);
    if (error instanceof Incomplete || isBroken()) throw new AppError(ErrorCode.UPLOAD_INCOMPLETE);
    throw error;
  }
  if (size < policy.min) {
    await files.storage.delete(policy.key);
    throw new AppError(ErrorCode.UPLOAD_FILE_TOO_SMALL);
  }
  let callback: unknown;
  try {
    callback = await files.runCallback(policy.callback, { entId: policy.ent, key: policy.key, size, contentType });
  } catch (error) {
    // The callback refused the file (or failed): it is not kept half-registered.
    await files.storage.delete(policy.key);
    throw error;
  }
  return callback === undefined ? { key: policy.key, size } : { key: policy.key, size, callback };
}

function language(request: FastifyRequest): string | undefined {
  const header = request.headers['accept-language'];
  return typeof header === 'string' ? header.split(',')[0]?.trim() : undefined;
}

/**
 * `POST /upload` of the local back end (docs/ARCHITECTURE.md "Storage"): a direct upload
 * with a policy signed by Files.createUpload, checked the way S3 checks its POST policy.
 * Answers `{ code: 0, message, payload: { key, size, callback? } }` (HTTP 200), or the
 * envelope of the refusal with a 4xx status (uploadStatus).
 */
export async function registerUploadRoute(app: FastifyInstance, files: Files): Promise<void> {
  await app.register(async (api) => {
    api.removeAllContentTypeParsers();
    api.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
    api.post(UPLOAD_PATH, async (request: FastifyRequest, reply: FastifyReply) => {
      const lang = language(request);
      reply.header('cache-control', 'no-store');
      try {
        const payload = await receiveUpload(files, request);
        return reply.send({ code: ErrorCode.OK, message: errorMessage(ErrorCode.OK, lang), payload });
      } catch (error) {
        // What was not read is not wanted: close the connection after the answer.
        if (!request.raw.complete) reply.header('connection', 'close');
        if (error instanceof AppError) {
          return reply.code(uploadStatus(error.code)).send(errorEnvelope(error.code, error.messageFor(lang)));
        }
        request.log.error({ err: error }, 'upload failed');
        return reply
          .code(503)
          .send(errorEnvelope(ErrorCode.UPLOAD_FAILED, errorMessage(ErrorCode.UPLOAD_FAILED, lang)));
      }
    });
  });
}
