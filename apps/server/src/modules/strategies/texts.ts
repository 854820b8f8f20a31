import type { LocalizedText } from '../../protocol/appError.js';

const text = (zh: string, en: string, ja: string): LocalizedText => ({ 'zh-CN': zh, 'en-US': en, ja });

/** The strategy module's messages in the three languages. */
export const StrategyText = {
  notFound: text(
    '策略不存在或无权访问',
    'The strategy does not exist or is not accessible',
    'ポリシーが存在しないか、アクセスできません',
  ),
  typeFixed: text(
    '策略类型创建后不能修改，请新建一个策略',
    'The type of a strategy cannot change; create a new strategy instead',
    'ポリシーの種類は変更できません。新しいポリシーを作成してください',
  ),
  inUse: (count: number) =>
    text(
      `该策略正在 ${count} 台设备上使用，无法删除；请先为这些设备应用其他策略`,
      `This strategy is in use on ${count} device${count === 1 ? '' : 's'} and cannot be deleted; apply another strategy to ${count === 1 ? 'it' : 'them'} first`,
      `このポリシーは ${count} 台のデバイスで使用中のため削除できません。先に別のポリシーを適用してください`,
    ),
  applicationNotFound: text(
    '该策略的下发记录不存在',
    'This application of the strategy does not exist',
    'このポリシーの適用記録が存在しません',
  ),
};
