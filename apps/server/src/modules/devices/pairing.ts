import { randomBytes, randomInt } from 'node:crypto';
import {
  DEFAULT_HEARTBEAT_SEC,
  type DeviceCredentials,
  ErrorCode,
  PAIRING_CODE_ALPHABET,
  PAIRING_CODE_LENGTH,
  PAIRING_TTL_MS,
  TOPIC_ROOT,
} from '@marquee/protocol';
import { and, desc, eq, gt, isNull } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { devicePairings, devices } from '../../db/schema/index.js';
import { AppError } from '../../protocol/appError.js';
import { insertOperationLog } from '../../protocol/auditLog.js';
import type { AppServices } from '../../services.js';
import { matchesHash, sha256 } from './repository.js';

/** A bound pairing's credentials can be collected this long after the binding. */
const CLAIM_WINDOW_MS = 24 * 3600_000;
/** Suggested pause between polls. */
const POLL_INTERVAL_MS = 3000;

function pairingCode(): string {
  let code = '';
  for (let i = 0; i < PAIRING_CODE_LENGTH; i++) code += PAIRING_CODE_ALPHABET[randomInt(PAIRING_CODE_ALPHABET.length)];
  return code;
}

/** Starts a pairing: a code unique among live pairings and the player's poll token. */
export async function startPairing(
  services: AppServices,
  input: { number?: string; player?: { version: string; model?: string } },
  ip: string,
) {
  const now = services.clock();
  const expiresAt = new Date(now + PAIRING_TTL_MS);
  const pollToken = randomBytes(24).toString('base64url');
  for (let attempt = 0; attempt < 8; attempt++) {
    const code = pairingCode();
    const [taken] = await services.db
      .select({ id: devicePairings.id })
      .from(devicePairings)
      .where(and(eq(devicePairings.code, code), gt(devicePairings.expiresAt, new Date(now))))
      .limit(1);
    if (taken) continue;
    const [row] = await services.db
      .insert(devicePairings)
      .values({
        code,
        tokenHash: sha256(pollToken),
        number: input.number ?? null,
        playerVersion: input.player?.version ?? null,
        model: input.player?.model ?? null,
        ip,
        expiresAt,
        createdAt: new Date(now),
      })
      .returning({ id: devicePairings.id });
    return {
      pairingId: row.id,
      code,
      pollToken,
      qr: `${services.config.publicUrl}/device?pair=${code}`,
      expiresAt: expiresAt.getTime(),
      pollIntervalMs: POLL_INTERVAL_MS,
    };
  }
  throw new Error('no free pairing code after 8 attempts');
}

/** The pairing the player names with its poll token, or PAIRING_CODE_INVALID. */
async function loadOwnPairing(db: Executor, pairingId: string, pollToken: string) {
  const [row] = await db.select().from(devicePairings).where(eq(devicePairings.id, pairingId));
  if (!row || !matchesHash(pollToken, row.tokenHash)) throw new AppError(ErrorCode.PAIRING_CODE_INVALID);
  return row;
}

function live(row: { expiresAt: Date; boundAt: Date | null }, now: number): boolean {
  return row.boundAt ? row.boundAt.getTime() + CLAIM_WINDOW_MS > now : row.expiresAt.getTime() > now;
}

/** Whether the pairing was bound yet; waits up to `waitMs` for it (long poll). */
export async function pollPairing(
  services: AppServices,
  input: { pairingId: string; pollToken: string; waitMs: number },
  signal?: AbortSignal,
) {
  const deadline = Date.now() + input.waitMs;
  for (;;) {
    const row = await loadOwnPairing(services.db, input.pairingId, input.pollToken);
    if (row.claimedAt) throw new AppError(ErrorCode.CREDENTIALS_TAKEN);
    if (!live(row, services.clock())) throw new AppError(ErrorCode.PAIRING_CODE_INVALID);
    if (row.deviceId) return { status: 'bound' as const, expiresAt: row.expiresAt.getTime() };
    if (Date.now() >= deadline || signal?.aborted)
      return { status: 'pending' as const, expiresAt: row.expiresAt.getTime() };
    await new Promise((resolve) => setTimeout(resolve, Math.min(500, deadline - Date.now())));
  }
}

