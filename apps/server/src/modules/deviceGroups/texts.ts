import type { LocalizedText } from '../../protocol/appError.js';

const text = (zh: string, en: string, ja: string): LocalizedText => ({ 'zh-CN': zh, 'en-US': en, ja });

/** The messages of device groups, tags, tag categories and bulk device sharing. */
export const GroupText = {
  groupNameTaken: text(
    '该分组名称已存在，请换一个名称',
    'A device group with this name already exists. Choose another name',
    'この名前のデバイスグループは既に存在します。別の名前を入力してください',
  ),
  groupNotFound: text(
    '设备分组不存在或无权访问',
    'The device group does not exist or is not accessible',
    'デバイスグループが存在しないか、アクセスできません',
  ),
  groupNotManaged: text(
    '您只能查看该设备分组，无权修改，请联系业务人员',
    'You can view this device group but not change it. Contact your business staff',
    'このデバイスグループは閲覧のみ可能で、変更する権限がありません。担当者にお問い合わせください',
  ),
  deviceNotManaged: text(
    '部分设备是分享给您的，无权将其加入分组',
    'Some devices were shared with you: you cannot put them in a group',
    '一部のデバイスは共有されたものであり、グループに追加する権限がありません',
  ),
  tagNameTaken: text(
    '该标签名称已存在，请换一个名称',
    'A tag with this name already exists. Choose another name',
    'この名前のタグは既に存在します。別の名前を入力してください',
  ),
  tagNotFound: text('标签不存在', 'The tag does not exist', 'タグが存在しません'),
  categoryNameTaken: text(
    '该标签分类名称已存在，请换一个名称',
    'A tag category with this name already exists. Choose another name',
    'この名前のタグ分類は既に存在します。別の名前を入力してください',
  ),
  categoryNotFound: text('标签分类不存在', 'The tag category does not exist', 'タグ分類が存在しません'),
  categoryHasTags: text(
    '该分类下还有标签，请先删除或移走这些标签',
    'This category still has tags. Delete or move them first',
    'この分類にはまだタグがあります。先にタグを削除するか移動してください',
  ),
  noDevices: text(
    '所选条件下没有您可操作的设备',
    'No device you can act on matches the selection',
    '選択した条件に該当する操作可能なデバイスがありません',
  ),
  departmentNotFound: text(
    '部门不存在或无权访问',
    'The department does not exist or is not accessible',
    '部署が存在しないか、アクセスできません',
  ),
  importBadFile: text(
    '文件格式错误，请使用下载的模板（.xlsx）',
    'File format error. Use the downloaded template (.xlsx)',
    'ファイル形式エラーです。ダウンロードしたテンプレート（.xlsx）を使用してください',
  ),
  importEmpty: text('表格中没有设备编号', 'The sheet has no device numbers', 'シートにデバイス番号がありません'),
  rowUnknown: text(
    '设备编号不存在或无权访问',
    'No device you can see has this number',
    'このデバイス番号のデバイスが存在しないか、アクセスできません',
  ),
  rowNotManaged: text(
    '该设备是分享给您的，无权再分配',
    'This device was shared with you: you cannot allocate it',
    'このデバイスは共有されたものであり、割り当てる権限がありません',
  ),
  rowDuplicate: text('设备编号重复', 'Duplicate device number', 'デバイス番号が重複しています'),
  rowTooLong: text('设备编号过长', 'The device number is too long', 'デバイス番号が長すぎます'),
  templateHeader: text('设备编号', 'Device number', 'デバイス番号'),
  templateSheet: text('设备分配', 'Device allocation', 'デバイス割り当て'),
  templateFile: text('设备分配模板', 'device-allocation-template', 'デバイス割り当てテンプレート'),
};
