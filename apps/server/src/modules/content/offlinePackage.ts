import { Readable } from 'node:stream';
import {
  type DeviceManifest,
  ErrorCode,
  OFFLINE_PACKAGE_FORMAT,
  OFFLINE_PACKAGE_INDEX,
  type OfflinePackageIndex,
  offlineFileEntry,
  TAR_BLOCK,
  tarHeader,
  tarPadding,
} from '@marquee/protocol';
import { eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Executor } from '../../db/client.js';
import { devices, materials } from '../../db/schema/index.js';
import { AppError } from '../../protocol/appError.js';
import type { CallContext } from '../../protocol/handlers.js';
import type { AppServices } from '../../services.js';
import { enterpriseKey, keyEnterprise } from '../../storage/storage.js';
import { loadManaged } from '../devices/service.js';
import { auditDevices } from './service.js';
import { buildManifest } from './sources.js';

/**
 * Offline packages (issue 31; docs/device-protocol.md 2.11): a device's content now, its
 * manifest and every file, as one tar archive for a screen without a network. Nothing is
 * stored: the console's call checks the caller manages the device and that every file is in
 * storage, and answers a signed link (OFFLINE_LINK_TTL_SEC) to the route below, which builds
 * the manifest again and streams the archive straight from storage with its exact length.
 */
export const OFFLINE_ROUTE_PREFIX = '/offline-packages/';
export const OFFLINE_LINK_TTL_SEC = 3600;

interface PackageFile {
  entry: string;
  key: string;
  size: number;
}

interface PackagePlan {
  index: Buffer;
  files: PackageFile[];
  size: number;
  manifest: DeviceManifest;
}

/** The key a package's link signs (nothing is stored under it). */
const packageKey = (entId: string, deviceId: string) => enterpriseKey(entId, 'offline', `${deviceId}.tar`);

/** What the archive of a device holds now: its index, its files (each once) and its exact length. */
async function planPackage(
  services: Pick<AppServices, 'files'>,
  db: Executor,
  device: { id: string; entId: string; name: string; layoutId: string | null },
  now: number,
): Promise<PackagePlan> {
  const built = await buildManifest(db, { id: device.id, entId: device.entId, layoutId: device.layoutId }, now);
  const manifest: DeviceManifest = {
    ...built,
    files: built.files.map((f) => ({ ...f, url: offlineFileEntry(f.sha256) })),
  };
  const ids = [...new Set(built.files.map((f) => f.materialId))];
  const rows =
    ids.length > 0
      ? await db
          .select({ id: materials.id, fileKey: materials.fileKey })
          .from(materials)
          .where(inArray(materials.id, ids))
      : [];
  const keys = new Map(rows.map((r) => [r.id, r.fileKey]));
  const files = new Map<string, PackageFile>();
  for (const f of built.files) {
    const entry = offlineFileEntry(f.sha256);
    if (files.has(entry)) continue;
    const key = keys.get(f.materialId);
    const stat = key ? await services.files.storage.stat(key) : null;
    if (!key || !stat || stat.size !== f.size) throw new AppError(ErrorCode.OFFLINE_FILE_MISSING);
    files.set(entry, { entry, key, size: f.size });
  }
  const index: OfflinePackageIndex = {
    format: OFFLINE_PACKAGE_FORMAT,
    deviceId: device.id,
    deviceName: device.name,
    generatedAt: now,
    manifest,
  };
  const indexBytes = Buffer.from(JSON.stringify(index));
  let size = TAR_BLOCK + indexBytes.length + tarPadding(indexBytes.length);
  for (const f of files.values()) size += TAR_BLOCK + f.size + tarPadding(f.size);
  size += 2 * TAR_BLOCK;
  return { index: indexBytes, files: [...files.values()], size, manifest };
}

async function deviceRow(db: Executor, id: string) {
  const [row] = await db
    .select({ id: devices.id, entId: devices.entId, name: devices.name, layoutId: devices.layoutId })
    .from(devices)
    .where(eq(devices.id, id));
  return row ?? null;
}

const fileName = (name: string, now: number) =>
  `offline-${name.replace(/[^\p{L}\p{N}_-]+/gu, '-').slice(0, 40)}-${new Date(now).toISOString().slice(0, 10)}.tar`;

