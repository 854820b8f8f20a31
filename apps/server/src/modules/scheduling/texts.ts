import type { LocalizedText } from '../../protocol/appError.js';

const text = (zh: string, en: string, ja: string): LocalizedText => ({ 'zh-CN': zh, 'en-US': en, ja });

/** The pushes module's messages in the three languages. */
export const PushText = {
  notFound: text(
    '下发记录不存在或无权访问',
    'The issued record does not exist or is not accessible',
    '配信記録が存在しないか、アクセスできません',
  ),
  notScheduled: text(
    '广告未在投放中（未审核通过、已暂停或已过期），无法下发',
    'The ad is not scheduled (not approved, paused or over): there is nothing to send',
    '広告が配信対象ではありません（未承認・一時停止・期限切れ）。送信できません',
  ),
  deviceNotReached: text(
    '所选设备不在该广告的投放范围内',
    'A selected device is not among the ad’s targets',
    '選択したデバイスはこの広告の配信先ではありません',
  ),
  deviceNotFound: text(
    '设备不存在或无权访问',
    'The device does not exist or is not accessible',
    'デバイスが存在しないか、アクセスできません',
  ),
};
