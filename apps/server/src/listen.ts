import type { FastifyInstance } from 'fastify';
import type { Config } from './config.js';

/** A port the server could not take, said in one line that names the setting to change. */
export class ListenError extends Error {
  constructor(
    message: string,
    readonly port: number,
    readonly setting: 'PORT' | 'MQTT_TCP_PORT',
  ) {
    super(message);
    this.name = 'ListenError';
  }
}

/**
 * The error of a failed listen as a ListenError when it is about the port or address (busy,
 * privileged, not on this machine); anything else as it is.
 */
export function explainListenError(error: unknown, what: 'http' | 'mqtt', config: Config): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  const setting = what === 'http' ? 'PORT' : 'MQTT_TCP_PORT';
  const port = what === 'http' ? config.port : config.mqtt.tcpPort;
  const role = what === 'http' ? 'the HTTP port' : "the embedded MQTT broker's TCP port";
  const elsewhere =
    what === 'http' ? 'set PORT to a free port' : 'set MQTT_TCP_PORT to a free port, or to off without TCP devices';
  if (code === 'EADDRINUSE') {
    return new ListenError(
      `Port ${port} (${role}, ${setting}) is already in use by another program: stop it, or ${elsewhere}.`,
      port,
      setting,
    );
  }
  if (code === 'EACCES') {
    return new ListenError(
      `Port ${port} (${role}, ${setting}) needs privileges this process does not have: ${elsewhere} (1024 or above).`,
      port,
      setting,
    );
  }
  if (code === 'EADDRNOTAVAIL') {
    return new ListenError(
      `HOST ${config.host} is not an address of this machine, so ${role} ${port} cannot be opened on it: set HOST (0.0.0.0 for every address).`,
      port,
      setting,
    );
  }
  return error;
}

/**
 * Opens the server's ports: HTTP (PORT), then the embedded broker's TCP listener
 * (MQTT_TCP_PORT, opened by the app's onListen hook). A port that cannot be taken rejects
 * with a ListenError; main.ts prints its one line and exits non-zero.
 */
export async function listenOnPorts(app: FastifyInstance, config: Config): Promise<void> {
  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    throw explainListenError(error, 'http', config);
  }
  try {
    await app.services.devices.tcpListening;
  } catch (error) {
    throw explainListenError(error, 'mqtt', config);
  }
}
