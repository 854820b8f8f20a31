import type { Notice } from '@marquee/protocol';

/** A notice that asks the user to agree to or refuse a monitor application. */
export function isPendingMonitorApply(notice: Pick<Notice, 'type' | 'monitorStatus'>): boolean {
  return notice.type === 'system' && notice.monitorStatus === 'pending';
}
