import { DEFAULT_TIME_ZONE, formatOffset, wallClock, zoneOffsetMinutes } from '@marquee/protocol';

/** The texts of an alarm's notification (SMS or e-mail to a region's contacts), per language. */
const NOTIFY: Record<string, (device: string, address: string, time: string) => string> = {
  'zh-CN': (device, address, time) =>
    `【Marquee】一键报警：设备「${device}」${address ? `（${address}）` : ''}于 ${time} 发出报警，请尽快处理。`,
  'en-US': (device, address, time) =>
    `[Marquee] One-key alarm: the screen "${device}"${address ? ` (${address})` : ''} raised an alarm at ${time}. Please respond now.`,
  ja: (device, address, time) =>
    `【Marquee】ワンキーアラーム：デバイス「${device}」${address ? `（${address}）` : ''}で ${time} にアラームが発生しました。至急対応してください。`,
};

/**
 * An alarm's notification text in a language (zh-CN otherwise); the time as the screen's wall
 * clock (`zone`, its time zone) `YYYY-MM-DD HH:mm` with the zone's offset.
 */
export function alarmNotifyText(
  language: string,
  device: string,
  address: string | null,
  at: Date,
  zone = DEFAULT_TIME_ZONE,
): string {
  const wall = wallClock(at, zone);
  const hhmm = `${String(Math.floor(wall.minute / 60)).padStart(2, '0')}:${String(wall.minute % 60).padStart(2, '0')}`;
  const time = `${wall.day} ${hhmm} (${formatOffset(zoneOffsetMinutes(at.getTime(), zone))})`;
  return (NOTIFY[language] ?? NOTIFY['zh-CN'])(device, address ?? '', time);
}

export const ALARM_EXPORT_SHEET: Record<string, string> = {
  'zh-CN': '报警事件',
  'en-US': 'Alarm events',
  ja: 'アラームイベント',
};
export const ALARM_EXPORT_HEADERS: Record<string, string[]> = {
  'zh-CN': ['报警时间', '设备', '设备编号', '地址', '报警区域', '状态', '确认用时（秒）', '关闭用时（秒）', '备注'],
  'en-US': [
    'Raised at',
    'Device',
    'Device number',
    'Address',
    'Regions',
    'State',
    'To acknowledge (s)',
    'To close (s)',
    'Note',
  ],
  ja: [
    '発生日時',
    'デバイス',
    'デバイス番号',
    '住所',
    'アラームエリア',
    '状態',
    '確認までの時間（秒）',
    'クローズまでの時間（秒）',
    'メモ',
  ],
};
export const ALARM_STATE_WORDS: Record<string, Record<string, string>> = {
  'zh-CN': { raised: '待确认', acknowledged: '已确认', handled: '已处理', closed: '已关闭' },
  'en-US': { raised: 'Raised', acknowledged: 'Acknowledged', handled: 'Handled', closed: 'Closed' },
  ja: { raised: '未確認', acknowledged: '確認済み', handled: '対応済み', closed: 'クローズ' },
};
export const localeOf = (language: string) => (language in ALARM_EXPORT_SHEET ? language : 'zh-CN');
