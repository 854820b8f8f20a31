import { execFile } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { MATERIAL_THUMB_SIZE, type MaterialType } from '@marquee/protocol';
import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import sharp from 'sharp';
import { materials } from '../../db/schema/index.js';
import type { AppServices } from '../../services.js';
import { enterpriseKey } from '../../storage/storage.js';
import { addUsage } from './repository.js';

/**
 * Probing a stored material (issue 10), run by the probe job after verify: images by sharp
 * (size, a 320 px thumbnail stored as a file), video and audio by ffprobe (duration,
 * resolution, codec) and ffmpeg (a poster frame, thumbnailed like an image), PDF pages by
 * counting page objects. The binaries come from @ffmpeg-installer/@ffprobe-installer, whose
 * platform packages ship them in the tarball (no download at install). Whatever fails makes
 * the material 'invalid' with the reason, in one update: never half-made.
 */

const run = promisify(execFile);
const require = createRequire(import.meta.url);

/** Paths of the shipped ffmpeg and ffprobe binaries. */
export function mediaTools(): { ffmpeg: string; ffprobe: string } {
  return {
    ffmpeg: (require('@ffmpeg-installer/ffmpeg') as { path: string }).path,
    ffprobe: (require('@ffprobe-installer/ffprobe') as { path: string }).path,
  };
}

export interface ProbeFacts {
  width: number | null;
  height: number | null;
  duration: number | null;
  codec: string | null;
  pages: number | null;
  /** A 320 px JPEG (image thumbnail or video poster). */
  thumb: Buffer | null;
}

/** Thrown for a file that cannot be what it claims (the material becomes invalid with this reason). */
export class ProbeError extends Error {}

async function thumbnail(input: string | Buffer): Promise<Buffer> {
  return sharp(input, { limitInputPixels: 268_402_689 })
    .rotate()
    .resize(MATERIAL_THUMB_SIZE, MATERIAL_THUMB_SIZE, { fit: 'inside', withoutEnlargement: true })
    .flatten({ background: '#ffffff' })
    .jpeg({ quality: 78 })
    .toBuffer();
}

async function probeImage(path: string): Promise<ProbeFacts> {
  let meta: Awaited<ReturnType<ReturnType<typeof sharp>['metadata']>>;
  try {
    meta = await sharp(path).metadata();
  } catch (error) {
    throw new ProbeError(`image cannot be decoded: ${(error as Error).message}`);
  }
  if (!meta.width || !meta.height) throw new ProbeError('image has no size');
  const swap = (meta.orientation ?? 1) >= 5;
  const thumb = await thumbnail(path).catch((error: Error) => {
    throw new ProbeError(`image cannot be decoded: ${error.message}`);
  });
  return {
    width: swap ? meta.height : meta.width,
    height: swap ? meta.width : meta.height,
    duration: null,
    codec: meta.format ?? null,
    pages: meta.pages ?? null,
    thumb,
  };
}

interface FfprobeStream {
  codec_type?: string;
  codec_name?: string;
  width?: number;
  height?: number;
  duration?: string;
}

async function ffprobe(path: string) {
  const { ffprobe: bin } = mediaTools();
  try {
    const { stdout } = await run(bin, ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', path], {
      maxBuffer: 8 * 1024 * 1024,
      timeout: 60_000,
    });
    return JSON.parse(stdout) as { streams?: FfprobeStream[]; format?: { duration?: string } };
  } catch (error) {
    throw new ProbeError(`media cannot be read: ${String((error as Error).message).slice(0, 200)}`);
  }
}

