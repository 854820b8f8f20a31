import type { TFunction } from 'i18next';

/** Seconds as hours and minutes ("18 h 5 min"). */
export function hoursText(t: TFunction, sec: number): string {
  const minutes = Math.round(sec / 60);
  return t('hours', { h: Math.floor(minutes / 60), m: minutes % 60 });
}

/** Milliseconds of play as minutes and seconds ("12 min 30 s"), hours beyond an hour. */
export function playText(t: TFunction, ms: number): string {
  const sec = Math.round(ms / 1000);
  if (sec >= 3600) return hoursText(t, sec);
  return t('minutes', { m: Math.floor(sec / 60), s: sec % 60 });
}
