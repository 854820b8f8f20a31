import { randomUUID } from 'node:crypto';
import { type Readable, Transform } from 'node:stream';
import {
  ErrorCode,
  errorMessage,
  MAX_SCREENSHOT_BYTES,
  SCREENSHOT_CONTENT_TYPES,
  SCREENSHOT_UPLOAD_PATH,
} from '@marquee/protocol';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { deviceCommands, deviceScreenshots, devices } from '../../db/schema/index.js';
import { AppError } from '../../protocol/appError.js';
import { errorEnvelope } from '../../protocol/pipeline.js';
import type { AppServices } from '../../services.js';
import { enterpriseKey, extensionOf, FileTooLargeError } from '../../storage/storage.js';
import { matchesHash } from '../devices/repository.js';
import { SNIFF_BYTES, sniffImage } from './image.js';
import { ScreenshotText } from './texts.js';

function language(request: FastifyRequest): string | undefined {
  const header = request.headers['accept-language'];
  return typeof header === 'string' ? header.split(',')[0]?.trim() : undefined;
}

/**
 * The device whose credentials an `Authorization: Basic` header carries (username = device
 * id), or DEVICE_AUTH_FAILED: no header, a wrong password, a device not activated or disabled.
 */
export async function authenticateDevice(services: AppServices, header: string | undefined) {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(header ?? '');
  const decoded = match ? Buffer.from(match[1], 'base64').toString('utf8') : '';
  const colon = decoded.indexOf(':');
  const deviceId = colon > 0 ? decoded.slice(0, colon) : '';
  const password = colon > 0 ? decoded.slice(colon + 1) : '';
  if (!deviceId || !password || deviceId.length > 64) throw new AppError(ErrorCode.DEVICE_AUTH_FAILED);
  const [device] = await services.db
    .select({ id: devices.id, entId: devices.entId, status: devices.status, secretHash: devices.secretHash })
    .from(devices)
    .where(eq(devices.id, deviceId));
  if (!device || device.status === 'invalid' || !matchesHash(password, device.secretHash)) {
    throw new AppError(ErrorCode.DEVICE_AUTH_FAILED);
  }
  return device;
}

/** Keeps the first `max` bytes passing through (to sniff the image while it streams to storage). */
function headTap(max: number): { stream: Transform; head: () => Buffer } {
  const chunks: Buffer[] = [];
  let kept = 0;
  const stream = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      if (kept < max) {
        chunks.push(chunk.subarray(0, max - kept));
        kept += Math.min(chunk.length, max - kept);
      }
      callback(null, chunk);
    },
  });
  return { stream, head: () => Buffer.concat(chunks) };
}

/**
 * Stores a screenshot a device uploads for one of its own open `screenshot` commands
 * (docs/device-protocol.md 2.5): streamed to storage with the size limit, its type and size
 * read from the content, one screenshot per command (a retry gets the first answer).
 */
async function uploadScreenshot(services: AppServices, request: FastifyRequest, body: Readable) {
  const device = await authenticateDevice(services, request.headers.authorization);
  const commandId = (request.params as { commandId: string }).commandId;
  if (commandId.length > 64) throw new AppError(ErrorCode.NOT_FOUND, ScreenshotText.commandNotFound);
  const [command] = await services.db
    .select()
    .from(deviceCommands)
    .where(
      and(
        eq(deviceCommands.id, commandId),
        eq(deviceCommands.deviceId, device.id),
        eq(deviceCommands.kind, 'screenshot'),
      ),
    );
  if (!command) throw new AppError(ErrorCode.NOT_FOUND, ScreenshotText.commandNotFound);
  const [existing] = await services.db
    .select()
    .from(deviceScreenshots)
    .where(eq(deviceScreenshots.commandId, command.id));
  const answerOf = (row: typeof deviceScreenshots.$inferSelect) => ({
    screenshotId: row.id,
    size: row.size,
    width: row.width,
    height: row.height,
  });
  if (existing) return answerOf(existing);
  const now = new Date(services.clock());
  if (!['pending', 'sent'].includes(command.state) || command.expiresAt <= now) {
    throw new AppError(ErrorCode.CONFLICT, ScreenshotText.commandClosed);
  }
  const declared = String(request.headers['content-type'] ?? '')
    .split(';')[0]
    .trim()
    .toLowerCase();
  if (!(SCREENSHOT_CONTENT_TYPES as readonly string[]).includes(declared))
    throw new AppError(ErrorCode.FILE_FORMAT_ERROR);
  const length = Number(request.headers['content-length'] ?? 0);
  if (length > MAX_SCREENSHOT_BYTES) throw new AppError(ErrorCode.FILE_TOO_LARGE);

  const key = enterpriseKey(device.entId, 'screenshots', device.id, `${randomUUID()}.${extensionOf(declared)}`);
  const tap = headTap(SNIFF_BYTES);
  body.pipe(tap.stream);
  body.on('error', (error) => tap.stream.destroy(error));
  let stored: { size: number };
  try {
    stored = await services.files.storage.put(key, tap.stream, {
      contentType: declared,
      maxBytes: MAX_SCREENSHOT_BYTES,
    });
  } catch (error) {
    if (error instanceof FileTooLargeError) throw new AppError(ErrorCode.FILE_TOO_LARGE);
    throw error;
  }
  const image = sniffImage(tap.head());
  if (!image || image.contentType !== declared) {
    await services.files.storage.delete(key);
    throw new AppError(ErrorCode.FILE_FORMAT_ERROR);
  }
  const [row] = await services.db
    .insert(deviceScreenshots)
    .values({
      entId: device.entId,
      deviceId: device.id,
      commandId: command.id,
      fileKey: key,
      contentType: image.contentType,
      size: stored.size,
      width: image.width,
      height: image.height,
      // The server's own commands (the timed job) have no account.
      trigger: command.accountId ? 'manual' : 'timed',
      takenAt: now,
      createdAt: now,
    })
    .onConflictDoNothing({ target: deviceScreenshots.commandId })
    .returning();
  if (row) return answerOf(row);
  // Two uploads of one command at once: the first row stands, this file goes.
  await services.files.storage.delete(key);
  const [first] = await services.db.select().from(deviceScreenshots).where(eq(deviceScreenshots.commandId, command.id));
  return answerOf(first);
}

/** The player's screenshot upload call, in its own scope: the body is streamed, never parsed. */
export async function registerScreenshotUpload(app: FastifyInstance, services: AppServices): Promise<void> {
  await app.register(async (api) => {
    api.removeAllContentTypeParsers();
    api.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
    api.post(SCREENSHOT_UPLOAD_PATH, async (request: FastifyRequest, reply: FastifyReply) => {
      const lang = language(request);
      const body = (request.body as Readable | undefined) ?? request.raw;
      try {
        const payload = await uploadScreenshot(services, request, body);
        return reply.send({ code: 0, message: errorMessage(ErrorCode.OK, lang), payload });
      } catch (error) {
        // What was not read is not wanted: close the connection after the answer.
        if (!request.raw.readableEnded) reply.header('connection', 'close');
        if (error instanceof AppError) return reply.send(errorEnvelope(error.code, error.messageFor(lang)));
        request.log.error({ err: error }, 'screenshot upload failed');
        return reply.send(errorEnvelope(ErrorCode.SERVER_ERROR, errorMessage(ErrorCode.SERVER_ERROR, lang)));
      }
    });
  });
}
