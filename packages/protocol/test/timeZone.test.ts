import { describe, expect, it } from 'vitest';
import {
  dayBounds,
  formatOffset,
  isTimeZone,
  liveSeconds,
  nextDay,
  periodWindows,
  powerOnAt,
  scheduleAllows,
  timeZoneList,
  wallClock,
  zonedDayStart,
  zonedInstant,
  zoneOffsetMinutes,
} from '../src/index.js';

const utc = (iso: string) => Date.parse(iso);
const H = 3600_000;

describe('wall clocks in a zone', () => {
  it('reads the same instant as each zone’s own day, weekday and minute', () => {
    const at = utc('2026-11-29T23:30:00Z'); // a Sunday in UTC
    expect(wallClock(at, 'UTC')).toMatchObject({ day: '2026-11-29', weekday: 7, minute: 23 * 60 + 30 });
    expect(wallClock(at, 'Asia/Shanghai')).toMatchObject({ day: '2026-11-30', weekday: 1, minute: 7 * 60 + 30 });
    expect(wallClock(at, 'Asia/Tokyo')).toMatchObject({ day: '2026-11-30', weekday: 1, minute: 8 * 60 + 30 });
    expect(wallClock(at, 'Asia/Kolkata')).toMatchObject({ day: '2026-11-30', minute: 5 * 60 });
    expect(wallClock(at, 'Asia/Kathmandu')).toMatchObject({ day: '2026-11-30', minute: 5 * 60 + 15 });
  });

  it('knows IANA names and refuses others', () => {
    expect(isTimeZone('Asia/Shanghai')).toBe(true);
    expect(isTimeZone('UTC')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
    expect(isTimeZone('')).toBe(false);
  });

  it('gives offsets as people read them, half and three-quarter hours included', () => {
    const at = utc('2026-07-01T00:00:00Z');
    expect(zoneOffsetMinutes(at, 'Asia/Shanghai')).toBe(480);
    expect(zoneOffsetMinutes(at, 'Europe/Berlin')).toBe(120);
    expect(zoneOffsetMinutes(utc('2026-01-01T00:00:00Z'), 'Europe/Berlin')).toBe(60);
    expect(zoneOffsetMinutes(at, 'America/St_Johns')).toBe(-150);
    expect(formatOffset(zoneOffsetMinutes(at, 'Asia/Kathmandu'))).toBe('UTC+05:45');
    expect(formatOffset(-150)).toBe('UTC-02:30');
    const list = timeZoneList(at);
    expect(list.find((z) => z.name === 'Asia/Tokyo')?.offsetMinutes).toBe(540);
    expect(list.map((z) => z.offsetMinutes)).toEqual([...list.map((z) => z.offsetMinutes)].sort((a, b) => a - b));
  });
});

describe('local times to instants (Europe/Berlin across its changes)', () => {
  it('maps midnights and 07:00 to the right instants on ordinary and change days', () => {
    expect(zonedDayStart('2026-03-28', 'Europe/Berlin')).toBe(utc('2026-03-27T23:00:00Z'));
    expect(zonedDayStart('2026-03-29', 'Europe/Berlin')).toBe(utc('2026-03-28T23:00:00Z'));
    expect(zonedInstant('2026-03-29', 7 * 60, 'Europe/Berlin')).toBe(utc('2026-03-29T05:00:00Z'));
    expect(zonedDayStart('2026-03-30', 'Europe/Berlin')).toBe(utc('2026-03-29T22:00:00Z'));
    expect(zonedInstant('2026-10-25', 7 * 60, 'Europe/Berlin')).toBe(utc('2026-10-25T06:00:00Z'));
    expect(zonedInstant('2026-11-29', 7 * 60, 'Asia/Shanghai')).toBe(utc('2026-11-28T23:00:00Z'));
  });

  it('reads a wall time the spring gap skips with the offset before it, and an ambiguous one as its first', () => {
    // 02:30 does not exist on 29 March: read as 02:30 CET = 01:30 UTC (03:30 CEST).
    expect(zonedInstant('2026-03-29', 150, 'Europe/Berlin')).toBe(utc('2026-03-29T01:30:00Z'));
    // 02:30 happens twice on 25 October: the first (CEST) is 00:30 UTC.
    expect(zonedInstant('2026-10-25', 150, 'Europe/Berlin')).toBe(utc('2026-10-25T00:30:00Z'));
  });

  it('has a 23-hour day in spring and a 25-hour day in autumn', () => {
    const len = (day: string) => zonedDayStart(nextDay(day), 'Europe/Berlin') - zonedDayStart(day, 'Europe/Berlin');
    expect(len('2026-03-29')).toBe(23 * H);
    expect(len('2026-10-25')).toBe(25 * H);
    expect(len('2026-11-29')).toBe(24 * H);
  });
});

describe('schedules on the device’s wall clock', () => {
  const morning = { periods: [{ start: '07:00', end: '09:00' }] };

  it('plays a 07:00-09:00 item at each zone’s own 07:00', () => {
    // 22:30 UTC is 06:30 in Shanghai and 07:30 in Tokyo.
    const at = utc('2026-11-29T22:30:00Z');
    expect(scheduleAllows(morning, at, 'Asia/Tokyo')).toBe(true);
    expect(scheduleAllows(morning, at, 'Asia/Shanghai')).toBe(false);
    // An hour later both are inside 07:00-09:00.
    expect(scheduleAllows(morning, at + H, 'Asia/Shanghai')).toBe(true);
    expect(scheduleAllows(morning, at + H, 'Asia/Tokyo')).toBe(true);
    // Two hours later Tokyo's window has closed (09:30) and Shanghai's is still open (08:30).
    expect(scheduleAllows(morning, at + 2 * H, 'Asia/Tokyo')).toBe(false);
    expect(scheduleAllows(morning, at + 2 * H, 'Asia/Shanghai')).toBe(true);
  });

  it('follows Berlin’s clock across the spring change (07:00 is an hour earlier in UTC)', () => {
    expect(scheduleAllows(morning, utc('2026-03-28T06:00:00Z'), 'Europe/Berlin')).toBe(true);
    expect(scheduleAllows(morning, utc('2026-03-28T05:30:00Z'), 'Europe/Berlin')).toBe(false);
    expect(scheduleAllows(morning, utc('2026-03-29T05:00:00Z'), 'Europe/Berlin')).toBe(true);
    expect(scheduleAllows(morning, utc('2026-03-29T07:00:00Z'), 'Europe/Berlin')).toBe(false);
  });

  it('reads weekdays in the zone and power windows likewise', () => {
    // Sunday 20:00 UTC is Monday 04:00 in Shanghai.
    const at = utc('2026-11-29T20:00:00Z');
    expect(scheduleAllows({ weekdays: [1] }, at, 'Asia/Shanghai')).toBe(true);
    expect(scheduleAllows({ weekdays: [1] }, at, 'UTC')).toBe(false);
    const rules = { weekly: [{ weekdays: [1, 2, 3, 4, 5, 6, 7], off: '00:00', on: '06:00' }], once: [] };
    expect(powerOnAt(rules, at, 'Asia/Shanghai')).toBe(false);
    expect(powerOnAt(rules, at, 'UTC')).toBe(true);
  });
});

describe('expected live seconds of a UTC day in a device’s zone', () => {
  const ad = { periods: [{ start: '07:00', end: '09:00' }], liveFrom: 0, liveUntil: Number.MAX_SAFE_INTEGER };

  it('counts each zone’s 07:00-09:00 wherever it falls in the UTC day', () => {
    expect(liveSeconds(ad, '2026-11-29', 'UTC')).toBe(2 * 3600);
    // Shanghai's 07:00-09:00 is 23:00-01:00 UTC: the UTC day holds the end of one (00:00-01:00)
    // and the start of the next (23:00-24:00).
    expect(liveSeconds(ad, '2026-11-29', 'Asia/Shanghai')).toBe(2 * 3600);
    expect(
      periodWindows(ad.periods, utc('2026-11-29T00:00:00Z'), utc('2026-11-30T00:00:00Z'), 'Asia/Shanghai'),
    ).toEqual([
      [utc('2026-11-29T00:00:00Z'), utc('2026-11-29T01:00:00Z')],
      [utc('2026-11-29T23:00:00Z'), utc('2026-11-30T00:00:00Z')],
    ]);
    // An ad live from 12:00 UTC only has the second.
    expect(liveSeconds({ ...ad, liveFrom: utc('2026-11-29T12:00:00Z') }, '2026-11-29', 'Asia/Shanghai')).toBe(3600);
    // Tokyo's is 22:00-24:00 UTC: wholly inside the UTC day.
    expect(liveSeconds(ad, '2026-11-29', 'Asia/Tokyo')).toBe(2 * 3600);
    expect(periodWindows(ad.periods, utc('2026-11-29T00:00:00Z'), utc('2026-11-30T00:00:00Z'), 'Asia/Tokyo')).toEqual([
      [utc('2026-11-29T22:00:00Z'), utc('2026-11-30T00:00:00Z')],
    ]);
  });

  it('keeps two hours on Berlin’s change days', () => {
    expect(liveSeconds(ad, '2026-03-29', 'Europe/Berlin')).toBe(2 * 3600);
    expect(liveSeconds(ad, '2026-10-25', 'Europe/Berlin')).toBe(2 * 3600);
  });
});

describe('report days of an enterprise’s zone (issue 31)', () => {
  const allDay = { periods: [], liveFrom: 0, liveUntil: Number.MAX_SAFE_INTEGER };
  const morning = { ...allDay, periods: [{ start: '07:00', end: '09:00' }] };

  it('starts a Shanghai day at its midnight, 16:00 UTC the day before', () => {
    expect(dayBounds('2026-11-29', 'Asia/Shanghai')).toEqual([
      utc('2026-11-28T16:00:00Z'),
      utc('2026-11-29T16:00:00Z'),
    ]);
    expect(dayBounds('2026-11-29')).toEqual([utc('2026-11-29T00:00:00Z'), utc('2026-11-30T00:00:00Z')]);
    // Kathmandu's day starts at 18:15 UTC: a 45-minute offset splits no day.
    expect(dayBounds('2026-11-29', 'Asia/Kathmandu')[0]).toBe(utc('2026-11-28T18:15:00Z'));
  });

  it('holds a Shanghai screen’s 07:00-09:00 whole in the Shanghai day, split in the UTC day', () => {
    expect(periodWindows(morning.periods, ...dayBounds('2026-11-29', 'Asia/Shanghai'), 'Asia/Shanghai')).toEqual([
      [utc('2026-11-28T23:00:00Z'), utc('2026-11-29T01:00:00Z')],
    ]);
    expect(liveSeconds(morning, '2026-11-29', 'Asia/Shanghai', 'Asia/Shanghai')).toBe(2 * 3600);
    // An ad live from 00:00 UTC on the 29th: in the Shanghai day only its 08:00-09:00 is left.
    const late = { ...morning, liveFrom: utc('2026-11-29T00:00:00Z') };
    expect(liveSeconds(late, '2026-11-29', 'Asia/Shanghai', 'Asia/Shanghai')).toBe(3600);
  });

  it('has 23 and 25 hours on Berlin’s change days', () => {
    expect(liveSeconds(allDay, '2026-03-29', 'Europe/Berlin', 'Europe/Berlin')).toBe(23 * 3600);
    expect(liveSeconds(allDay, '2026-10-25', 'Europe/Berlin', 'Europe/Berlin')).toBe(25 * 3600);
    expect(liveSeconds(allDay, '2026-10-26', 'Europe/Berlin', 'Europe/Berlin')).toBe(24 * 3600);
    // The morning keeps its two hours either way.
    expect(liveSeconds(morning, '2026-10-25', 'Europe/Berlin', 'Europe/Berlin')).toBe(2 * 3600);
  });
});
