import type { Server as HttpServer, IncomingMessage } from 'node:http';
import { createServer, type Server as NetServer } from 'node:net';
import { type Duplex, Readable } from 'node:stream';
import { MAX_DEVICE_PAYLOAD_BYTES } from '@marquee/protocol';
import { Aedes, type AuthenticateError, type Client } from 'aedes';
import type { FastifyBaseLogger } from 'fastify';
import { createWebSocketStream, WebSocketServer } from 'ws';
import type { DeviceBus } from './bus.js';

/** What the broker asks the device registry (the same rule for every broker: mqtt/access.ts). */
export interface BrokerAccess {
  /** May this username/password/client id connect? `internal`: the server's own client. */
  authenticate(username: string, password: string, clientId: string): Promise<'device' | 'internal' | null>;
  /** May a device (its username) publish or subscribe to `topic`? */
  authorize(username: string, action: 'publish' | 'subscribe', topic: string): boolean;
}

/** What indexRetainedByTopic needs of aedes's persistence (aedes-persistence's memory store). */
interface RetainedStore {
  storeRetained(packet: { topic: string; payload: Buffer }, cb?: (error: unknown) => void): Promise<void> | undefined;
  createRetainedStreamCombi(patterns: string[]): Readable;
}

/**
 * Every SUBSCRIBE makes aedes look up the retained messages matching its topics, and the
 * memory persistence answers by testing EVERY retained topic against each pattern: with a
 * fleet connected, one retained state per device, each player's subscription to its command
 * topic cost O(fleet) on the server's event loop (57 ms at 10,000 on this machine under
 * load, bench/devices.ts), so connecting N players cost O(N^2) and the embedded broker
 * stopped taking players at about 8,500. Topics without wildcards (every device's
 * subscription) are looked up in a map by topic instead; patterns with wildcards and shared
 * subscriptions keep aedes's own scan. Same answers: a pattern without wildcards matches
 * exactly its own topic.
 */
export function indexRetainedByTopic(aedes: Aedes): void {
  const { persistence } = aedes as unknown as { persistence: RetainedStore };
  const byTopic = new Map<string, { topic: string; payload: Buffer }>();
  const store = persistence.storeRetained.bind(persistence);
  const scan = persistence.createRetainedStreamCombi.bind(persistence);
  persistence.storeRetained = (packet, cb) => {
    if (packet.payload.length === 0) byTopic.delete(packet.topic);
    else byTopic.set(packet.topic, { ...packet });
    return store(packet, cb);
  };
  persistence.createRetainedStreamCombi = (patterns) => {
    if (patterns.some((p) => p.includes('+') || p.includes('#') || p.startsWith('$share/'))) return scan(patterns);
    return Readable.from(patterns.flatMap((p) => byTopic.get(p) ?? []));
  };
}

/** The path of the MQTT-over-WebSocket endpoint on the server's own HTTP port. */
export const MQTT_WS_PATH = '/mqtt';

const BAD_CREDENTIALS = 4;

/**
 * The embedded broker (aedes) inside the server: devices connect over WebSocket at
 * `/mqtt` on the server's HTTP port and over TCP on MQTT_TCP_PORT; a second server process
 * may connect over TCP as the internal client. Every connection authenticates through
 * `access` (the device's own credentials) and may only touch its own topics. The server
 * itself publishes and consumes in-process (EmbeddedBus).
 */
