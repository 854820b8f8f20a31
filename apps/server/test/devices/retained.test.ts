import { Aedes } from 'aedes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { indexRetainedByTopic } from '../../src/mqtt/embedded.js';

/**
 * The embedded broker's retained messages found by topic (indexRetainedByTopic): a
 * subscription without wildcards gets exactly its topic's retained message, one with
 * wildcards gets what aedes's own scan finds, an empty retained payload clears it.
 */
describe('embedded broker retained messages by topic', () => {
  let aedes: Aedes;
  type Store = {
    storeRetained(p: { cmd: string; topic: string; payload: Buffer; qos: number; retain: boolean }): Promise<void>;
    createRetainedStreamCombi(patterns: string[]): AsyncIterable<{ topic: string; payload: Buffer }>;
  };
  let store: Store;
  beforeAll(async () => {
    aedes = new Aedes();
    await aedes.listen();
    indexRetainedByTopic(aedes);
    store = (aedes as unknown as { persistence: Store }).persistence;
  });
  afterAll(() => new Promise<void>((resolve) => aedes.close(() => resolve())));

  const retain = (topic: string, text: string) =>
    store.storeRetained({ cmd: 'publish', topic, payload: Buffer.from(text), qos: 1, retain: true });
  const found = async (patterns: string[]) => {
    const out: string[] = [];
    for await (const p of store.createRetainedStreamCombi(patterns)) out.push(`${p.topic}=${p.payload.toString()}`);
    return out.sort();
  };

  it('answers exact topics from the index and wildcards from the scan, the same messages', async () => {
    await retain('mq/v1/d/a/state', 'on');
    await retain('mq/v1/d/b/state', 'off');
    await retain('mq/v1/d/a/state', 'on2');
    expect(await found(['mq/v1/d/a/state'])).toEqual(['mq/v1/d/a/state=on2']);
    expect(await found(['mq/v1/d/a/cmd'])).toEqual([]);
    expect(await found(['mq/v1/d/a/state', 'mq/v1/d/b/state'])).toEqual(['mq/v1/d/a/state=on2', 'mq/v1/d/b/state=off']);
    expect(await found(['mq/v1/d/+/state'])).toEqual(['mq/v1/d/a/state=on2', 'mq/v1/d/b/state=off']);
    await retain('mq/v1/d/a/state', '');
    expect(await found(['mq/v1/d/a/state'])).toEqual([]);
    expect(await found(['mq/v1/d/#'])).toEqual(['mq/v1/d/b/state=off']);
  });
});
