import { type CARD_IMPORT_COLUMNS, type CardOperator, type CardState, isLocale, type Locale } from '@marquee/protocol';
import type { LocalizedText } from '../../protocol/appError.js';

export type CardImportColumn = (typeof CARD_IMPORT_COLUMNS)[number];

const text = (zh: string, en: string, ja: string): LocalizedText => ({ 'zh-CN': zh, 'en-US': en, ja });

/** The locale of a call's language (zh-CN, the fallback, when it is not a console locale). */
export const localeOf = (language: string): Locale => (isLocale(language) ? language : 'zh-CN');

/** The flow module's error messages. */
export const FlowText = {
  cardNotFound: text('物联网卡不存在', 'The IoT card does not exist', 'IoT カードが存在しません'),
  iccidTaken: text('该 ICCID 已登记', 'This ICCID is registered already', 'この ICCID はすでに登録されています'),
  deviceHasCard: text(
    '该设备已绑定其他物联网卡',
    'The device already holds another IoT card',
    'このデバイスには別の IoT カードがバインドされています',
  ),
  cancelledCard: text(
    '已注销的卡不能绑定设备',
    'A cancelled card cannot be bound to a device',
    '解約済みのカードはデバイスにバインドできません',
  ),
  transitionRefused: (iccids: string) =>
    text(
      `以下卡的当前状态不允许此操作：${iccids}`,
      `The current state of these cards does not allow this action: ${iccids}`,
      `次のカードは現在の状態ではこの操作を行えません：${iccids}`,
    ),
  rangeReversed: text(
    '结束日期不能早于开始日期',
    'The end date cannot be before the start date',
    '終了日は開始日より前にできません',
  ),
  rangeTooLong: (max: number) =>
    text(`查询范围最长 ${max} 天`, `The range can be at most ${max} days`, `検索できる期間は最長 ${max} 日です`),
  trafficReversed: text(
    '剩余流量的最小值不能大于最大值',
    'The minimum data left cannot be above the maximum',
    '残りデータ量の最小値は最大値以下にしてください',
  ),
};

/** The import template's column headers per language (the import also reads any of them). */
export const CARD_IMPORT_HEADERS: Record<Locale, Record<CardImportColumn, string>> = {
  'zh-CN': { iccid: 'ICCID', operator: '运营商', remark: '备注' },
  'en-US': { iccid: 'ICCID', operator: 'Operator', remark: 'Remark' },
  ja: { iccid: 'ICCID', operator: '通信事業者', remark: '備考' },
};

export const OPERATOR_WORDS: Record<Locale, Record<CardOperator, string>> = {
  'zh-CN': { chinaMobile: '中国移动', chinaUnicom: '中国联通', chinaTelecom: '中国电信', other: '其他' },
  'en-US': { chinaMobile: 'China Mobile', chinaUnicom: 'China Unicom', chinaTelecom: 'China Telecom', other: 'Other' },
  ja: {
    chinaMobile: 'チャイナモバイル',
    chinaUnicom: 'チャイナユニコム',
    chinaTelecom: 'チャイナテレコム',
    other: 'その他',
  },
};

export const STATE_WORDS: Record<Locale, Record<CardState, string>> = {
  'zh-CN': {
    toActivate: '待激活',
    activated: '已激活',
    suspended: '停机',
    cancelled: '已注销',
    stock: '库存',
    testable: '可测试',
    lapsed: '已失效',
  },
  'en-US': {
    toActivate: 'To activate',
    activated: 'Activated',
    suspended: 'Suspended',
    cancelled: 'Cancelled',
    stock: 'In stock',
    testable: 'Testable',
    lapsed: 'Lapsed',
  },
  ja: {
    toActivate: 'アクティベート待ち',
    activated: 'アクティベート済み',
    suspended: '停止中',
    cancelled: '解約済み',
    stock: '在庫',
    testable: 'テスト可能',
    lapsed: '失効',
  },
};

/** The example row of the template; a row with this ICCID is skipped by the import. */
export const EXAMPLE_ICCID = '8986000000000000000X';

export const CARD_TEMPLATE_TEXT = {
  sheet: text('物联网卡', 'IoT cards', 'IoT カード'),
  notes: text('说明', 'Notes', '説明'),
  fileName: text('物联网卡导入模板.xlsx', 'iot-card-import-template.xlsx', 'IoTカードインポートテンプレート.xlsx'),
  exampleRemark: text('示例，导入时忽略', 'Example, skipped on import', '例。インポート時は無視'),
  lines: {
    'zh-CN': [
      '每行一张卡；第 2 行是示例，导入时忽略。',
      'ICCID：必填，19 或 20 位字母或数字，不能与已登记的卡重复。',
      '运营商：必填，中国移动、中国联通、中国电信或其他。',
      '备注：选填，最多 100 个字符。',
      '任何一行有错误时，整个表格都不会导入。',
    ],
    'en-US': [
      'One card per row; row 2 is an example and is skipped.',
      'ICCID: required, 19 or 20 letters or digits, not registered already.',
      'Operator: required, China Mobile, China Unicom, China Telecom or Other.',
      'Remark: optional, at most 100 characters.',
      'When any row has an error, nothing in the sheet is imported.',
    ],
    ja: [
      '1 行に 1 枚のカードを記入します。2 行目は例で、インポート時は無視されます。',
      'ICCID：必須。英数字 19 桁または 20 桁。登録済みのカードと重複不可。',
      '通信事業者：必須。チャイナモバイル、チャイナユニコム、チャイナテレコム、その他のいずれか。',
      '備考：任意。100 文字以内。',
      'いずれかの行にエラーがあると、シート全体がインポートされません。',
    ],
  } satisfies Record<Locale, string[]>,
};

