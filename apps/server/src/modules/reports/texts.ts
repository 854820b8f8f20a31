import { isLocale, type Locale } from '@marquee/protocol';

/** The reports' export texts (sheet names and column headers) in the three languages. */

export const localeOf = (language: string): Locale => (isLocale(language) ? language : 'zh-CN');

export type ReportKind = 'adList' | 'adDetail' | 'deviceSchedule';

export const REPORT_SHEETS: Record<ReportKind, Record<Locale, string>> = {
  adList: { 'zh-CN': '广告报表', 'en-US': 'Ad report', ja: '広告レポート' },
  adDetail: { 'zh-CN': '广告设备明细', 'en-US': 'Ad report by device', ja: '広告レポート（デバイス別）' },
  deviceSchedule: { 'zh-CN': '设备排期报表', 'en-US': 'Device schedule report', ja: 'デバイス配信計画レポート' },
};

/** Column headers per report, in order; the last three of each are the reconciliation. */
export const REPORT_HEADERS: Record<ReportKind, Record<Locale, string[]>> = {
  adList: {
    'zh-CN': [
      '广告编号',
      '广告名称',
      '推广计划',
      '播放次数',
      '完整播放',
      '播放时长（秒）',
      '覆盖设备',
      '应播次数',
      '到达率（%）',
      '满刊率（%）',
      '未达标',
    ],
    'en-US': [
      'Ad number',
      'Ad name',
      'Plan',
      'Plays',
      'Completed',
      'Play time (s)',
      'Devices',
      'Expected plays',
      'Delivery (%)',
      'Full rate (%)',
      'Under-delivered',
    ],
    ja: [
      '広告番号',
      '広告名',
      'プラン',
      '再生回数',
      '完全再生',
      '再生時間（秒）',
      'デバイス数',
      '予定再生回数',
      '配信率（%）',
      '満稿率（%）',
      '未達',
    ],
  },
  adDetail: {
    'zh-CN': ['设备编号', '设备名称', '播放次数', '播放时长（秒）', '应播次数', '到达率（%）', '未达标'],
    'en-US': [
      'Device number',
      'Device name',
      'Plays',
      'Play time (s)',
      'Expected plays',
      'Delivery (%)',
      'Under-delivered',
    ],
    ja: ['デバイス番号', 'デバイス名', '再生回数', '再生時間（秒）', '予定再生回数', '配信率（%）', '未達'],
  },
  deviceSchedule: {
    'zh-CN': [
      '设备编号',
      '设备名称',
      '部门',
      '日期（UTC）',
      '排期广告',
      '应播次数',
      '实播次数',
      '到达率（%）',
      '未达标',
    ],
    'en-US': [
      'Device number',
      'Device name',
      'Department',
      'Day (UTC)',
      'Scheduled ads',
      'Expected plays',
      'Reported plays',
      'Delivery (%)',
      'Under-delivered',
    ],
    ja: [
      'デバイス番号',
      'デバイス名',
      '部署',
      '日付（UTC）',
      '予定広告',
      '予定再生回数',
      '実再生回数',
      '配信率（%）',
      '未達',
    ],
  },
};

export const YES_NO: Record<Locale, [string, string]> = {
  'zh-CN': ['是', '否'],
  'en-US': ['Yes', 'No'],
  ja: ['はい', 'いいえ'],
};

export const REPORT_FILE_PREFIX: Record<ReportKind, string> = {
  adList: 'ad-report',
  adDetail: 'ad-report-devices',
  deviceSchedule: 'device-schedule-report',
};
