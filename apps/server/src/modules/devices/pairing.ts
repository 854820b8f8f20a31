import { randomBytes, randomInt } from 'node:crypto';
import {
  DEFAULT_HEARTBEAT_SEC,
  type DeviceCredentials,
  ErrorCode,
  MAX_POLL_WAIT_MS,
  PAIRING_CODE_ALPHABET,
  PAIRING_CODE_LENGTH,
  PAIRING_TTL_MS,
  type PairingCandidate,
  TOPIC_ROOT,
} from '@marquee/protocol';
import { and, desc, eq, gt, isNull, type SQL } from 'drizzle-orm';
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

/** The invalidation topic on which an instance tells the others that a pairing was bound (a held poll answers). */
export const PAIRING_BOUND_TOPIC = 'device-pairing';
/**
 * While a poll is held, the pairing is read again this often: a binding whose notification was
 * lost (the LISTEN connection was down) is still seen within this.
 */
const POLL_RECHECK_MS = 5000;

/**
 * The polls held on this instance (long poll, docs/device-protocol.md 2.2), by pairing id: a
 * binding wakes them at once (the in-process event on the instance that bound it, the
 * instances' LISTEN/NOTIFY channel on the others); a stop releases them all (they answer
 * `pending`, and the player polls again, reaching another instance).
 */
export class PairingWaits {
  private readonly waiting = new Map<string, Set<() => void>>();
  private closed = false;

  get isClosed(): boolean {
    return this.closed;
  }

  /**
   * Registers a wait for `pairingId` now (before the caller reads the row, so a binding in
   * between is not missed); `ready` resolves on a wake, after `ms`, on abort or on close.
   */
  wait(pairingId: string, ms: number, signal?: AbortSignal): { ready: Promise<void>; cancel: () => void } {
    let release = () => {};
    const ready = new Promise<void>((resolve) => {
      if (this.closed || signal?.aborted) return resolve();
      const timer = setTimeout(() => release(), Math.max(0, ms));
      const onAbort = () => release();
      release = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        const set = this.waiting.get(pairingId);
        set?.delete(release);
        if (set?.size === 0) this.waiting.delete(pairingId);
        resolve();
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      const set = this.waiting.get(pairingId) ?? new Set<() => void>();
      this.waiting.set(pairingId, set);
      set.add(release);
    });
    return { ready, cancel: () => release() };
  }

  /** The pairing was bound: its held polls read it again now. */
  wake(pairingId: string): void {
    for (const release of [...(this.waiting.get(pairingId) ?? [])]) release();
  }

  /** Every held poll reads its pairing again (notifications may have been missed). */
  wakeAll(): void {
    for (const set of [...this.waiting.values()]) for (const release of [...set]) release();
  }

  /** The server stops: every held poll answers now, and no new one waits. */
  close(): void {
    this.closed = true;
    this.wakeAll();
  }

  /** Polls held now (tests). */
  get size(): number {
    let n = 0;
    for (const set of this.waiting.values()) n += set.size;
    return n;
  }
}

const waitsOf = new WeakMap<AppServices, PairingWaits>();

/** The held polls of this app instance. */
export function pairingWaits(services: AppServices): PairingWaits {
  let waits = waitsOf.get(services);
  if (!waits) {
    waits = new PairingWaits();
    waitsOf.set(services, waits);
  }
  return waits;
}

/**
 * After the binding of a pairing committed (console add-device): its held polls answer now,
 * on this instance and, over the shared LISTEN/NOTIFY channel, on the others.
 */
export function pairingBound(services: AppServices, pairingId: string): void {
  pairingWaits(services).wake(pairingId);
  services.bus.publish(PAIRING_BOUND_TOPIC, 'pairing', pairingId);
}

/**
 * Whether the pairing was bound yet; holds the answer up to `waitMs` (at most
 * MAX_POLL_WAIT_MS) while it is pending, answering as soon as it is bound (long poll), or
 * `pending` when the wait ends, the player went away or the server stops.
 */
export async function pollPairing(
  services: AppServices,
  input: { pairingId: string; pollToken: string; waitMs: number },
  signal?: AbortSignal,
) {
  const waits = pairingWaits(services);
  const deadline = Date.now() + Math.min(Math.max(0, input.waitMs), MAX_POLL_WAIT_MS);
  for (;;) {
    const remaining = deadline - Date.now();
    const held = waits.wait(input.pairingId, Math.min(POLL_RECHECK_MS, remaining), signal);
    try {
      const row = await loadOwnPairing(services.db, input.pairingId, input.pollToken);
      if (row.claimedAt) throw new AppError(ErrorCode.CREDENTIALS_TAKEN);
      if (!live(row, services.clock())) throw new AppError(ErrorCode.PAIRING_CODE_INVALID);
      if (row.deviceId) return { status: 'bound' as const, expiresAt: row.expiresAt.getTime() };
      if (remaining <= 0 || signal?.aborted || waits.isClosed) {
        return { status: 'pending' as const, expiresAt: row.expiresAt.getTime() };
      }
      await held.ready;
    } finally {
      held.cancel();
    }
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

/** Live, unbound pairings (console add-device). */
function openPairings(match: SQL | undefined, now: number) {
  return and(match, gt(devicePairings.expiresAt, new Date(now)), isNull(devicePairings.deviceId));
}

/**
 * The live, unbound pairing with this code or number (console add-device). By number, when
 * several live pairings report it, PAIRING_NUMBER_AMBIGUOUS: anyone who can reach the
 * pairing call may report a screen's serial, and binding the newest would hand them the
 * screen's credentials; the operator adds by the code the screen shows instead.
 */
export async function findOpenPairing(db: Executor, by: { code?: string; number?: string }, now: number) {
  const match = by.code ? eq(devicePairings.code, by.code) : eq(devicePairings.number, by.number ?? '');
  const rows = await db
    .select()
    .from(devicePairings)
    .where(openPairings(match, now))
    .orderBy(desc(devicePairings.createdAt))
    .limit(2);
  if (!by.code && rows.length > 1) throw new AppError(ErrorCode.PAIRING_NUMBER_AMBIGUOUS);
  return rows[0];
}

/** Most candidates device.pairingCandidates lists. */
const MAX_CANDIDATES = 20;

/** The live, unbound pairings that report `number`, newest first (device.pairingCandidates). */
export async function pairingCandidates(db: Executor, number: string, now: number): Promise<PairingCandidate[]> {
  const rows = await db
    .select()
    .from(devicePairings)
    .where(openPairings(eq(devicePairings.number, number), now))
    .orderBy(desc(devicePairings.createdAt))
    .limit(MAX_CANDIDATES);
  return rows.map((r) => ({
    code: r.code,
    createdAt: r.createdAt.toISOString(),
    expiresAt: r.expiresAt.toISOString(),
    ip: r.ip,
    playerVersion: r.playerVersion,
    model: r.model,
  }));
}