/** The messages of an import row error. */
export const CardImportText = {
  unreadable: text(
    '无法读取该文件，请上传由模板填写的 .xlsx 文件',
    'The file cannot be read: upload the .xlsx filled in from the template',
    'ファイルを読み取れません。テンプレートに記入した .xlsx ファイルをアップロードしてください',
  ),
  missingColumn: (header: string) =>
    text(`缺少列“${header}”`, `The column "${header}" is missing`, `列「${header}」がありません`),
  empty: text('表格中没有卡的行', 'The sheet has no card rows', 'シートにカードの行がありません'),
  tooMany: (max: number) =>
    text(
      `一次最多导入 ${max} 行`,
      `At most ${max} rows can be imported at once`,
      `一度にインポートできるのは ${max} 行までです`,
    ),
  required: text('必填', 'Required', '必須です'),
  iccidFormat: text(
    'ICCID 为 19 或 20 位字母或数字',
    'An ICCID has 19 or 20 letters or digits',
    'ICCID は英数字 19 桁または 20 桁です',
  ),
  duplicateInSheet: (row: number) =>
    text(`与第 ${row} 行的 ICCID 重复`, `Same ICCID as row ${row}`, `${row} 行目と ICCID が重複しています`),
  iccidTaken: text('该 ICCID 已登记', 'This ICCID is registered already', 'この ICCID はすでに登録されています'),
  operatorUnknown: text(
    '运营商应为中国移动、中国联通、中国电信或其他',
    'The operator is China Mobile, China Unicom, China Telecom or Other',
    '通信事業者はチャイナモバイル、チャイナユニコム、チャイナテレコム、その他のいずれかです',
  ),
  remarkTooLong: (max: number) =>
    text(`最多 ${max} 个字符`, `At most ${max} characters`, `${max} 文字以内で入力してください`),
};

/** The usage export's sheet and columns. */
export const USAGE_EXPORT_SHEET = text('流量消耗', 'Data usage', 'データ使用量');
export const USAGE_EXPORT_HEADERS: Record<Locale, string[]> = {
  'zh-CN': ['日期', 'ICCID', '设备名称', '流量（MB）'],
  'en-US': ['Day', 'ICCID', 'Device name', 'Data (MB)'],
  ja: ['日付', 'ICCID', 'デバイス名', 'データ量（MB）'],
};

/** The station letter of cards near their package's end or expiry. */
export const NEAR_END_LETTER: Record<
  Locale,
  (p: { nearEnd: number; expiring: number; iccids: string; percent: number; days: number }) => string
> = {
  'zh-CN': ({ nearEnd, expiring, iccids, percent, days }) =>
    `${[
      nearEnd > 0 ? `${nearEnd} 张物联网卡本月流量已用到套餐的 ${percent}% 以上` : '',
      expiring > 0 ? `${expiring} 张物联网卡的套餐将在 ${days} 天内到期` : '',
    ]
      .filter(Boolean)
      .join('；')}（${iccids}）。请在应用市场续费或更换套餐。`,
  'en-US': ({ nearEnd, expiring, iccids, percent, days }) =>
    `${[
      nearEnd > 0
        ? `${nearEnd} IoT card${nearEnd === 1 ? ' has' : 's have'} used ${percent}% or more of this month's data`
        : '',
      expiring > 0
        ? `${expiring} IoT card package${expiring === 1 ? '' : 's'} expire${expiring === 1 ? 's' : ''} within ${days} days`
        : '',
    ]
      .filter(Boolean)
      .join('; ')} (${iccids}). Renew or change the package in the market.`,
  ja: ({ nearEnd, expiring, iccids, percent, days }) =>
    `${[
      nearEnd > 0 ? `${nearEnd} 枚の IoT カードが今月のデータ量の ${percent}% 以上を使用しました` : '',
      expiring > 0 ? `${expiring} 枚の IoT カードのパッケージが ${days} 日以内に期限切れになります` : '',
    ]
      .filter(Boolean)
      .join('。')}（${iccids}）。マーケットで更新するか、パッケージを変更してください。`,
};
