import { ErrorCode, endpoints } from '@marquee/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { templates } from '../../src/db/schema/index.js';
import { BACKENDS, createTestApp, type TestApp } from '../helpers/index.js';
import { insertScreen } from './h1-fixtures.js';

/**
 * A slot as a region of a layout (issue 28): the slot form lists the enterprise's layouts with
 * the regions their editor marked 'RTB slot' (not another enterprise's, not unmarked regions),
 * and a slot saved on such a region keeps it. Both databases.
 */
describe.each(BACKENDS)('sales slot regions on %s', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(backend);
    t.clock.set(Date.parse('2026-04-01T08:00:00Z'));
  });
  afterAll(() => t?.close());

  const layout = (entId: string, ownerId: string, name: string, components: object[]) =>
    t.db
      .insert(templates)
      .values({ entId, ownerId, name, document: { v: 1, pages: [{ id: 'p1', components }] } })
      .returning({ id: templates.id })
      .then(([row]) => row.id);

  it('lists layouts with regions marked RTB and saves a slot on one', async () => {
    const { ent, admin, client } = await t.tenant();
    const other = await t.tenant();
    const marked = await layout(ent.id, admin.id, 'Lobby split', [
      { id: 'c-video', name: 'Main video', rtbSlot: false },
      { id: 'c-side', name: 'Side banner', rtbSlot: true },
    ]);
    await layout(ent.id, admin.id, 'Plain', [{ id: 'c1', name: 'Only video' }]);
    await layout(other.ent.id, other.admin.id, 'Foreign', [{ id: 'x', name: 'Theirs', rtbSlot: true }]);

    const listed = await client.call(endpoints.salesSlotRegions, {});
    expect(listed.envelope.code, listed.body).toBe(0);
    expect(listed.envelope.payload!.data).toEqual([
      { layoutId: marked, layoutName: 'Lobby split', regions: [{ id: 'c-side', name: 'Side banner' }] },
    ]);

    const screen = await insertScreen(t.db, ent, admin.id, new Date(t.clock.now()), { name: 'North' });
    const input = {
      name: 'Side banner 10s',
      width: 640,
      height: 1080,
      durationSec: 10,
      salesMethod: 'cpm' as const,
      cpmPrice: 2000,
      maxRotations: 2,
      targets: { deviceIds: [screen], groupIds: [], tagIds: [], spliceIds: [] },
      layoutId: marked,
    };
    const unmarked = await client.call(endpoints.salesSlotSave, { ...input, regionId: 'c-video' });
    expect(unmarked.envelope.code).toBe(ErrorCode.AD_TARGET_INVALID);
    const saved = await client.call(endpoints.salesSlotSave, { ...input, regionId: 'c-side' });
    expect(saved.envelope.code, saved.body).toBe(0);
    expect(saved.envelope.payload).toMatchObject({ layoutId: marked, layoutName: 'Lobby split', regionId: 'c-side' });
  });
});
