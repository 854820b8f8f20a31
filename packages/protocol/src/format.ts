/**
 * Display formats of spec section 9, shared by the console and the server (exports):
 * times (10-digit timestamps are seconds; default YYYY-MM-DD HH:mm:ss), sizes in
 * Bytes/KB/MB/GB/TB, and amounts in Chinese capital numerals (amounts below 1e15).
 */

/** The default time format of the spec: year-month-day hour:minute:second. */
export const TIME_FORMAT = 'YYYY-MM-DD HH:mm:ss';
/** What a missing or unreadable time shows. */
export const NO_TIME = '-';

/**
 * A time value as a Date: a Date, an ISO string, or a timestamp (number or digit string)
 * where 10 digits are seconds and 13 digits milliseconds. Null for empty or unreadable values.
 */
export function toDate(value: Date | string | number | null | undefined): Date | null {
  if (value === null || value === undefined || value === '') return null;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value;
  let ms: number;
  if (typeof value === 'number' || /^-?\d+$/.test(value)) {
    const n = Number(value);
    if (!Number.isFinite(n)) return null;
    // Spec section 9: a 10-digit timestamp is in seconds.
    ms = String(Math.trunc(Math.abs(n))).length <= 10 ? n * 1000 : n;
  } else {
    ms = Date.parse(value);
  }
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? null : date;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/**
 * Formats a time in local time with the tokens YYYY, MM, DD, HH, mm and ss (default
 * `YYYY-MM-DD HH:mm:ss`); `-` for an empty or unreadable value.
 */
export function formatTime(value: Date | string | number | null | undefined, format: string = TIME_FORMAT): string {
  const date = toDate(value);
  if (!date) return NO_TIME;
  const parts: Record<string, string> = {
    YYYY: pad(date.getFullYear(), 4),
    MM: pad(date.getMonth() + 1),
    DD: pad(date.getDate()),
    HH: pad(date.getHours()),
    mm: pad(date.getMinutes()),
    ss: pad(date.getSeconds()),
  };
  return format.replace(/YYYY|MM|DD|HH|mm|ss/g, (token) => parts[token]);
}

export const SIZE_UNITS = ['Bytes', 'KB', 'MB', 'GB', 'TB'] as const;

/**
 * A size in bytes in the largest unit of Bytes/KB/MB/GB/TB (1024 each) where it is at least 1,
 * with at most `decimals` decimals and no trailing zeros: 0 -> "0 Bytes", 1536 -> "1.5 KB".
 */
export function formatSize(bytes: number | null | undefined, decimals = 2): string {
  if (bytes === null || bytes === undefined || !Number.isFinite(bytes)) return '-';
  const sign = bytes < 0 ? '-' : '';
  let value = Math.abs(bytes);
  let unit = 0;
  while (value >= 1024 && unit < SIZE_UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  const shown = unit === 0 ? String(Math.round(value)) : String(Number(value.toFixed(decimals)));
  return `${sign}${shown} ${SIZE_UNITS[unit]}`;
}

/** Amounts must stay below this in absolute value (spec section 9). */
export const CHINESE_AMOUNT_LIMIT = 1e15;

const DIGITS = '零壹贰叁肆伍陆柒捌玖';
const IN_GROUP = ['', '拾', '佰', '仟'];

/** A group of up to 4 digits (1..9999): zeros between digits read as one 零, trailing zeros as nothing. */
function groupWords(n: number): string {
  let out = '';
  let zero = false;
  for (let i = 3; i >= 0; i--) {
    const d = Math.floor(n / 10 ** i) % 10;
    if (d === 0) {
      if (out) zero = true;
      continue;
    }
    if (zero) out += '零';
    zero = false;
    out += DIGITS[d] + IN_GROUP[i];
  }
  return out;
}

/** A whole number below 1e16 in capital numerals: groups of 4 digits with 万 and 亿 (亿 above 万亿). */
function integerWords(n: bigint): string {
  if (n === 0n) return '';
  const yi = n / 100_000_000n;
  const rest = n % 100_000_000n;
  const wan = Number(rest / 10_000n);
  const unit = Number(rest % 10_000n);
  let out = yi > 0n ? `${integerWords(yi)}亿` : '';
  // A zero between a written part and the next non-zero digit reads as one 零.
  if (wan > 0) out += `${out && wan < 1000 ? '零' : ''}${groupWords(wan)}万`;
  if (unit > 0) out += `${out && (unit < 1000 || wan === 0) ? '零' : ''}${groupWords(unit)}`;
  return out;
}

/** Cents of an amount given as a number or a decimal string, rounded half up to 2 decimals. */
function toCents(amount: number | string): bigint {
  const text = typeof amount === 'number' ? (Number.isFinite(amount) ? amount.toFixed(3) : 'x') : amount.trim();
  const match = /^(-?)(\d+)(?:\.(\d*))?$/.exec(text);
  if (!match) throw new RangeError(`not an amount: ${String(amount)}`);
  const [, sign, whole, fraction = ''] = match;
  const digits = `${fraction}000`;
  let cents = BigInt(whole) * 100n + BigInt(digits.slice(0, 2));
  if (Number(digits[2]) >= 5) cents += 1n;
  return sign ? -cents : cents;
}

/**
 * An amount in yuan written in Chinese capital numerals, as finance pages and receipts need
 * (spec section 9: amounts below 1e15): 1234.05 -> 壹仟贰佰叁拾肆元零伍分, 100 -> 壹佰元整,
 * 0.05 -> 伍分, -1 -> 负壹元整. Rounds to the fen (half up). A decimal string keeps every
 * digit (a number near 1e15 cannot hold its fen: 1e15 - 0.01 === 1e15 in floating point).
 * Throws RangeError at or above 1e15 in absolute value or for a value that is not an amount.
 */
export function toChineseAmount(amount: number | string): string {
  const cents = toCents(amount);
  const negative = cents < 0n;
  const abs = negative ? -cents : cents;
  if (abs >= BigInt(CHINESE_AMOUNT_LIMIT) * 100n) throw new RangeError(`amount out of range: ${String(amount)}`);
  if (abs === 0n) return '零元整';
  const yuan = abs / 100n;
  const jiao = Number((abs / 10n) % 10n);
  const fen = Number(abs % 10n);
  let out = yuan > 0n ? `${integerWords(yuan)}元` : '';
  if (jiao === 0 && fen === 0) out += '整';
  else {
    if (jiao > 0) out += `${DIGITS[jiao]}角`;
    else if (yuan > 0n) out += '零';
    if (fen > 0) out += `${DIGITS[fen]}分`;
  }
  return `${negative ? '负' : ''}${out}`;
}
