import { wallClock } from '@marquee/protocol';
import type { FormInstance } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useEffect } from 'react';
import { useCallQuery } from '../api/queries';

/**
 * The caller's enterprise's zone and today in it (issue 31): what it sells (goods, orders,
 * coupons, price contracts) is dated in days of that zone, so a form's "today" and its hints are
 * the enterprise's, not the browser's. Until the zone is known, UTC.
 */
export function useEnterpriseToday(): { zone: string; ready: boolean; today: () => string } {
  const { data } = useCallQuery('timeZoneList', {}, { staleTime: 3600_000 });
  const zone = data?.enterprise ?? 'UTC';
  return { zone, ready: data !== undefined, today: () => wallClock(Date.now(), zone).day };
}

/**
 * A new item's default day range (`days` long from today) in the form field `name`, set again
 * once the enterprise's zone is known when the form opened before it was, unless the user has
 * chosen one since.
 */
export function useTodayRangeDefault(
  form: FormInstance,
  name: string,
  days: number,
  active: boolean,
): { zone: string; today: Dayjs } {
  const { zone, ready, today } = useEnterpriseToday();
  const start = dayjs(today());
  // biome-ignore lint/correctness/useExhaustiveDependencies: only when the zone becomes known or the form opens
  useEffect(() => {
    if (active && ready && !form.isFieldTouched(name)) form.setFieldValue(name, [start, start.add(days, 'day')]);
  }, [active, ready]);
  return { zone, today: start };
}
