/**
 * The market's calendar (issue 27): terms are calendar months and days are UTC+8 days, the
 * platform's business day. A month added to the 31st lands on the last day of a shorter month
 * (as PostgreSQL's interval does).
 */
const SHIFT = 8 * 3600_000;

/** `at` plus `months` calendar months, counted on the UTC+8 wall clock. */
export function addMonths(at: Date, months: number): Date {
  const local = new Date(at.getTime() + SHIFT);
  const y = local.getUTCFullYear();
  const m = local.getUTCMonth() + months;
  const target = new Date(Date.UTC(y, m, 1));
  const last = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  const day = Math.min(local.getUTCDate(), last);
  const wall = Date.UTC(
    target.getUTCFullYear(),
    target.getUTCMonth(),
    day,
    local.getUTCHours(),
    local.getUTCMinutes(),
    local.getUTCSeconds(),
    local.getUTCMilliseconds(),
  );
  return new Date(wall - SHIFT);
}

/** The UTC+8 day of `at` (YYYY-MM-DD). */
export const dayOf = (at: Date) => new Date(at.getTime() + SHIFT).toISOString().slice(0, 10);

/** The start of the UTC+8 day after `at`'s. */
export function nextDayStart(at: Date): Date {
  const local = new Date(at.getTime() + SHIFT);
  return new Date(Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate() + 1) - SHIFT);
}

/** The later of two times (null counts as never). */
export const later = (a: Date, b: Date | null) => (b && b.getTime() > a.getTime() ? b : a);
