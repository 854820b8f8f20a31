import type { LocalizedText } from '../../protocol/appError.js';

const text = (zh: string, en: string, ja: string): LocalizedText => ({ 'zh-CN': zh, 'en-US': en, ja });

/** The layouts module's messages in the three languages. */
export const TemplateText = {
  notFound: text(
    '布局不存在或无权访问',
    'The layout does not exist or is not accessible',
    'レイアウトが存在しないか、アクセスできません',
  ),
  notManageable: text(
    '只能修改自己或本部门及下级部门的布局',
    'You can change only your own layouts and those of your department and below',
    '変更できるのは自分のレイアウトと、自部門および下位部門のレイアウトだけです',
  ),
  copySuffix: text('副本', 'copy', 'コピー'),
};
