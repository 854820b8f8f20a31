import { MANIFEST_PATH } from '@marquee/protocol';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ContentPlayer, USAGE_WINDOW_MS } from '../../src/player/content.js';
import type { HeadlessPlayer } from '../../src/player/player.js';
import { activatePlayer } from '../devices/helpers.js';
import { listeningApp } from '../devices/suite.js';
import { type ApiClient, BACKENDS, type TestApp } from '../helpers/index.js';

/**
 * The demo fleet's headless players count the data they actually moved (issue 27): the bodies
 * they received and sent, one sample per quarter hour, journaled and uploaded like plays
 * (`POST /dapi/v1/usage`); kept while the server does not take them.
 */
describe.each(BACKENDS)('a headless player’s data usage on %s', (backend) => {
  let t: TestApp;
  let server: string;
  let client: ApiClient;
  let device: HeadlessPlayer;
  beforeAll(async () => {
    ({ t, server } = await listeningApp(backend, {}));
    ({ client } = await t.tenant());
    device = await activatePlayer(server, client, { name: 'Usage screen', connect: false });
  });
  afterAll(async () => {
    vi.useRealTimers();
    await device?.stop().catch(() => {});
    await t.close();
  });

  it('counts the manifest it received into one sample per quarter hour and uploads it', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const start = Math.ceil(Date.now() / USAGE_WINDOW_MS) * USAGE_WINDOW_MS;
    vi.setSystemTime(start + 1000);
    const uploads: { samples: unknown[]; answered: string[] }[] = [];
    const player = new ContentPlayer({
      server,
      credentials: () => device.credentials ?? null,
      onUsageUploaded: (samples, answer) =>
        uploads.push({
          samples: [...samples],
          answered: [...answer.accepted, ...answer.duplicate, ...answer.rejected],
        }),
    });
    await player.sync();
    const c = device.credentials!;
    const manifestBody = await fetch(`${server}${MANIFEST_PATH}`, {
      headers: {
        authorization: `Basic ${Buffer.from(`${c.username}:${c.password}`).toString('base64')}`,
        'accept-language': 'en-US',
      },
    }).then((r) => r.text());
    // Nothing is journaled before the quarter hour ends.
    await player.upload();
    expect(player.usageJournal).toEqual([]);
    expect(uploads).toEqual([]);

    vi.setSystemTime(start + USAGE_WINDOW_MS + 1000);
    await player.upload();
    // One sample, sent to the server and answered (the flow module counts it), so no longer journaled.
    expect(uploads).toHaveLength(1);
    const [sample] = uploads[0].samples as { id: string; rxBytes: number }[];
    expect(sample).toMatchObject({ start, durationMs: USAGE_WINDOW_MS, txBytes: 0, iccid: null });
    expect(uploads[0].answered).toEqual([sample.id]);
    expect(player.usageJournal).toEqual([]);
    // The manifest's body, as read (its generatedAt may differ in digits, not in length).
    expect(sample.rxBytes).toBe(Buffer.byteLength(manifestBody));
    await player.stop();
  });
});
