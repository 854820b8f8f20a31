import { endpoints } from '@marquee/protocol';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Executor } from '../../src/db/client.js';
import { type AdSlotRow, adSlots, devices, spliceTiles, spliceWalls } from '../../src/db/schema/index.js';
import { devicesReached } from '../../src/modules/ads/schedule.js';
import { deviceStates, slotScreens } from '../../src/modules/sales/inventory.js';
import { screenGeneration } from '../../src/modules/sales/screenCache.js';
import { BACKENDS, createTestApp, type TestApp } from '../helpers/index.js';
import { insertScreen } from './h1-fixtures.js';

/**
 * A slot's screens are kept between availability calls (screenCache.ts) while the enterprise's
 * screen generation stays (migration 0048: triggers bump it in the transactions that change a
 * slot's reach, at their commit): the next call sees a device added to or removed from the slot's group, tag or
 * split screen, a device renamed or deleted, the slot's targets edited, whichever code path (or
 * bare SQL, as another instance would) made the change; a change rolled back is not seen; the
 * long-offline state is read live and never bumps the generation. Both databases.
 */
describe.each(BACKENDS)('sales availability: a slot’s kept screens on %s', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(backend);
    t.clock.set(Date.parse('2026-04-01T08:00:00Z'));
  });
  afterAll(() => t?.close());

  const now = () => new Date(t.clock.now());

  /** What slotScreens answered before it kept anything: the targets resolved and every screen's row read. */
  async function uncached(db: Executor, slot: AdSlotRow) {
    const ids = await devicesReached(db, slot.entId, [{ ...slot.targets, deptIds: [] }]);
    return (await deviceStates(db, slot.entId, ids, now()))
      .map((s) => ({ id: s.id, name: s.name, longOffline: s.longOfflineHours !== null }))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  it('sees the next change of a group, a tag, a split screen, a name, a device or the slot, and presence live', async () => {
    const { ent, admin, client } = await t.tenant();
    const screen = (name: string) => insertScreen(t.db, ent, admin.id, now(), { name });
    const [a, b, c, d, e, f] = await Promise.all(['A', 'B', 'C', 'D', 'E', 'F'].map((n) => screen(`Screen ${n}`)));
    const group = await client.call(endpoints.deviceGroupCreate, { name: 'Lobby', deviceIds: [a] });
    expect(group.envelope.code, group.body).toBe(0);
    const groupId = group.envelope.payload!.id;
    const category = await client.call(endpoints.tagCategoryCreate, { name: 'Placement' });
    const tag = await client.call(endpoints.deviceTagCreate, {
      name: 'Entrance',
      categoryId: category.envelope.payload!.id,
      deviceIds: [b],
    });
    expect(tag.envelope.code, tag.body).toBe(0);
    const tagId = tag.envelope.payload!.id;
    const [wall] = await t.db
      .insert(spliceWalls)
      .values({ entId: ent.id, name: 'Wall', rows: 1, cols: 1 })
      .returning({ id: spliceWalls.id });
    await t.db.insert(spliceTiles).values({ entId: ent.id, wallId: wall.id, row: 0, col: 0, deviceId: c });

    const saved = await client.call(endpoints.salesSlotSave, {
      name: 'Lobby 15s',
      width: 1920,
      height: 1080,
      durationSec: 15,
      salesMethod: 'cpt',
      cptPrice: 500,
      maxRotations: 3,
      targets: { deviceIds: [], groupIds: [groupId], tagIds: [tagId], spliceIds: [wall.id] },
    });
    expect(saved.envelope.code, saved.body).toBe(0);
    const slotId = saved.envelope.payload!.id;
    const slotRow = async () => (await t.db.select().from(adSlots).where(eq(adSlots.id, slotId)))[0];

    /** The availability call's screens (name, long offline), checked against the uncached resolution. */
    const screens = async () => {
      const r = await client.call(endpoints.salesAvailability, {
        slotId,
        startDate: '2026-04-02',
        endDate: '2026-04-03',
        hours: [10],
        size: 50,
      });
      expect(r.envelope.code, r.body).toBe(0);
      const slot = await slotRow();
      expect(await slotScreens(t.db, slot, now())).toEqual(await uncached(t.db, slot));
      return r.envelope.payload!.screens.data.map((s) => (s.longOffline ? `${s.deviceName} (offline)` : s.deviceName));
    };

    expect(await screens()).toEqual(['Screen A', 'Screen B', 'Screen C']);
    // Kept: the same answer again.
    expect(await screens()).toEqual(['Screen A', 'Screen B', 'Screen C']);

    // A device added to the slot's group appears; one removed disappears.
    expect(
      (await client.call(endpoints.deviceGroupAssign, { id: groupId, action: 'add', deviceIds: [d] })).envelope.code,
    ).toBe(0);
    expect(await screens()).toEqual(['Screen A', 'Screen B', 'Screen C', 'Screen D']);
    expect(
      (await client.call(endpoints.deviceGroupAssign, { id: groupId, action: 'remove', deviceIds: [a] })).envelope.code,
    ).toBe(0);
    expect(await screens()).toEqual(['Screen B', 'Screen C', 'Screen D']);

    // The same by tag.
    expect(
      (await client.call(endpoints.deviceTagAssign, { tagIds: [tagId], action: 'add', deviceIds: [e] })).envelope.code,
    ).toBe(0);
    expect(await screens()).toEqual(['Screen B', 'Screen C', 'Screen D', 'Screen E']);
    expect(
      (await client.call(endpoints.deviceTagAssign, { tagIds: [tagId], action: 'remove', deviceIds: [b] })).envelope
        .code,
    ).toBe(0);
    expect(await screens()).toEqual(['Screen C', 'Screen D', 'Screen E']);

    // A split screen's tile moved to another device (bare SQL, as another instance's change would come).
    await t.db.update(spliceTiles).set({ deviceId: f }).where(eq(spliceTiles.deviceId, c));
    expect(await screens()).toEqual(['Screen D', 'Screen E', 'Screen F']);
    // A device moved into the group by bare SQL too.
    await t.db.update(devices).set({ groupId }).where(eq(devices.id, a));
    expect(await screens()).toEqual(['Screen A', 'Screen D', 'Screen E', 'Screen F']);

    // Renamed, then deleted.
    const renamed = await client.call(endpoints.deviceUpdate, { id: d, name: 'Screen Z' });
    expect(renamed.envelope.code, renamed.body).toBe(0);
    expect(await screens()).toEqual(['Screen A', 'Screen E', 'Screen F', 'Screen Z']);
    expect((await client.call(endpoints.deviceDelete, { ids: [e] })).envelope.code).toBe(0);
    expect(await screens()).toEqual(['Screen A', 'Screen F', 'Screen Z']);

    // The slot's targets edited (not in use): its new reach at once.
    const edit = await client.call(endpoints.salesSlotSave, {
      id: slotId,
      name: 'Lobby 15s',
      width: 1920,
      height: 1080,
      durationSec: 15,
      salesMethod: 'cpt',
      cptPrice: 500,
      maxRotations: 3,
      targets: { deviceIds: [b], groupIds: [groupId], tagIds: [], spliceIds: [] },
    });
    expect(edit.envelope.code, edit.body).toBe(0);
    expect(await screens()).toEqual(['Screen A', 'Screen B', 'Screen Z']);

    // Presence is live and no membership change: offline for 100 hours, then back.
    const gen = await screenGeneration(t.db, ent.id);
    const longAgo = new Date(now().getTime() - 100 * 3600_000);
    await t.db
      .update(devices)
      .set({ status: 'offline', lastSeenAt: longAgo, statusAt: longAgo })
      .where(eq(devices.id, a));
    expect(await screens()).toEqual(['Screen A (offline)', 'Screen B', 'Screen Z']);
    await t.db.update(devices).set({ status: 'online', lastSeenAt: now(), statusAt: now() }).where(eq(devices.id, a));
    expect(await screens()).toEqual(['Screen A', 'Screen B', 'Screen Z']);
    // Still online in its row but silent for 100 hours (the offline job not run yet): long offline too.
    await t.db.update(devices).set({ lastSeenAt: longAgo, statusAt: longAgo }).where(eq(devices.id, b));
    expect(await screens()).toEqual(['Screen A', 'Screen B (offline)', 'Screen Z']);
    expect(await screenGeneration(t.db, ent.id)).toBe(gen);

    // A change seen inside its own transaction, then rolled back: not seen after.
    const rollback = new Error('rollback');
    const slot = await slotRow();
    await expect(
      t.db.transaction(async (tx) => {
        await tx.update(devices).set({ groupId }).where(eq(devices.id, f));
        // The generation moves when the change commits; until then its own transaction resolves afresh.
        expect(await screenGeneration(tx, ent.id)).toBe(gen);
        const inside = await slotScreens(tx, slot, now());
        expect(inside.map((s) => s.name)).toEqual(['Screen A', 'Screen B', 'Screen F', 'Screen Z']);
        throw rollback;
      }),
    ).rejects.toBe(rollback);
    expect(await screens()).toEqual(['Screen A', 'Screen B (offline)', 'Screen Z']);

    // Another enterprise's changes leave this one's generation alone.
    const other = await t.tenant();
    await insertScreen(t.db, other.ent, other.admin.id, now(), { name: 'Elsewhere' });
    expect(await screenGeneration(t.db, ent.id)).toBe(gen);
    // A heartbeat (last seen) neither.
    await t.db.execute(sql`update devices set last_seen_at = ${now().toISOString()}::timestamptz where id = ${a}`);
    expect(await screenGeneration(t.db, ent.id)).toBe(gen);
  });

  it('bumps each enterprise once for a statement whose rows interleave enterprises (no upsert per row)', async () => {
    const one = await t.tenant();
    const two = await t.tenant();
    const before = [await screenGeneration(t.db, one.ent.id), await screenGeneration(t.db, two.ent.id)];
    const seqBefore = Number(
      (
        (await t.db.execute(sql`select last_value from sales_screen_generation_seq`)) as unknown as {
          rows: { last_value: string }[];
        }
      ).rows[0].last_value,
    );
    // 200 devices alternating between the two enterprises, in one statement.
    await t.db.execute(sql`
      insert into devices (id, ent_id, name, status)
      select gen_random_uuid()::text, case when g % 2 = 0 then ${one.ent.id} else ${two.ent.id} end, 'Bulk ' || g, 'activating'
      from generate_series(1, 200) g`);
    const after = [await screenGeneration(t.db, one.ent.id), await screenGeneration(t.db, two.ent.id)];
    expect(after[0]).not.toBe(before[0]);
    expect(after[1]).not.toBe(before[1]);
    const seqAfter = Number(
      (
        (await t.db.execute(sql`select last_value from sales_screen_generation_seq`)) as unknown as {
          rows: { last_value: string }[];
        }
      ).rows[0].last_value,
    );
    // Two bumps (one per enterprise), not 200 (the sequence moves once per bump).
    expect(seqAfter - seqBefore).toBe(2);
  });
});
