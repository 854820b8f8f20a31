import type { StrategyType } from '@marquee/protocol';
import dayjs, { type Dayjs } from 'dayjs';
import type { z } from 'zod';

/** An `HH:mm` time of day as a picker value (24:00 shows as 23:59, the picker's last minute). */
export function timeValue(hhmm: string | undefined): Dayjs | null {
  if (!hhmm) return null;
  const [h, m] = (hhmm === '24:00' ? '23:59' : hhmm).split(':').map(Number);
  return dayjs().hour(h).minute(m).second(0).millisecond(0);
}

/** A picker value as `HH:mm`. */
export function timeText(value: Dayjs | null | undefined): string {
  return value ? value.format('HH:mm') : '';
}

/** An ISO instant as a picker value, and back (with the browser's offset). */
export function instantValue(iso: string | undefined): Dayjs | null {
  return iso ? dayjs(iso) : null;
}
export function instantText(value: Dayjs | null | undefined): string {
  return value ? value.second(0).millisecond(0).format('YYYY-MM-DDTHH:mm:ssZ') : '';
}

/**
 * The paths (`weekly.2.on`) where a schema finds issues in a value, each with its message key:
 * the editors mark those inputs, the form item shows the first message.
 */
export function issuePaths(schema: z.ZodType, value: unknown): Map<string, string> {
  const out = new Map<string, string>();
  const result = schema.safeParse(value);
  if (result.success) return out;
  for (const issue of result.error.issues) {
    const key = issue.path.map(String).join('.');
    if (!out.has(key)) out.set(key, issue.message);
  }
  return out;
}

/** Whether an issue touches row `index` of a list (any of its fields). */
export function rowHasIssue(issues: Map<string, string>, prefix: string): boolean {
  for (const key of issues.keys()) if (key === prefix || key.startsWith(`${prefix}.`)) return true;
  return false;
}

export const TYPE_ORDER: readonly StrategyType[] = ['power', 'volume', 'brightness', 'operation', 'download'];
