import type { Warning, WarningKind, WarningLevel, WarningState } from '@marquee/protocol';

/**
 * How the warning page reads a warning, pure so it is tested without a browser: each level's
 * and state's tag colour, and the console page its object links to (null: none the user may open).
 */
export const LEVEL_COLORS: Record<WarningLevel, string> = { notice: 'blue', warning: 'orange', critical: 'red' };
export const STATE_COLORS: Record<WarningState, string> = { open: 'red', acknowledged: 'gold', resolved: 'green' };

/** The kinds whose object is a device. */
export const DEVICE_KINDS: readonly WarningKind[] = [
  'deviceOffline',
  'deviceLongOffline',
  'deviceExpiring',
  'underDelivering',
  'downloadFailing',
];

/** The page of a warning's object. */
export function objectLink(w: Pick<Warning, 'objectType' | 'objectId' | 'objectName'>): string {
  const id = encodeURIComponent(w.objectId);
  switch (w.objectType) {
    case 'device':
      return `/device/context?id=${id}`;
    case 'ad':
      return `/advert/edit?id=${id}`;
    case 'iotCard':
      return `/operate/flow?keyword=${encodeURIComponent(w.objectName)}`;
    default:
      return '/shop';
  }
}

/** The route (for the permission check) of an object link. */
export const linkRoute = (link: string) => link.split('?')[0];
