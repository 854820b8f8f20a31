import { type AdStatus, formatTime } from '@marquee/protocol';
import { Tag } from 'antd';
import type { TFunction } from 'i18next';
import type { TagLook } from '../../components/columns';

const STATUS_COLOR: Record<AdStatus, string> = {
  pendingAudit: 'processing',
  auditFailed: 'error',
  playing: 'success',
  pendingPlay: 'blue',
  paused: 'warning',
  expired: 'default',
  deleted: 'default',
};

/** The tag of an ad's status, as the server derived it (adRules' adStatus). */
export function statusLook(t: TFunction): (value: string) => TagLook {
  return (v) => ({ color: STATUS_COLOR[v as AdStatus] ?? 'default', text: t(`status.${v}`, { ns: 'ads' }) });
}

export function StatusTag({ status, t }: { status: string; t: TFunction }) {
  const { color, text } = statusLook(t)(status);
  return (
    <Tag color={color} data-testid={`ad-status-${status}`}>
      {text}
    </Tag>
  );
}

/** An ad's period, in the spec's display format. */
export function periodText(row: { startAt: string; endAt: string }): string {
  return `${formatTime(row.startAt)} ~ ${formatTime(row.endAt)}`;
}
