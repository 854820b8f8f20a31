import { wallClock } from '@marquee/protocol';
import { useCallQuery } from '../api/queries';

/**
 * The caller's enterprise's zone and today in it (issue 31): what it sells (goods, orders,
 * coupons, price contracts) is dated in days of that zone, so a form's "today" and its hints are
 * the enterprise's, not the browser's. Until the zone is known, UTC.
 */
export function useEnterpriseToday(): { zone: string; today: () => string } {
  const { data } = useCallQuery('timeZoneList', {}, { staleTime: 3600_000 });
  const zone = data?.enterprise ?? 'UTC';
  return { zone, today: () => wallClock(Date.now(), zone).day };
}
