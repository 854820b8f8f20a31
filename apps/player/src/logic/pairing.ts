import { ErrorCode } from '@marquee/protocol';

/**
 * Pairing (docs/device-protocol.md 2.1-2.3) as the browser player runs it, free of the
 * browser: the pending pairing (code, poll token, expiry) is kept in the player's storage
 * the moment it is made, so a reload resumes polling the same pairing and shows the same
 * code (the one an operator may be typing) until it expires; only then is a new one asked for.
 */

/** A pairing the player asked for and has not collected the credentials of yet. */
export interface PendingPairing {
  pairingId: string;
  pollToken: string;
  code: string;
  qr: string;
  expiresAt: number;
}

/** The storage key of the pending pairing. */
export const PENDING_PAIRING_KEY = 'pairing';
/** A stored pairing this close to its expiry is not resumed (a code about to die is not worth showing). */
export const RESUME_MARGIN_MS = 30_000;

export interface PairingStore {
  get<T>(key: string): Promise<T | null>;
  set(key: string, value: unknown): Promise<void>;
}

export interface PairingApi<C> {
  pair(): Promise<PendingPairing>;
  poll(pairingId: string, pollToken: string): Promise<{ status: 'pending' | 'bound'; expiresAt: number }>;
  credentials(pairingId: string, pollToken: string): Promise<C>;
}

/** The stored pairing when it can still be resumed at `now`, else null. */
export function resumablePairing(stored: PendingPairing | null, now: number): PendingPairing | null {
  if (!stored || typeof stored.pairingId !== 'string' || typeof stored.pollToken !== 'string') return null;
  if (typeof stored.code !== 'string' || typeof stored.expiresAt !== 'number') return null;
  return stored.expiresAt - RESUME_MARGIN_MS > now ? stored : null;
}

/** An error of a device call with its envelope code (the player's DeviceApiError). */
function codeOf(error: unknown): number | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'number' ? code : undefined;
}

/**
 * Runs one pairing to its credentials: resumes the stored pending pairing (or asks for a new
 * one and stores it first), shows its code (`show`), long polls until it is bound, collects
 * the credentials and forgets the pairing. A pairing that expired, is unknown to the server
 * or whose credentials were taken is forgotten and a new one asked for. Other failures
 * (network, server) are thrown with the pairing kept, to be resumed by the next attempt.
 */
export async function runPairing<C>(options: {
  api: PairingApi<C>;
  store: PairingStore;
  now: () => number;
  show: (pairing: PendingPairing) => void;
}): Promise<C> {
  const { api, store, now, show } = options;
  for (;;) {
    let pairing = resumablePairing(await store.get<PendingPairing>(PENDING_PAIRING_KEY), now());
    if (!pairing) {
      const fresh = await api.pair();
      pairing = {
        pairingId: fresh.pairingId,
        pollToken: fresh.pollToken,
        code: fresh.code,
        qr: fresh.qr,
        expiresAt: fresh.expiresAt,
      };
      await store.set(PENDING_PAIRING_KEY, pairing);
    }
    show(pairing);
    try {
      // Polls until bound or until the server says the pairing is over (PAIRING_CODE_INVALID):
      // its expiry is an instant of the server's clock, which a screen's clock may be hours
      // away from (a device whose clock ran ahead never polled and asked for pairing after pairing).
      for (;;) {
        const answer = await api.poll(pairing.pairingId, pairing.pollToken);
        if (answer.status !== 'bound') continue;
        const credentials = await api.credentials(pairing.pairingId, pairing.pollToken);
        await store.set(PENDING_PAIRING_KEY, null);
        return credentials;
      }
    } catch (error) {
      const code = codeOf(error);
      if (code !== ErrorCode.PAIRING_CODE_INVALID && code !== ErrorCode.CREDENTIALS_TAKEN) throw error;
    }
    // Expired, unknown or used up: a new pairing.
    await store.set(PENDING_PAIRING_KEY, null);
  }
}

/** The storage key of the device number the browser player reports. */
export const DEVICE_NUMBER_KEY = 'number';
const NUMBER_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * The device number the player reports at pairing (the console's 设备编号): `?number=` of the
 * player's URL (a kiosk launcher passes the screen's serial), else the one stored, else a new
 * `WEB-` + 12 random characters (`random` gives them), kept from then on.
 */
export function chooseDeviceNumber(fromUrl: string | null, stored: string | null, random: () => string): string {
  if (fromUrl && NUMBER_PATTERN.test(fromUrl.trim())) return fromUrl.trim();
  if (stored && NUMBER_PATTERN.test(stored)) return stored;
  return `WEB-${random()
    .replace(/[^A-Za-z0-9]/g, '')
    .slice(0, 12)
    .toUpperCase()}`;
}

/** A MAC address as the heartbeat reports it (`aa:bb:cc:dd:ee:ff`), or '' when `value` is none. */
export function normalMac(value: string | null): string {
  const hex = (value ?? '').replace(/[^0-9A-Fa-f]/g, '');
  return hex.length === 12 ? hex.toLowerCase().replace(/(..)(?!$)/g, '$1:') : '';
}
