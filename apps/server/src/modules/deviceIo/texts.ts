import { type DeviceImportColumn, type DeviceStatusValue, isLocale, type Locale } from '@marquee/protocol';
import type { LocalizedText } from '../../protocol/appError.js';

const text = (zh: string, en: string, ja: string): LocalizedText => ({ 'zh-CN': zh, 'en-US': en, ja });

/** The locale of a call's language (zh-CN, the fallback, when it is not a console locale). */
export const localeOf = (language: string): Locale => (isLocale(language) ? language : 'zh-CN');

/** The template's column headers per language (the import also reads any of them). */
export const IMPORT_HEADERS: Record<Locale, Record<DeviceImportColumn, string>> = {
  'zh-CN': { number: '设备编号', name: '设备名称', department: '部门' },
  'en-US': { number: 'Device number', name: 'Device name', department: 'Department' },
  ja: { number: 'デバイス番号', name: 'デバイス名', department: '部署' },
};

/** The example row of the template; a row with this number is skipped by the import. */
export const EXAMPLE_NUMBER = 'EXAMPLE-0001';
export const EXAMPLE_NAME: Record<Locale, string> = {
  'zh-CN': '一楼大厅屏（示例，导入时忽略）',
  'en-US': 'Lobby screen (example, skipped on import)',
  ja: '1 階ロビーの画面（例。インポート時は無視）',
};

export const TEMPLATE_TEXT = {
  sheet: text('设备', 'Devices', 'デバイス'),
  notes: text('说明', 'Notes', '説明'),
  fileName: text('设备导入模板.xlsx', 'device-import-template.xlsx', 'デバイスインポートテンプレート.xlsx'),
  lines: {
    'zh-CN': [
      '每行一台设备；第 2 行是示例，导入时忽略。',
      '设备编号：必填，1 到 64 个字母、数字、- 或 _，不能与已有设备重复。',
      '设备名称：必填，最多 64 个字符。',
      '部门：选填，填写您可见范围内的部门名称；留空则为您当前的部门。',
      '任何一行有错误时，整个表格都不会导入。',
    ],
    'en-US': [
      'One device per row; row 2 is an example and is skipped.',
      'Device number: required, 1 to 64 letters, digits, - or _, not used by another device.',
      'Device name: required, at most 64 characters.',
      'Department: optional, the name of a department you can see; empty means your current department.',
      'When any row has an error, nothing in the sheet is imported.',
    ],
    ja: [
      '1 行に 1 台のデバイスを記入します。2 行目は例で、インポート時は無視されます。',
      'デバイス番号：必須。英数字、- または _ で 1～64 文字。既存のデバイスと重複不可。',
      'デバイス名：必須。64 文字以内。',
      '部署：任意。表示できる部署の名前を記入します。空欄の場合は現在の部署になります。',
      'いずれかの行にエラーがあると、シート全体がインポートされません。',
    ],
  } satisfies Record<Locale, string[]>,
};

/** The messages of a row error. */
export const ImportText = {
  unreadable: text(
    '无法读取该文件，请上传由模板填写的 .xlsx 文件',
    'The file cannot be read: upload the .xlsx filled in from the template',
    'ファイルを読み取れません。テンプレートに記入した .xlsx ファイルをアップロードしてください',
  ),
  missingColumn: (header: string) =>
    text(`缺少列“${header}”`, `The column "${header}" is missing`, `列「${header}」がありません`),
  empty: text('表格中没有设备行', 'The sheet has no device rows', 'シートにデバイスの行がありません'),
  tooMany: (max: number) =>
    text(
      `一次最多导入 ${max} 行`,
      `At most ${max} rows can be imported at once`,
      `一度にインポートできるのは ${max} 行までです`,
    ),
  required: text('必填', 'Required', '必須です'),
  numberFormat: text(
    '设备编号只能包含 1 到 64 个字母、数字、- 或 _',
    'A device number has 1 to 64 letters, digits, - or _',
    'デバイス番号は英数字、- または _ で 1～64 文字です',
  ),
  nameTooLong: (max: number) =>
    text(`最多 ${max} 个字符`, `At most ${max} characters`, `${max} 文字以内で入力してください`),
  duplicateInSheet: (row: number) =>
    text(
      `与第 ${row} 行的设备编号重复`,
      `Same device number as row ${row}`,
      `${row} 行目とデバイス番号が重複しています`,
    ),
  numberTaken: text(
    '该设备编号已被其他设备使用',
    'Another device already uses this device number',
    'このデバイス番号は他のデバイスで使用されています',
  ),
  deptUnknown: (name: string) =>
    text(
      `部门“${name}”不存在或不在您的可见范围内`,
      `No department "${name}" within your scope`,
      `部署「${name}」が存在しないか、表示範囲外です`,
    ),
  deptAmbiguous: (name: string) =>
    text(
      `有多个名为“${name}”的部门，请在设备列表中修改部门`,
      `Several departments are named "${name}": set the department in the device list instead`,
      `「${name}」という部署が複数あります。デバイス一覧で部署を設定してください`,
    ),
};

/** The export's columns per language. */
export const EXPORT_HEADERS: Record<Locale, string[]> = {
  'zh-CN': [
    '设备编号',
    '设备名称',
    '状态',
    '部门',
    '播放器版本',
    'IP',
    'MAC',
    '已用存储',
    '可用存储',
    '分辨率',
    '音量',
    '亮度',
    '最后在线',
    '激活时间',
    '添加时间',
  ],
  'en-US': [
    'Device number',
    'Device name',
    'Status',
    'Department',
    'Player version',
    'IP',
    'MAC',
    'Storage used',
    'Storage free',
    'Resolution',
    'Volume',
    'Brightness',
    'Last seen',
    'Activated',
    'Added',
  ],
  ja: [
    'デバイス番号',
    'デバイス名',
    'ステータス',
    '部署',
    'プレーヤーのバージョン',
    'IP',
    'MAC',
    '使用済みストレージ',
    '空きストレージ',
    '解像度',
    '音量',
    '明るさ',
    '最終オンライン',
    'アクティベート日時',
    '追加日時',
  ],
};

export const STATUS_LABELS: Record<Locale, Record<DeviceStatusValue, string>> = {
  'zh-CN': { online: '在线', offline: '离线', invalid: '失效', activating: '激活中', trial: '试用' },
  'en-US': { online: 'Online', offline: 'Offline', invalid: 'Invalid', activating: 'Activating', trial: 'Trial' },
  ja: {
    online: 'オンライン',
    offline: 'オフライン',
    invalid: '無効',
    activating: 'アクティベート中',
    trial: 'トライアル',
  },
};

export const EXPORT_SHEET = text('设备', 'Devices', 'デバイス');
