import { endpoints, Perm } from '@marquee/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stationLetters } from '../src/db/schema/index.js';
import { createMonitorApplication } from '../src/modules/notice/service.js';
import { letterRules } from '../src/modules/stationLetter/rules.js';
import { createStationLetter } from '../src/modules/stationLetter/service.js';
import {
  BACKENDS,
  createEnterprise,
  createTestApp,
  createUser,
  MINUTE,
  TEST_LETTER,
  type TestApp,
} from './helpers/index.js';

describe.each(BACKENDS)('station letters on %s', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(backend);
  });
  afterAll(() => t.close());

  const letters = async (client: Awaited<ReturnType<TestApp['loginAs']>>, language = 'en-US') =>
    (await client.call(endpoints.stationLetterList, {}, { language })).envelope.payload as string[];

  it('registers the rules of the facts that exist: the market (issue 27) brought storage, expiring devices and renewals', () => {
    const kinds = letterRules().map((r) => r.kind);
    expect(kinds).toContain('notice.monitorPending');
    expect(kinds.filter((k) => /storage|device|screen|point|renewal|card/i.test(k)).sort()).toEqual([
      'flow.cardsNearEnd',
      'market.devicesExpiring',
      'market.renewalFailed',
      'market.storageNearlyFull',
    ]);
  });

  it("renders a stored letter in the reader's language, to its enterprise or its one account, until it expires", async () => {
    const { ent, admin, client } = await t.tenant();
    const colleague = await createUser(t.db, ent);
    const now = new Date(t.clock.now());
    await createStationLetter(t.db, { entId: ent.id, kind: TEST_LETTER, params: { text: 'all' }, createdAt: now });
    await createStationLetter(t.db, {
      entId: ent.id,
      accountId: admin.id,
      kind: TEST_LETTER,
      params: { text: 'mine' },
      createdAt: new Date(now.getTime() + MINUTE),
    });
    await createStationLetter(t.db, {
      entId: ent.id,
      kind: TEST_LETTER,
      params: { text: 'gone' },
      expiresAt: new Date(now.getTime() - MINUTE),
    });
    expect(await letters(client)).toEqual(['Note: mine', 'Note: all']);
    expect(await letters(client, 'zh-CN')).toEqual(['提醒：mine', '提醒：all']);
    expect(await letters(client, 'ja')).toEqual(['お知らせ：mine', 'お知らせ：all']);
    expect(await letters(await t.loginAs(colleague))).toEqual(['Note: all']);
    const other = await createEnterprise(t.db);
    expect(await letters(await t.loginAs(await createUser(t.db, other)))).toEqual([]);
  });

  it('never stores free text: an unregistered kind is refused, and a stored one no rule renders is left out', async () => {
    const { ent, client } = await t.tenant();
    expect(() => createStationLetter(t.db, { entId: ent.id, kind: 'storage.almostFull' })).toThrow(/no rule/);
    await t.db.insert(stationLetters).values({ entId: ent.id, kind: 'storage.almostFull', params: { percent: 85 } });
    expect(await letters(client)).toEqual([]);
  });

  it('computes the pending monitor applications from the facts, for those who may decide them', async () => {
    const { ent, client } = await t.tenant();
    const monitorEnt = await createEnterprise(t.db, { name: 'Citywide Monitoring' });
    const monitor = await createUser(t.db, monitorEnt, { thirdMonitor: true });
    expect(await letters(client)).toEqual([]);
    const { noticeId } = await createMonitorApplication(t.db, {
      entId: ent.id,
      applicantAccountId: monitor.id,
      title: 'Monitoring request',
      content: '',
    });
    expect(await letters(client)).toEqual([
      'Citywide Monitoring asks to monitor your screens: agree or refuse in Notices',
    ]);
    expect((await letters(client, 'zh-CN'))[0]).toBe('Citywide Monitoring 申请监播您的屏幕，请在“通知”中同意或拒绝');
    expect((await letters(client, 'ja'))[0]).toMatch(/^Citywide Monitoring から画面の監視申請/);
    // Without the notice permission there is nothing to decide; another enterprise sees nothing.
    const reader = await createUser(t.db, ent, { permissions: [Perm.user] });
    expect(await letters(await t.loginAs(reader))).toEqual([]);
    const stranger = await createUser(t.db, await createEnterprise(t.db));
    expect(await letters(await t.loginAs(stranger))).toEqual([]);
    // Decided: the fact is gone, and so is the letter.
    expect((await client.call(endpoints.monitorApply, { noticeId, status: 0 })).envelope.code).toBe(0);
    expect(await letters(client)).toEqual([]);
  });
});
