import { timingSafeEqual } from 'node:crypto';
import { deviceMayAccess } from '@marquee/protocol';
import { eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { devices } from '../../db/schema/index.js';
import type { BrokerAccess } from '../../mqtt/embedded.js';
import { matchesHash } from './repository.js';

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * Who may connect to the device broker and what each may touch: the rule of the embedded
 * broker's hooks and of the EMQX HTTP authenticator and authorizer (emqx.ts). A device
 * connects with username = client id = its id and the password it received at activation
 * (only its sha256 is stored); a disabled device ('invalid') is refused. The server's
 * internal client may do anything; devices only their own topics (deviceMayAccess).
 */
export class DeviceAccess implements BrokerAccess {
  constructor(
    private readonly db: Executor,
    readonly internal: { username: string; password: string },
  ) {}

  async authenticate(username: string, password: string, clientId: string): Promise<'device' | 'internal' | null> {
    if (username === this.internal.username) {
      return sameText(password, this.internal.password) ? 'internal' : null;
    }
    if (clientId !== username || username.length > 64) return null;
    const [device] = await this.db
      .select({ secretHash: devices.secretHash, status: devices.status })
      .from(devices)
      .where(eq(devices.id, username));
    if (!device || device.status === 'invalid') return null;
    return matchesHash(password, device.secretHash) ? 'device' : null;
  }

  authorize(username: string, action: 'publish' | 'subscribe', topic: string): boolean {
    if (username === this.internal.username) return true;
    return deviceMayAccess(username, action, topic);
  }

  /**
   * The topic rule plus the device's registry state, for brokers that keep a connection
   * after its device was deleted or disabled (EMQX asks at each publish and subscribe):
   * a device that no longer exists or is `invalid` is denied everything.
   */
  async authorizeLive(username: string, action: 'publish' | 'subscribe', topic: string): Promise<boolean> {
    if (!this.authorize(username, action, topic)) return false;
    if (username === this.internal.username) return true;
    const [device] = await this.db.select({ status: devices.status }).from(devices).where(eq(devices.id, username));
    return Boolean(device) && device.status !== 'invalid';
  }

  /**
   * Why a player's credentials open the broker or not (the player's status call): `active`,
   * `disabled`, or `removed` (no such device, or the credentials were replaced).
   */
  async credentialStatus(
    username: string,
    password: string,
  ): Promise<{ status: 'active' | 'disabled'; name: string } | { status: 'removed' }> {
    if (username.length > 64 || username === this.internal.username) return { status: 'removed' };
    const [device] = await this.db
      .select({ secretHash: devices.secretHash, status: devices.status, name: devices.name })
      .from(devices)
      .where(eq(devices.id, username));
    if (!device || !matchesHash(password, device.secretHash)) return { status: 'removed' };
    return { status: device.status === 'invalid' ? 'disabled' : 'active', name: device.name };
  }
}