export class EmbeddedBroker {
  readonly aedes: Aedes;
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: MAX_DEVICE_PAYLOAD_BYTES + 1024 });
  private tcp: NetServer | null = null;
  /** Username of each connected client (aedes keeps none). */
  private readonly roles = new WeakMap<Client, { username: string; role: 'device' | 'internal' }>();

  constructor(
    private readonly access: BrokerAccess,
    private readonly log: FastifyBaseLogger,
  ) {
    this.aedes = new Aedes({
      id: 'marquee',
      // A device's heartbeat is 30 s; MQTT keepalive is the player's own (docs/device-protocol.md).
      connectTimeout: 10_000,
      // No limit on the messages in flight in aedes's emitter (its default is 100, past which
      // it queues them all). The server's consumer holds a device message until it is written
      // (a heartbeat waits for its batch, up to HEARTBEAT_FLUSH_MS and the write), so at 10,000
      // players the 100 slots were full of heartbeats: commands and acks waited behind them
      // (ack p99 4.9 s), and the queue drained by recursion, each message that no one
      // consumes completing in the same stack: a fleet's wills at shutdown overflowed it and
      // crashed the server. A client's own messages are still read only once its previous
      // ones are handled, so what is in flight stays bounded by the connected clients.
      concurrency: 0,
      authenticate: (client, username, password, done) => {
        const fail = () => {
          const error = new Error('bad username or password') as AuthenticateError;
          error.returnCode = BAD_CREDENTIALS;
          done(error, false);
        };
        if (!username || !password) return fail();
        this.access.authenticate(username, password.toString('utf8'), client.id).then(
          (role) => {
            if (!role) return fail();
            this.roles.set(client, { username, role });
            done(null, true);
          },
          (error) => {
            this.log.error({ err: error }, 'mqtt authentication failed');
            fail();
          },
        );
      },
      authorizePublish: (client, packet, done) => {
        if (!client) return done(null);
        const who = this.roles.get(client);
        if (who?.role === 'internal') return done(null);
        if (who && this.access.authorize(who.username, 'publish', packet.topic)) {
          if (packet.payload && packet.payload.length > MAX_DEVICE_PAYLOAD_BYTES) {
            return done(new Error('payload too large'));
          }
          return done(null);
        }
        done(new Error('topic not allowed'));
      },
      authorizeSubscribe: (client, subscription, done) => {
        const who = this.roles.get(client);
        if (who?.role === 'internal' || (who && this.access.authorize(who.username, 'subscribe', subscription.topic))) {
          return done(null, subscription);
        }
        // A null subscription answers SUBACK 0x80 (failure) for this topic.
        done(null, null);
      },
    });
    this.aedes.on('clientError', (client, error) => this.log.debug({ clientId: client.id, err: error }, 'mqtt client'));
    this.aedes.on('connectionError', (_client, error) => this.log.debug({ err: error }, 'mqtt connection'));
  }

  async start(): Promise<void> {
    await this.aedes.listen();
    indexRetainedByTopic(this.aedes);
  }

  /** Serves MQTT over WebSocket at /mqtt on `server` (the Fastify HTTP server). */
  attachWebSocket(server: HttpServer): void {
    server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
      const path = (request.url ?? '').split('?')[0];
      if (path !== MQTT_WS_PATH) return;
      this.wss.handleUpgrade(request, socket, head, (ws) => {
        const stream = createWebSocketStream(ws);
        stream.on('error', () => stream.destroy());
        this.aedes.handle(stream, request);
      });
    });
  }

  /** Listens for MQTT over TCP; resolves with the bound port. */
  listenTcp(port: number, host: string): Promise<number> {
    const tcp = createServer((socket) => this.aedes.handle(socket));
    this.tcp = tcp;
    return new Promise((resolve, reject) => {
      tcp.once('error', reject);
      tcp.listen(port, host, () => {
        tcp.off('error', reject);
        const address = tcp.address();
        resolve(typeof address === 'object' && address ? address.port : port);
      });
    });
  }

  /**
   * Closes the live connection of a client (a device deleted or disabled in the console):
   * its will is published (the registry ignores it) and a reconnection is refused by `access`.
   */
  disconnect(clientId: string): boolean {
    const client = (this.aedes as unknown as { clients: Record<string, Client | undefined> }).clients[clientId];
    if (!client) return false;
    client.close();
    return true;
  }

  /**
   * Whether a client with this id is connected here and subscribed to `topic`: a message
   * published to it now reaches it (several instances: only the one whose broker holds a
   * device's connection can deliver its commands).
   */
  holds(clientId: string, topic: string): boolean {
    const client = (this.aedes as unknown as { clients: Record<string, Client | undefined> }).clients[clientId];
    const state = client as unknown as
      | { connected?: boolean; closed?: boolean; subscriptions?: Record<string, unknown> }
      | undefined;
    return Boolean(state?.connected && !state.closed && state.subscriptions?.[topic]);
  }

  /** The ids of the clients connected here. */
  clientIds(): string[] {
    return Object.keys((this.aedes as unknown as { clients: Record<string, Client | undefined> }).clients);
  }

  async close(): Promise<void> {
    const tcp = this.tcp;
    this.tcp = null;
    for (const ws of this.wss.clients) ws.terminate();
    await Promise.all([
      tcp ? new Promise<void>((resolve) => tcp.close(() => resolve())) : undefined,
      new Promise<void>((resolve) => this.wss.close(() => resolve())),
    ]);
    await new Promise<void>((resolve) => this.aedes.close(() => resolve()));
  }
}

/** The server's side of the embedded broker: publishes and subscribes in-process. */
export class EmbeddedBus implements DeviceBus {
  readonly description = 'embedded';
  private readonly subscriptions: {
    topic: string;
    fn: (packet: { topic: string; payload: unknown }, cb: () => void) => void;
  }[] = [];

  constructor(private readonly broker: EmbeddedBroker) {}

  publish(topic: string, payload: string, options: { qos: 0 | 1; retain: boolean }): Promise<void> {
    return new Promise((resolve, reject) => {
      this.broker.aedes.publish(
        { cmd: 'publish', topic, payload: Buffer.from(payload), qos: options.qos, retain: options.retain, dup: false },
        (error) => (error ? reject(error) : resolve()),
      );
    });
  }

  async consume(filters: readonly string[], handler: (topic: string, payload: Buffer) => Promise<void>): Promise<void> {
    for (const topic of filters) {
      const fn = (packet: { topic: string; payload: unknown }, cb: () => void) => {
        const payload = Buffer.isBuffer(packet.payload) ? packet.payload : Buffer.from(String(packet.payload));
        handler(packet.topic, payload).finally(cb);
      };
      this.subscriptions.push({ topic, fn });
      await new Promise<void>((resolve) => this.broker.aedes.subscribe(topic, fn, resolve));
    }
  }

  async close(): Promise<void> {
    for (const { topic, fn } of this.subscriptions.splice(0)) {
      await new Promise<void>((resolve) => this.broker.aedes.unsubscribe(topic, fn, resolve));
    }
  }
}
