/**
 * How the server talks to the device broker, whichever broker runs: publish a message, and
 * receive what devices publish on the fleet's topics. The embedded broker (aedes, in this
 * process) and an external broker (Mosquitto, EMQX over MQTT with the server's own
 * credentials, consuming through `$share/marquee/...`) implement it.
 */
export interface DeviceBus {
  /** Publishes `payload` (JSON text) and resolves once the broker accepted it (QoS 1: PUBACK). */
  publish(topic: string, payload: string, options: { qos: 0 | 1; retain: boolean }): Promise<void>;
  /**
   * Receives every message of the fleet filters (`mq/v1/d/+/<leaf>`); with an external
   * broker as a member of the server processes' share group, so each message reaches one
   * server. The handler's promise is awaited before the message is acknowledged.
   */
  consume(filters: readonly string[], handler: (topic: string, payload: Buffer) => Promise<void>): Promise<void>;
  /** Where this bus is (for logs): 'embedded' or the external broker's URL without credentials. */
  readonly description: string;
  close(): Promise<void>;
}
