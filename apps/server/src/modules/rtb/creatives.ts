import { createHash, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { and, asc, eq, isNull } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { accounts, ads, materialFolders, materials, rtbCreatives, rtbDsps } from '../../db/schema/index.js';
import type { JobQueue } from '../../jobs/queue.js';
import type { Files } from '../../storage/files.js';
import { enterpriseKey } from '../../storage/storage.js';
import { ensureDefaultPlan } from '../ads/plans.js';
import { PROBE_JOB } from '../materials/jobs.js';
import { addUsage } from '../materials/repository.js';
import { sniff } from '../materials/sniff.js';

/**
 * External creatives (issue 29): the first time a DSP bids with a creative (its `crid`), the
 * auction records it and it cannot win. The `rtb-creatives` job fetches its media (the bid's
 * `adm` URL: an image or a video, at most CREATIVE_MAX_BYTES, within CREATIVE_FETCH_MS) into
 * the operator's material library (folder "RTB creatives", probed like any upload) and makes
 * its ad (source 'rtb', no targets, pending review): the existing review decides, and the
 * decision is kept for every later bid with that creative. A creative that cannot be fetched
 * or is neither an image nor a video is `error` (its bids stay refused).
 */

export const CREATIVE_MAX_BYTES = 200 * 1024 * 1024;
export const CREATIVE_FETCH_MS = 30_000;
const FOLDER_NAME = 'RTB creatives';
const YEAR_MS = 365 * 86_400_000;

interface Services {
  db: Executor;
  files: Files;
  jobs: JobQueue;
}

/** Fetches up to `limit` recorded creatives; answers how many became ads and how many failed. */
export async function fetchCreatives(s: Services, now: Date, limit = 20): Promise<{ fetched: number; failed: number }> {
  const due = await s.db
    .select({ c: rtbCreatives, dspName: rtbDsps.name })
    .from(rtbCreatives)
    .innerJoin(rtbDsps, eq(rtbDsps.id, rtbCreatives.dspId))
    .where(eq(rtbCreatives.state, 'fetching'))
    .orderBy(asc(rtbCreatives.createdAt))
    .limit(limit);
  let fetched = 0;
  let failed = 0;
  for (const { c, dspName } of due) {
    try {
      const file = await download(c.url);
      await s.db.transaction(async (tx) => {
        await makeCreativeAd(s, tx as unknown as Executor, c, dspName, file, now);
      });
      fetched++;
    } catch (error) {
      failed++;
      await s.db
        .update(rtbCreatives)
        .set({
          state: 'error',
          error: (error instanceof Error ? error.message : String(error)).slice(0, 500),
          updatedAt: now,
        })
        .where(and(eq(rtbCreatives.id, c.id), eq(rtbCreatives.state, 'fetching')));
    }
  }
  return { fetched, failed };
}

async function download(url: string): Promise<{ body: Buffer; mime: string; ext: string; type: 'image' | 'video' }> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), CREATIVE_FETCH_MS);
  try {
    const res = await fetch(url, { signal: controller.signal });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    const length = Number(res.headers.get('content-length') ?? 0);
    if (length > CREATIVE_MAX_BYTES) throw new Error('creative too large');
    const body = Buffer.from(await res.arrayBuffer());
    if (body.length > CREATIVE_MAX_BYTES) throw new Error('creative too large');
    const sniffed = sniff(body.subarray(0, 64));
    if (!sniffed || (sniffed.type !== 'image' && sniffed.type !== 'video')) throw new Error('not an image or a video');
    return { body, mime: sniffed.mime, ext: sniffed.ext, type: sniffed.type };
  } finally {
    clearTimeout(timer);
  }
}

/** The enterprise's administrator (the owner of what the platform makes on its behalf). */
async function enterpriseOwner(db: Executor, entId: string): Promise<{ id: string; deptId: string | null }> {
  const [row] = await db
    .select({ id: accounts.id, deptId: accounts.currentDeptId })
    .from(accounts)
    .where(and(eq(accounts.entId, entId), eq(accounts.isEntAdmin, true)))
    .orderBy(asc(accounts.createdAt))
    .limit(1);
  if (!row) throw new Error('the enterprise has no administrator');
  return row;
}

async function creativeFolder(db: Executor, entId: string, owner: { id: string; deptId: string | null }, now: Date) {
  const [found] = await db
    .select({ id: materialFolders.id })
    .from(materialFolders)
    .where(
      and(eq(materialFolders.entId, entId), isNull(materialFolders.parentId), eq(materialFolders.name, FOLDER_NAME)),
    );
  if (found) return found.id;
  const id = randomUUID();
  await db
    .insert(materialFolders)
    .values({
      id,
      entId,
      parentId: null,
      path: `/${id}/`,
      depth: 1,
      name: FOLDER_NAME,
      deptId: owner.deptId,
      ownerId: owner.id,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoNothing();
  const [row] = await db
    .select({ id: materialFolders.id })
    .from(materialFolders)
    .where(
      and(eq(materialFolders.entId, entId), isNull(materialFolders.parentId), eq(materialFolders.name, FOLDER_NAME)),
    );
  return row.id;
}

async function makeCreativeAd(
  s: Services,
  db: Executor,
  c: typeof rtbCreatives.$inferSelect,
  dspName: string,
  file: { body: Buffer; mime: string; ext: string; type: 'image' | 'video' },
  now: Date,
) {
  const [claimed] = await db
    .select()
    .from(rtbCreatives)
    .where(and(eq(rtbCreatives.id, c.id), eq(rtbCreatives.state, 'fetching')))
    .for('update', { skipLocked: true });
  if (!claimed) return;
  const owner = await enterpriseOwner(db, c.entId);
  const folderId = await creativeFolder(db, c.entId, owner, now);
  const materialId = randomUUID();
  const key = enterpriseKey(c.entId, 'materials', `${materialId}.${file.ext}`);
  await s.files.storage.put(key, Readable.from(file.body), { contentType: file.mime });
  const name = `${dspName} · ${c.crid}`.slice(0, 60);
  await db.insert(materials).values({
    id: materialId,
    entId: c.entId,
    folderId,
    deptId: owner.deptId,
    ownerId: owner.id,
    name,
    type: file.type,
    mime: file.mime,
    size: file.body.length,
    bytes: file.body.length,
    sha256: createHash('sha256').update(file.body).digest('hex'),
    fileKey: key,
    status: 'processing',
    createdAt: now,
    updatedAt: now,
  });
  await addUsage(db, c.entId, file.body.length);
  await s.jobs.send(PROBE_JOB, { materialId }, db);
  const [ad] = await db
    .insert(ads)
    .values({
      entId: c.entId,
      deptId: owner.deptId,
      ownerId: owner.id,
      name,
      type: 'common',
      source: 'rtb',
      planId: await ensureDefaultPlan(db, c.entId),
      startAt: now,
      endAt: new Date(now.getTime() + YEAR_MS),
      strategy: 'perLoop',
      playsMin: 1,
      playsMax: 1,
      periods: [],
      materialIds: [materialId],
      targets: { deviceIds: [], groupIds: [], tagIds: [], deptIds: [], spliceIds: [] },
      createdAt: now,
      updatedAt: now,
    })
    .returning({ id: ads.id });
  await db
    .update(rtbCreatives)
    .set({ state: 'review', adId: ad.id, error: null, updatedAt: now })
    .where(eq(rtbCreatives.id, c.id));
}
