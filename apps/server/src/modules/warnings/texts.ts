import { isLocale, type Locale, type WarningKind, type WarningLevel, type WarningState } from '@marquee/protocol';
import type { LocalizedText } from '../../protocol/appError.js';

const text = (zh: string, en: string, ja: string): LocalizedText => ({ 'zh-CN': zh, 'en-US': en, ja });

export const localeOf = (language: string): Locale => (isLocale(language) ? language : 'zh-CN');

/** The warnings module's error messages. */
export const WarningsText = {
  notFound: text('预警不存在', 'The warning does not exist', '警告が存在しません'),
  accountNotFound: text('账号不存在', 'The account does not exist', 'アカウントが存在しません'),
  rangeReversed: text(
    '结束时间不能早于开始时间',
    'The end time cannot be before the start time',
    '終了時刻は開始時刻より前にできません',
  ),
};

/** Each kind's name (the letters, the messages and the export; the console has its own in i18n). */
export const KIND_NAMES: Record<WarningKind, LocalizedText> = {
  deviceOffline: text('设备离线', 'Device offline', 'デバイスオフライン'),
  deviceLongOffline: text('设备长期离线', 'Device offline for a long time', 'デバイス長期オフライン'),
  adExpiring: text('广告即将到期', 'Ad expiring soon', '広告の期限切れ間近'),
  deviceExpiring: text('设备即将到期', 'Device expiring soon', 'デバイスの期限切れ間近'),
  underDelivering: text('屏幕播放不足', 'Screen under-delivering', 'スクリーンの再生不足'),
  downloadFailing: text('下载失败', 'Downloads failing', 'ダウンロード失敗'),
  storageNearlyFull: text('存储空间即将用完', 'Storage nearly full', 'ストレージ残りわずか'),
  renewalFailing: text('自动续费失败', 'Auto-renewal failing', '自動更新の失敗'),
  iotCardExpiring: text('物联网卡套餐即将到期', 'IoT card package ending soon', 'IoT カードのプラン終了間近'),
};

export const LEVEL_NAMES: Record<WarningLevel, LocalizedText> = {
  notice: text('提示', 'Notice', '通知'),
  warning: text('警告', 'Warning', '警告'),
  critical: text('严重', 'Critical', '重大'),
};

export const STATE_NAMES: Record<WarningState, LocalizedText> = {
  open: text('待处理', 'Open', '未対応'),
  acknowledged: text('已确认', 'Acknowledged', '確認済み'),
  resolved: text('已恢复', 'Resolved', '解消済み'),
};

/** The letter and the message of a warning that opened. */
export const OPENED_TEXT: Record<Locale, (kind: string, object: string) => string> = {
  'zh-CN': (kind, object) => `【Marquee】新预警：${kind}（${object}），请到预警中心查看。`,
  'en-US': (kind, object) => `[Marquee] New warning: ${kind} (${object}). See the warning centre.`,
  ja: (kind, object) => `【Marquee】新しい警告：${kind}（${object}）。警告センターで確認してください。`,
};

export const EXPORT_SHEET: LocalizedText = text('预警', 'Warnings', '警告');
export const EXPORT_HEADERS: Record<Locale, string[]> = {
  'zh-CN': ['类型', '级别', '对象', '开始时间', '产生时间', '状态', '确认人', '确认时间', '恢复时间'],
  'en-US': ['Kind', 'Level', 'Object', 'Since', 'Opened', 'State', 'Acknowledged by', 'Acknowledged at', 'Resolved at'],
  ja: ['種類', 'レベル', '対象', '開始', '発生', '状態', '確認者', '確認日時', '解消日時'],
};
