import type { Notice } from '@marquee/protocol';
import dayjs from 'dayjs';

/** A notice that asks the user to agree to or refuse a monitor application. */
export function isPendingMonitorApply(notice: Pick<Notice, 'type' | 'monitorStatus'>): boolean {
  return notice.type === 'system' && notice.monitorStatus === 'pending';
}

/** A notice's time as the bell's list and the dialog show it. */
export function formatNoticeTime(value: string): string {
  const d = dayjs(value);
  return d.isValid() ? d.format('YYYY-MM-DD HH:mm') : value;
}
