import type { LocalizedText } from '../../protocol/appError.js';

const text = (zh: string, en: string, ja: string): LocalizedText => ({ 'zh-CN': zh, 'en-US': en, ja });

/** The messages of the material library that say more than their code's. */
export const MaterialText = {
  folderNotFound: text(
    '文件夹不存在或无权访问',
    'The folder does not exist or is not accessible',
    'フォルダーが存在しないか、アクセスできません',
  ),
  folderNotManaged: text(
    '您只能查看该文件夹，无权修改，请联系业务人员',
    'You can view this folder but not change it. Contact your business staff',
    'このフォルダーは閲覧のみ可能で、変更する権限がありません。担当者にお問い合わせください',
  ),
  materialNotFound: text(
    '素材不存在或无权访问',
    'The material does not exist or is not accessible',
    '素材が存在しないか、アクセスできません',
  ),
  materialNotManaged: text(
    '部分素材是分享给您的，只能查看，无权修改',
    'Some materials were shared with you: you can view them but not change them',
    '一部の素材は共有されたもので、閲覧のみ可能です',
  ),
  categoryNotFound: text('素材分类不存在', 'The material category does not exist', '素材カテゴリーが存在しません'),
  categoryNameTaken: text(
    '该分类名称已存在，请换一个名称',
    'A category with this name already exists. Choose another name',
    'この名前のカテゴリーは既に存在します。別の名前を入力してください',
  ),
  formatMismatch: text(
    '文件格式错误：文件内容与所选类型不符',
    'File format error: the content of the file is not of the chosen type',
    'ファイル形式が正しくありません。ファイルの内容が選択した種類と一致しません',
  ),
};
