import type { GeoPrecision } from '@marquee/protocol';
import type { TFunction } from 'i18next';

/** A point as the console shows it: latitude, longitude with six decimals (about 0.1 m). */
export function formatPoint(latitude: number, longitude: number): string {
  return `${latitude.toFixed(6)}, ${longitude.toFixed(6)}`;
}

/** What an approximate point is the centre of ('the district's centre'), in the current language. */
export function precisionText(t: TFunction, precision: GeoPrecision): string {
  return t(`precision.${precision}`, { ns: 'stores' });
}