async function posterFrame(path: string, at: number): Promise<Buffer> {
  const { ffmpeg } = mediaTools();
  const dir = await mkdtemp(join(tmpdir(), 'marquee-poster-'));
  try {
    const out = join(dir, 'poster.png');
    await run(ffmpeg, ['-v', 'error', '-ss', String(at), '-i', path, '-frames:v', '1', '-y', out], {
      timeout: 60_000,
    });
    return await thumbnail(out);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function probeMedia(path: string, type: 'video' | 'audio'): Promise<ProbeFacts> {
  const info = await ffprobe(path);
  const streams = info.streams ?? [];
  const video = streams.find((s) => s.codec_type === 'video');
  const audio = streams.find((s) => s.codec_type === 'audio');
  const duration = Number(info.format?.duration ?? video?.duration ?? audio?.duration ?? Number.NaN);
  if (type === 'video') {
    if (!video?.width || !video.height) throw new ProbeError('video has no picture');
    const seconds = Number.isFinite(duration) ? duration : null;
    const thumb = await posterFrame(path, seconds ? Math.min(1, seconds / 2) : 0).catch(() => null);
    return {
      width: video.width,
      height: video.height,
      duration: seconds,
      codec: video.codec_name ?? null,
      pages: null,
      thumb,
    };
  }
  if (!audio) throw new ProbeError('audio has no sound stream');
  return {
    width: null,
    height: null,
    duration: Number.isFinite(duration) ? duration : null,
    codec: audio.codec_name ?? null,
    pages: null,
    thumb: null,
  };
}

/** Pages of a PDF by counting `/Type /Page` objects (not `/Pages`): cheap, right for unencrypted files. */
async function pdfPages(path: string): Promise<number | null> {
  let pages = 0;
  let tail = '';
  for await (const chunk of createReadStream(path, { encoding: 'latin1', highWaterMark: 1 << 20 })) {
    const text = tail + (chunk as string);
    pages += text.match(/\/Type\s*\/Page(?![s\w])/g)?.length ?? 0;
    // Keep a short tail so a marker split between chunks is seen once (not counted twice: the tail ends before it).
    const cut = Math.max(0, text.length - 16);
    const partial = text.slice(cut);
    tail = /\/Type\s*\/Page(?![s\w])/.test(partial) ? '' : partial;
  }
  return pages > 0 ? pages : null;
}

/** The facts of a stored file of `type` at `path` (throws ProbeError for a bad file). */
export async function probeFile(path: string, type: MaterialType): Promise<ProbeFacts> {
  switch (type) {
    case 'image':
      return probeImage(path);
    case 'video':
    case 'audio':
      return probeMedia(path, type);
    case 'document':
      return {
        width: null,
        height: null,
        duration: null,
        codec: null,
        pages: await pdfPages(path).catch(() => null),
        thumb: null,
      };
    default:
      return { width: null, height: null, duration: null, codec: null, pages: null, thumb: null };
  }
}

/**
 * Probes a 'processing' material and makes it 'ready' (facts, thumbnail or poster stored) or
 * 'invalid' (reason), in one update. Answers the status written, or null when there was
 * nothing to do (gone, or already probed).
 */
export async function probeMaterial(
  services: AppServices,
  materialId: string,
  log: FastifyBaseLogger,
): Promise<'ready' | 'invalid' | null> {
  const [m] = await services.db.select().from(materials).where(eq(materials.id, materialId));
  if (m?.status !== 'processing' || !m.fileKey) return null;
  const files = services.files;
  let thumbKey: string | null = null;
  try {
    const copy = await files.localCopy(m.fileKey);
    let facts: ProbeFacts;
    try {
      facts = await probeFile(copy.path, m.type);
    } finally {
      await copy.release();
    }
    let thumbBytes = 0;
    if (facts.thumb) {
      const key = enterpriseKey(m.entId, 'materials', 'thumbs', `${m.id}.jpg`);
      await files.storage.put(key, Readable.from([facts.thumb]), { contentType: 'image/jpeg' });
      thumbKey = key;
      thumbBytes = facts.thumb.length;
    }
    const updated = await services.db.transaction(async (tx) => {
      const rows = await tx
        .update(materials)
        .set({
          status: 'ready',
          width: facts.width,
          height: facts.height,
          duration: facts.duration,
          codec: facts.codec,
          pages: facts.pages,
          thumbKey: m.type === 'image' ? thumbKey : null,
          posterKey: m.type === 'video' ? thumbKey : null,
          bytes: Number(m.size) + thumbBytes,
          updatedAt: new Date(services.clock()),
        })
        .where(eq(materials.id, m.id))
        .returning({ id: materials.id });
      if (rows.length > 0) await addUsage(tx, m.entId, thumbBytes);
      return rows.length > 0;
    });
    if (!updated && thumbKey) await files.storage.delete(thumbKey);
    return updated ? 'ready' : null;
  } catch (error) {
    if (thumbKey) await files.storage.delete(thumbKey).catch(() => {});
    const reason = error instanceof ProbeError ? error.message : `processing failed: ${(error as Error).message}`;
    log.warn({ err: error, materialId }, 'material probe failed');
    await services.db
      .update(materials)
      .set({ status: 'invalid', invalidReason: reason.slice(0, 500), updatedAt: new Date(services.clock()) })
      .where(eq(materials.id, m.id));
    return 'invalid';
  }
}
