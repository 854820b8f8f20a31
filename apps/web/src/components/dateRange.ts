import dayjs, { type Dayjs } from 'dayjs';

/** A range picker's value (either end may be empty). */
export type DayRange = [Dayjs | null, Dayjs | null] | null;

/** The range picker's value of a list's `from` and `to` days (YYYY-MM-DD, as kept in the URL); null when neither. */
export function dayRangeValue(from?: string, to?: string): DayRange {
  return from || to ? [from ? dayjs(from) : null, to ? dayjs(to) : null] : null;
}

/** The `from` and `to` days (YYYY-MM-DD) of a range picker's value, for a list's filters. */
export function dayRangeParams(range: DayRange | undefined): { from?: string; to?: string } {
  return {
    from: range?.[0] ? range[0].format('YYYY-MM-DD') : undefined,
    to: range?.[1] ? range[1].format('YYYY-MM-DD') : undefined,
  };
}
