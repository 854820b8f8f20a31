/** Time formatting for clocks and countdowns, with Intl (no date library in the player). */

interface Parts {
  year: string;
  month: string;
  day: string;
  hour: number;
  minute: string;
  second: string;
  weekday: string;
}

function parts(ms: number, timeZone: string | undefined, locale: string): Parts {
  const opts: Intl.DateTimeFormatOptions = {
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
    timeZone: timeZone || undefined,
  };
  const out: Record<string, string> = {};
  for (const p of new Intl.DateTimeFormat('en-US', opts).formatToParts(ms)) out[p.type] = p.value;
  const weekday = new Intl.DateTimeFormat(locale, { weekday: 'short', timeZone: timeZone || undefined }).format(ms);
  return {
    year: out.year,
    month: out.month,
    day: out.day,
    hour: Number(out.hour) % 24,
    minute: out.minute,
    second: out.second,
    weekday,
  };
}

const pad = (n: number) => String(n).padStart(2, '0');

/** Formats `ms` with tokens YYYY MM DD HH hh mm ss A ddd (other characters kept as written). */
export function formatClock(ms: number, format: string, timeZone: string, locale: string): string {
  let p: Parts;
  try {
    p = parts(ms, timeZone, locale);
  } catch {
    p = parts(ms, undefined, locale);
  }
  return format.replace(/YYYY|MM|DD|HH|hh|mm|ss|A|ddd/g, (token) => {
    switch (token) {
      case 'YYYY':
        return p.year;
      case 'MM':
        return p.month;
      case 'DD':
        return p.day;
      case 'HH':
        return pad(p.hour);
      case 'hh':
        return pad(p.hour % 12 === 0 ? 12 : p.hour % 12);
      case 'mm':
        return p.minute;
      case 'ss':
        return p.second;
      case 'A':
        return p.hour < 12 ? 'AM' : 'PM';
      default:
        return p.weekday;
    }
  });
}

export interface CountdownParts {
  done: boolean;
  days: number;
  hours: number;
  minutes: number;
  seconds: number;
  totalHours: number;
}

export function countdownParts(targetMs: number, nowMs: number): CountdownParts {
  const left = Math.max(0, Math.ceil((targetMs - nowMs) / 1000));
  const days = Math.floor(left / 86400);
  const hours = Math.floor((left % 86400) / 3600);
  return {
    done: left === 0,
    days,
    hours,
    minutes: Math.floor((left % 3600) / 60),
    seconds: left % 60,
    totalHours: days * 24 + hours,
  };
}

export function hms(h: number, m: number, s: number): string {
  return `${pad(h)}:${pad(m)}:${pad(s)}`;
}