/**
 * The broker URLs a device is given: MQTT_PUBLIC_URLS, or what the player reached the server
 * by, then (the embedded broker, several instances) every other live instance's broker, to
 * fail over to when this one stops.
 */
export function brokerUrls(services: AppServices, request: { protocol: string; host: string; hostname: string }) {
  const { mqtt } = services.config;
  if (mqtt.publicUrls.length > 0) return mqtt.publicUrls;
  if (mqtt.url) {
    const u = new URL(mqtt.url);
    u.username = '';
    u.password = '';
    return [u.toString().replace(/\/$/, '')];
  }
  const ws = `${request.protocol === 'https' ? 'wss' : 'ws'}://${request.host}/mqtt`;
  const tcpPort = services.devices.tcpPort;
  const own = tcpPort > 0 ? [ws, `mqtt://${request.hostname}:${tcpPort}`] : [ws];
  return [...new Set([...own, ...services.devices.peerBrokerUrls])];
}

/**
 * Hands the device its credentials, once: a new random password whose sha256 is stored,
 * and, for Mosquitto, the device's dynsec client and role. A second call answers
 * CREDENTIALS_TAKEN; a device that lost them is paired again.
 */
export async function claimCredentials(
  services: AppServices,
  input: { pairingId: string; pollToken: string },
  urls: string[],
  ip: string,
): Promise<DeviceCredentials> {
  const now = services.clock();
  const pairing = await loadOwnPairing(services.db, input.pairingId, input.pollToken);
  if (pairing.claimedAt) throw new AppError(ErrorCode.CREDENTIALS_TAKEN);
  if (!live(pairing, now)) throw new AppError(ErrorCode.PAIRING_CODE_INVALID);
  const deviceId = pairing.deviceId;
  if (!deviceId) throw new AppError(ErrorCode.PAIRING_PENDING);
  const password = randomBytes(24).toString('base64url');
  const at = new Date(now);
  const credentials: DeviceCredentials = await services.db.transaction(async (tx) => {
    const claimed = await tx
      .update(devicePairings)
      .set({ claimedAt: at })
      .where(and(eq(devicePairings.id, pairing.id), isNull(devicePairings.claimedAt)))
      .returning({ id: devicePairings.id });
    if (claimed.length === 0) throw new AppError(ErrorCode.CREDENTIALS_TAKEN);
    const [device] = await tx
      .update(devices)
      .set({ secretHash: sha256(password), activatedAt: at, updatedAt: at })
      .where(eq(devices.id, deviceId))
      .returning({ id: devices.id, entId: devices.entId, name: devices.name, heartbeatSec: devices.heartbeatSec });
    if (!device) throw new AppError(ErrorCode.PAIRING_CODE_INVALID);
    // The player is the actor: no account; the log names it by the device's name, as a reader knows it.
    await insertOperationLog(tx, {
      entId: device.entId,
      accountId: null,
      loginName: device.name,
      module: 'device',
      action: 'activate',
      targetType: 'device',
      targetId: device.id,
      targetName: device.name,
      detail: { pairingId: pairing.id },
      ip,
      traceKey: '',
      endpoint: 'dapi.pairing.credentials',
      result: 'success',
      createdAt: at,
    });
    // The broker learns the password before the player can use it (rolled back with the claim on failure).
    await services.devices.accounts.provision(device.id, password);
    return {
      deviceId: device.id,
      username: device.id,
      password,
      clientId: device.id,
      brokerUrls: urls,
      topicPrefix: `${TOPIC_ROOT}/${device.id}`,
      heartbeatSec: device.heartbeatSec || DEFAULT_HEARTBEAT_SEC,
      name: device.name,
    };
  });
  return credentials;
}

/** The newest live, unbound pairing with this code or number (console add-device). */
export async function findOpenPairing(db: Executor, by: { code?: string; number?: string }, now: number) {
  const match = by.code ? eq(devicePairings.code, by.code) : eq(devicePairings.number, by.number ?? '');
  const [row] = await db
    .select()
    .from(devicePairings)
    .where(and(match, gt(devicePairings.expiresAt, new Date(now)), isNull(devicePairings.deviceId)))
    .orderBy(desc(devicePairings.createdAt))
    .limit(1);
  return row;
}
