import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import mqtt, { type MqttClient } from 'mqtt';
import type { DeviceBus } from './bus.js';

/** The URL without credentials (for logs). */
export function safeUrl(url: string): string {
  try {
    const u = new URL(url);
    u.username = '';
    u.password = '';
    return u.toString();
  } catch {
    return 'mqtt://?';
  }
}

/**
 * An external broker (MQTT_URL: Mosquitto, EMQX) reached as the server's internal client
 * with MQTT_USERNAME / MQTT_PASSWORD. The fleet is consumed through shared subscriptions
 * (`$share/marquee/...`), so several server processes on one broker split the devices'
 * messages; any of them can publish a command to any device.
 */
export class ExternalBus implements DeviceBus {
  readonly description: string;
  readonly client: MqttClient;
  private handler: ((topic: string, payload: Buffer) => Promise<void>) | null = null;
  private filters: string[] = [];

  private constructor(url: string, client: MqttClient) {
    this.description = safeUrl(url);
    this.client = client;
  }

  /** Connects (waits for the first CONNACK, or fails after `timeoutMs`). */
  static async connect(
    url: string,
    credentials: { username?: string; password?: string },
    log: FastifyBaseLogger,
    timeoutMs = 10_000,
  ): Promise<ExternalBus> {
    const client = mqtt.connect(url, {
      username: credentials.username || undefined,
      password: credentials.password || undefined,
      clientId: `marquee-server-${randomBytes(6).toString('hex')}`,
      clean: true,
      keepalive: 30,
      reconnectPeriod: 1000,
      connectTimeout: timeoutMs,
      protocolVersion: 4,
    });
    const bus = new ExternalBus(url, client);
    client.on('message', (topic, payload) => {
      const handler = bus.handler;
      if (handler) handler(topic, payload).catch((error) => log.error({ err: error, topic }, 'device message failed'));
    });
    client.on('error', (error) => log.warn({ err: error, broker: bus.description }, 'mqtt broker'));
    // After a reconnect with a clean session the subscriptions are gone: make them again.
    client.on('connect', (connack) => {
      if (!connack.sessionPresent && bus.filters.length > 0) {
        client.subscribe(bus.filters, { qos: 1 }, (error) => {
          if (error) log.error({ err: error }, 'mqtt resubscribe failed');
        });
      }
    });
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        client.end(true);
        reject(new Error(`mqtt: no connection to ${bus.description} within ${timeoutMs} ms`));
      }, timeoutMs);
      client.once('connect', () => {
        clearTimeout(timer);
        resolve();
      });
      client.once('error', (error) => {
        clearTimeout(timer);
        client.end(true);
        reject(error);
      });
    });
    return bus;
  }

  publish(topic: string, payload: string, options: { qos: 0 | 1; retain: boolean }): Promise<void> {
    return new Promise((resolve, reject) => {
      this.client.publish(topic, payload, { qos: options.qos, retain: options.retain }, (error) =>
        error ? reject(error) : resolve(),
      );
    });
  }

  consume(filters: readonly string[], handler: (topic: string, payload: Buffer) => Promise<void>): Promise<void> {
    this.handler = handler;
    this.filters = [...filters];
    return new Promise((resolve, reject) => {
      this.client.subscribe(this.filters, { qos: 1 }, (error, granted) => {
        if (error) return reject(error);
        const refused = (granted ?? []).filter((g) => g.qos === 128);
        if (refused.length > 0) return reject(new Error(`mqtt: subscription refused: ${refused.map((g) => g.topic)}`));
        resolve();
      });
    });
  }

  /** Reply topics subscribed already (the client resubscribes them after a reconnection). */
  private readonly replyTopics = new Set<string>();

  /**
   * Sends `payload` to `topic` and waits for the reply on `replyTopic` (dynsec control API);
   * the reply topic is subscribed at the first request, so later ones take one round trip.
   */
  request(topic: string, payload: string, replyTopic: string, timeoutMs = 10_000): Promise<Buffer> {
    return new Promise((resolve, reject) => {
      const onMessage = (t: string, p: Buffer) => {
        if (t !== replyTopic) return;
        cleanup();
        resolve(p);
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`mqtt: no reply on ${replyTopic} within ${timeoutMs} ms`));
      }, timeoutMs);
      const cleanup = () => {
        clearTimeout(timer);
        this.client.off('message', onMessage);
      };
      this.client.on('message', onMessage);
      const send = () =>
        this.client.publish(topic, payload, { qos: 1 }, (e) => {
          if (e) {
            cleanup();
            reject(e);
          }
        });
      if (this.replyTopics.has(replyTopic)) return void send();
      this.client.subscribe(replyTopic, { qos: 1 }, (error) => {
        if (error) {
          cleanup();
          return reject(error);
        }
        this.replyTopics.add(replyTopic);
        send();
      });
    });
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.client.end(false, {}, () => resolve()));
  }
}
