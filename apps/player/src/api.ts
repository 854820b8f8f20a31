import type { SharesLookup, WeatherLookup } from '@marquee/layout';
import {
  ALARMS_PATH,
  type AlarmAnswer,
  type AlarmRaise,
  type DeviceCredentials,
  type DeviceManifest,
  deviceHttpCalls,
  MANIFEST_PATH,
  MAX_POLL_WAIT_MS,
  PLAYS_PATH,
  type PlayEvent,
  type PlaysAnswer,
  screenshotUploadPath,
  USAGE_PATH,
  type UsageSample,
} from '@marquee/protocol';
import { locale } from './i18n';

/** A device-API call that answered an error envelope (`code` from errors.ts). */
export class DeviceApiError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

function basic(credentials: DeviceCredentials): string {
  const bytes = new TextEncoder().encode(`${credentials.username}:${credentials.password}`);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return `Basic ${btoa(binary)}`;
}

async function envelope<T>(response: Response): Promise<T> {
  if (!response.ok) throw new DeviceApiError(-response.status, `HTTP ${response.status}`);
  const body = (await response.json()) as { code: number; message: string; payload: T };
  if (body.code !== 0) throw new DeviceApiError(body.code, body.message);
  return body.payload;
}

/**
 * Bytes the player sends are counted here (the data usage, logic/usage.ts): request bodies, as
 * Resource Timing tells only what was received. The runtime sets the listener.
 */
export const sent = { listener: (_bytes: number) => {} };

/** How long a call may take before it counts as failed (docs/device-protocol.md 2, "Timeouts and retries"). */
export const CALL_TIMEOUT_MS = 30_000;

/**
 * Aborted after `ms` or when `signal` (when given) aborts, whichever comes first; by hand, not
 * AbortSignal.timeout / any: a screen's WebView may predate them.
 */
export function deadline(ms: number, signal?: AbortSignal): AbortSignal {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), ms);
  controller.signal.addEventListener('abort', () => clearTimeout(timer), { once: true });
  if (signal?.aborted) controller.abort();
  else signal?.addEventListener('abort', () => controller.abort(), { once: true });
  return controller.signal;
}

async function post<T>(
  path: string,
  body: unknown,
  credentials?: DeviceCredentials,
  signal?: AbortSignal,
  timeoutMs = CALL_TIMEOUT_MS,
): Promise<T> {
  const headers: Record<string, string> = { 'content-type': 'application/json', 'accept-language': locale };
  if (credentials) headers.authorization = basic(credentials);
  const text = JSON.stringify(body);
  sent.listener(new TextEncoder().encode(text).length);
  return envelope<T>(await fetch(path, { method: 'POST', headers, body: text, signal: deadline(timeoutMs, signal) }));
}

export interface PairingAnswer {
  pairingId: string;
  code: string;
  pollToken: string;
  qr: string;
  expiresAt: number;
  pollIntervalMs: number;
}

export const api = {
  pair: (version: string, number?: string) =>
    post<PairingAnswer>(deviceHttpCalls.pair.path, {
      ...(number ? { number } : {}),
      player: { version, model: 'browser' },
    }),
  poll: (pairingId: string, pollToken: string, signal?: AbortSignal) =>
    post<{ status: 'pending' | 'bound'; expiresAt: number }>(
      deviceHttpCalls.poll.path,
      { pairingId, pollToken, waitMs: MAX_POLL_WAIT_MS },
      undefined,
      signal,
      MAX_POLL_WAIT_MS + 10_000,
    ),
  credentials: (pairingId: string, pollToken: string) =>
    post<DeviceCredentials>(deviceHttpCalls.credentials.path, { pairingId, pollToken }),
  status: (credentials: DeviceCredentials) =>
    post<{ status: 'active'; name: string }>(deviceHttpCalls.status.path, {}, credentials),
  async manifest(credentials: DeviceCredentials): Promise<DeviceManifest> {
    const response = await fetch(MANIFEST_PATH, {
      headers: { authorization: basic(credentials), 'accept-language': locale },
      cache: 'no-store',
      signal: deadline(CALL_TIMEOUT_MS),
    });
    return envelope<DeviceManifest>(response);
  },
  /** The server's clock (ms), for the shared clock of a wall (logic/clock.ts). */
  async time(): Promise<number> {
    const response = await fetch(deviceHttpCalls.time.path, { cache: 'no-store' });
    return (await envelope<{ now: number }>(response)).now;
  },
  /** The weather components' readings (2.7.6). */
  weather: (credentials: DeviceCredentials, cities: string[]) =>
    post<{ provider: string | null; readings: WeatherLookup }>(deviceHttpCalls.weather.path, { cities }, credentials),
  /** The share-price components' quotes (2.7.7). */
  shares: (credentials: DeviceCredentials, symbols: string[]) =>
    post<{ provider: string | null; quotes: SharesLookup }>(deviceHttpCalls.shares.path, { symbols }, credentials),
  plays: (credentials: DeviceCredentials, events: PlayEvent[]) =>
    post<PlaysAnswer>(PLAYS_PATH, { events }, credentials),
  /** The data usage samples (2.9); answered like plays. */
  usage: (credentials: DeviceCredentials, samples: UsageSample[]) =>
    post<PlaysAnswer>(USAGE_PATH, { samples }, credentials),
  /** A one-key alarm (2.10), its screenshot inline; a longer timeout for the image. */
  alarm: (credentials: DeviceCredentials, alarm: AlarmRaise) =>
    post<AlarmAnswer>(ALARMS_PATH, alarm, credentials, undefined, CALL_TIMEOUT_MS * 2),
  async screenshot(credentials: DeviceCredentials, commandId: string, image: Blob) {
    sent.listener(image.size);
    const response = await fetch(screenshotUploadPath(commandId), {
      method: 'POST',
      headers: { authorization: basic(credentials), 'content-type': image.type, 'accept-language': locale },
      body: image,
      signal: deadline(CALL_TIMEOUT_MS),
    });
    return envelope<{ screenshotId: string; size: number; width: number; height: number }>(response);
  },
};
