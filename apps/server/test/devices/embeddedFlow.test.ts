import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EmbeddedBroker, EmbeddedBus } from '../../src/mqtt/embedded.js';

/**
 * The embedded broker while the server's consumer holds device messages (a heartbeat waits
 * for its batch to be written): what else is published still flows. Aedes's emitter used to
 * allow 100 messages in flight and queue the rest: commands waited behind held heartbeats,
 * and a long queue of messages no one consumes (a fleet's wills at shutdown) drained by
 * recursion and overflowed the stack, which crashed the server.
 */
describe('the embedded broker with a consumer that holds its messages', () => {
  let broker: EmbeddedBroker;
  let bus: EmbeddedBus;
  let release: () => void;
  let received: number;

  beforeEach(async () => {
    broker = new EmbeddedBroker(
      { authenticate: async () => null, authorize: () => false },
      pino({ level: 'silent' }) as unknown as FastifyBaseLogger,
    );
    await broker.start();
    bus = new EmbeddedBus(broker);
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    received = 0;
    await bus.consume(['mq/v1/d/+/heartbeat'], async () => {
      received++;
      await held;
    });
  });

  afterEach(async () => {
    release();
    await bus.close();
    await broker.close();
  });

  const publish = (topic: string, qos: 0 | 1 = 1) => bus.publish(topic, '{}', { qos, retain: false });

  /** 100 heartbeats the consumer has taken and holds. */
  const holdHeartbeats = async () => {
    const heartbeats = Array.from({ length: 100 }, (_, i) => publish(`mq/v1/d/dev${i}/heartbeat`));
    await vi.waitFor(() => expect(received).toBe(100));
    return heartbeats;
  };

  it('publishes a command while the consumer holds 100 heartbeats', async () => {
    const heartbeats = await holdHeartbeats();
    let heartbeatsDone = false;
    void Promise.all(heartbeats).then(() => {
      heartbeatsDone = true;
    });
    await publish('mq/v1/d/dev0/cmd');
    expect(heartbeatsDone).toBe(false);
    release();
    await Promise.all(heartbeats);
  });

  it('gets through 20,000 messages that no one consumes, published while heartbeats are held', async () => {
    const heartbeats = await holdHeartbeats();
    const unconsumed = Array.from({ length: 20_000 }, (_, i) => publish(`mq/v1/d/dev${i}/state`, 0));
    release();
    await Promise.all([...unconsumed, ...heartbeats]);
    expect(received).toBe(100);
  });
});
