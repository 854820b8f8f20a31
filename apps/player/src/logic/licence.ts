import type { DeviceManifest } from '@marquee/protocol';

/**
 * Whether the manifest in use says the device's licence has expired (docs/device-protocol.md
 * 2.7, issue 27): the server then sends no items, and the player shows its fallback screen
 * with the reason instead of "nothing scheduled", until a manifest brings items again. A
 * manifest without `licence` (an older server) is licensed.
 */
export function licenceExpired(manifest: DeviceManifest | null): boolean {
  return manifest?.licence?.state === 'expired';
}

/** What the running player's screen shows: the expired notice, the nothing-scheduled notice, or the content. */
export function fallbackScreen(manifest: DeviceManifest | null, playable: number): 'expired' | 'nothing' | null {
  if (licenceExpired(manifest)) return 'expired';
  return playable === 0 ? 'nothing' : null;
}