/** device.offlinePackage: checks the device and its files now; answers the signed link. */
export async function offlinePackage(input: { id: string }, ctx: CallContext) {
  const [managed] = await loadManaged(ctx, [input.id]);
  const device = await deviceRow(ctx.db, managed.id);
  if (!device) throw new AppError(ErrorCode.NOT_FOUND);
  const now = ctx.now.getTime();
  const plan = await planPackage(ctx.services, ctx.db, device, now);
  await auditDevices(ctx, 'offlinePackage', [device], {
    files: plan.files.length,
    bytes: plan.size,
    manifestVersion: plan.manifest.version,
  });
  const name = fileName(device.name, now);
  const url = ctx.services.files.signedUrl(
    packageKey(device.entId, device.id),
    OFFLINE_LINK_TTL_SEC,
    OFFLINE_ROUTE_PREFIX,
  );
  return {
    url: `${url}&name=${encodeURIComponent(name)}`,
    fileName: name,
    size: plan.size,
    files: plan.files.length,
    items: plan.manifest.items.length,
    manifestVersion: plan.manifest.version,
    expiresAt: new Date(now + OFFLINE_LINK_TTL_SEC * 1000).toISOString(),
  };
}

/** The archive's bytes: the index, then each file from storage, each padded to the block; two zero blocks. */
async function* archive(services: Pick<AppServices, 'files'>, plan: PackagePlan, mtimeSec: number) {
  yield tarHeader(OFFLINE_PACKAGE_INDEX, plan.index.length, mtimeSec);
  yield plan.index;
  yield new Uint8Array(tarPadding(plan.index.length));
  for (const f of plan.files) {
    const opened = await services.files.storage.get(f.key);
    if (!opened) throw new Error(`offline package: ${f.key} disappeared while streaming`);
    yield tarHeader(f.entry, f.size, mtimeSec);
    let sent = 0;
    for await (const chunk of opened.body) {
      sent += (chunk as Buffer).length;
      yield chunk as Buffer;
    }
    if (sent !== f.size) throw new Error(`offline package: ${f.key} has ${sent} bytes, not ${f.size}`);
    yield new Uint8Array(tarPadding(f.size));
  }
  yield new Uint8Array(2 * TAR_BLOCK);
}

/**
 * `GET /offline-packages/<key>?exp=&sig=&name=`: the archive of the device the signed key names,
 * built now (a missing, tampered or expired signature is 403; a device gone or a file missing
 * since the link was made, 404).
 */
export async function registerOfflinePackageRoute(app: FastifyInstance, services: AppServices) {
  app.get(`${OFFLINE_ROUTE_PREFIX}*`, async (request, reply) => {
    const url = request.url;
    const queryAt = url.indexOf('?');
    const query = request.query as Record<string, string | undefined>;
    let key: string;
    try {
      key = decodeURIComponent(url.slice(OFFLINE_ROUTE_PREFIX.length, queryAt === -1 ? undefined : queryAt));
    } catch {
      return reply.code(404).type('text/plain').send('Not Found');
    }
    reply.header('cache-control', 'private, no-store').header('x-content-type-options', 'nosniff');
    const match = /^e\/[^/]+\/offline\/([^/]+)\.tar$/.exec(key);
    if (!match || !services.files.verify(key, query.exp, query.sig)) {
      return reply.code(403).type('text/plain').send('Forbidden');
    }
    const device = await deviceRow(services.db, match[1]);
    if (!device || device.entId !== keyEnterprise(key)) return reply.code(404).type('text/plain').send('Not Found');
    const now = services.clock();
    let plan: PackagePlan;
    try {
      plan = await planPackage(services, services.db, device, now);
    } catch (error) {
      if (error instanceof AppError) return reply.code(404).type('text/plain').send('Not Found');
      throw error;
    }
    const name = query.name && /^[\p{L}\p{N}._-]{1,80}$/u.test(query.name) ? query.name : 'offline.tar';
    reply
      .type('application/x-tar')
      .header('content-length', plan.size)
      .header(
        'content-disposition',
        `attachment; filename="offline.tar"; filename*=UTF-8''${encodeURIComponent(name)}`,
      );
    return reply.send(Readable.from(archive(services, plan, Math.floor(now / 1000))));
  });
}
