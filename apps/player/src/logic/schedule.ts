import { type ManifestItem, scheduleAllows } from '@marquee/protocol';

/**
 * The wall-clock rules (an item's schedule, power, volume and brightness strategies) are the
 * protocol's (device/schedule.ts), shared with the headless player and the server; every one
 * takes the device's zone (the manifest's `timeZone`; absent, the browser's own clock).
 */
export {
  type LevelWindowRules as LevelRules,
  levelAt,
  minutesOfDay as minutesOf,
  type PowerWindowRules as PowerRules,
  powerOnAt,
  scheduleAllows,
} from '@marquee/protocol';

/** The items to play now, in manifest order (wall clock in `zone`). */
export function playableItems(items: readonly ManifestItem[], now: Date, zone?: string | null): ManifestItem[] {
  return items.filter((item) => scheduleAllows(item.schedule, now, zone));
}
