import type { z } from 'zod';
import { FALLBACK_LOCALE, isLocale, type Locale } from './errors.js';

/**
 * The messages of the validation rules (spec section 5), one per rule, in the three languages.
 * The schemas of validation.ts name them as `validation.<key>`; rules without a key (a plain
 * `.max(30)`) get the message of their zod issue (`tooLong` with {{max}}) from `issueMessage`.
 * The web's `validation` namespace holds the same texts (a test keeps them equal); the server
 * puts them in its INVALID_PARAMS answers after the field's name.
 */
export const validationMessages = {
  required: { 'zh-CN': '此项为必填项', 'en-US': 'This field is required', ja: 'この項目は必須です' },
  invalid: { 'zh-CN': '输入的值无效', 'en-US': 'Invalid value', ja: '入力値が無効です' },
  tooShort: {
    'zh-CN': '请至少输入 {{min}} 个字符',
    'en-US': 'Enter at least {{min}} characters',
    ja: '{{min}} 文字以上で入力してください',
  },
  tooLong: {
    'zh-CN': '最多输入 {{max}} 个字符',
    'en-US': 'Enter at most {{max}} characters',
    ja: '{{max}} 文字以内で入力してください',
  },
  tooSmall: { 'zh-CN': '不能小于 {{min}}', 'en-US': 'Enter at least {{min}}', ja: '{{min}} 以上で入力してください' },
  tooLarge: { 'zh-CN': '不能大于 {{max}}', 'en-US': 'Enter at most {{max}}', ja: '{{max}} 以下で入力してください' },
  tooFew: {
    'zh-CN': '请至少选择 {{min}} 项',
    'en-US': 'Choose at least {{min}}',
    ja: '{{min}} 件以上選択してください',
  },
  tooMany: { 'zh-CN': '最多选择 {{max}} 项', 'en-US': 'Choose at most {{max}}', ja: '{{max}} 件まで選択できます' },
  notExpected: {
    'zh-CN': '不支持此字段',
    'en-US': 'This field is not expected here',
    ja: 'この項目は指定できません',
  },
  wholeNumber: { 'zh-CN': '请输入整数', 'en-US': 'Enter a whole number', ja: '整数で入力してください' },
  notAllowed: {
    'zh-CN': '请从可选项中选择',
    'en-US': 'Choose one of the offered values',
    ja: '表示された選択肢から選んでください',
  },
  loginAccount: {
    'zh-CN': '登录账号为 6 至 32 位，只能包含字母、数字和下划线',
    'en-US': 'The login account has 6 to 32 characters: letters, digits and underscores only',
    ja: 'ログインアカウントは 6〜32 文字で、英字・数字・アンダースコアのみ使用できます',
  },
  passwordMin: {
    'zh-CN': '密码至少 6 位',
    'en-US': 'The password has at least 6 characters',
    ja: 'パスワードは 6 文字以上です',
  },
  passwordStrength: {
    'zh-CN': '密码为 10 至 15 位，且至少包含大写字母、小写字母、数字、符号中的三种',
    'en-US':
      'The password has 10 to 15 characters with at least three of upper-case letters, lower-case letters, digits and symbols',
    ja: 'パスワードは 10〜15 文字で、英大文字・英小文字・数字・記号のうち 3 種類以上を含めてください',
  },
  passwordLength: {
    'zh-CN': '密码须为 10 至 15 位',
    'en-US': 'The password must have 10 to 15 characters',
    ja: 'パスワードは 10〜15 文字にしてください',
  },
  passwordClasses: {
    'zh-CN': '密码须至少包含大写字母、小写字母、数字、符号中的三种',
    'en-US': 'The password must mix at least three of upper-case letters, lower-case letters, digits and symbols',
    ja: 'パスワードには英大文字・英小文字・数字・記号のうち 3 種類以上を含めてください',
  },
  passwordConfirm: {
    'zh-CN': '两次输入的密码不一致',
    'en-US': 'The passwords do not match',
    ja: 'パスワードが一致しません',
  },
  departmentName: {
    'zh-CN': '部门名称不超过 20 个字符',
    'en-US': 'The department name has at most 20 characters',
    ja: '部署名は 20 文字以内です',
  },
  companyName: {
    'zh-CN': '企业名称不能为纯数字，且长度大于 4 个字符',
    'en-US': 'The enterprise name has more than 4 characters and is not only digits',
    ja: '企業名は 5 文字以上で、数字だけにはできません',
  },
  socialCreditCode: {
    'zh-CN': '统一社会信用代码为 18 位且不含中文',
    'en-US': 'The unified social credit code has 18 characters and no Chinese characters',
    ja: '統一社会信用コードは 18 文字で、中国語の文字は使用できません',
  },
  iccid: {
    'zh-CN': 'ICCID 为 19 或 20 位字母或数字',
    'en-US': 'The ICCID has 19 or 20 letters or digits',
    ja: 'ICCID は 19 桁または 20 桁の英数字です',
  },
  trafficRange: {
    'zh-CN': '流量范围为 0 到 99999 M',
    'en-US': 'Traffic is between 0 and 99999 MB',
    ja: '通信量は 0〜99999 MB の範囲で指定してください',
  },
  duplicate: {
    'zh-CN': '不能重复',
    'en-US': 'Each value may appear only once',
    ja: '同じ値は一度しか指定できません',
  },
  folderName: {
    'zh-CN': '文件夹名称不超过 50 个字符，且不能包含 \\ | / : ? * < >',
    'en-US': 'The folder name has at most 50 characters and none of \\ | / : ? * < >',
    ja: 'フォルダー名は 50 文字以内で、\\ | / : ? * < > は使用できません',
  },
  feedback: {
    'zh-CN': '问题描述不超过 500 个字符',
    'en-US': 'The description has at most 500 characters',
    ja: '説明は 500 文字以内です',
  },
  rechargeAmount: {
    'zh-CN': '充值金额须大于 0 且不超过 100000',
    'en-US': 'The recharge amount is greater than 0 and at most 100000',
    ja: 'チャージ金額は 0 より大きく 100000 以下です',
  },
  amountFen: {
    'zh-CN': '金额须为整数（单位：分）',
    'en-US': 'The amount is a whole number of fen',
    ja: '金額は分単位の整数で指定してください',
  },
  amountPositive: {
    'zh-CN': '金额无效：须大于 0',
    'en-US': 'Invalid amount: it must be greater than 0',
    ja: '無効な金額です：0 より大きい値を入力してください',
  },
  amountTooLarge: {
    'zh-CN': '金额无效：超出上限',
    'en-US': 'Invalid amount: it is too large',
    ja: '無効な金額です：上限を超えています',
  },
  amountFormat: {
    'zh-CN': '金额无效：请输入数字，最多两位小数',
    'en-US': 'Invalid amount: enter a number with at most 2 decimals',
    ja: '無効な金額です：小数点以下 2 桁までの数値を入力してください',
  },
  voucherRequired: {
    'zh-CN': '请上传转账凭证',
    'en-US': 'Upload the transfer voucher',
    ja: '振込の証憑をアップロードしてください',
  },
  twoDecimals: { 'zh-CN': '最多保留两位小数', 'en-US': 'At most 2 decimal places', ja: '小数点以下は 2 桁までです' },
  layoutSide: {
    'zh-CN': '宽度和高度须在 48 至 11520 像素之间',
    'en-US': 'Width and height are between 48 and 11520 px',
    ja: '幅と高さは 48〜11520 px です',
  },
  realName: {
    'zh-CN': '姓名为 1 至 30 个字符',
    'en-US': 'The name has 1 to 30 characters',
    ja: '氏名は 1〜30 文字で入力してください',
  },
  phone: {
    'zh-CN': '请输入正确的电话号码：7 至 15 位数字，可带 +、空格或短横线，如 +86 138 0013 8000',
    'en-US': 'Enter a phone number of 7 to 15 digits; +, spaces and dashes are allowed, e.g. +1 415-555-0100',
    ja: '電話番号は 7〜15 桁の数字で入力してください（+・スペース・ハイフン可。例：+81 90-1234-5678）',
  },
  mobile: {
    'zh-CN': '请输入正确的手机号码：6 至 15 位数字，可带 +，如 13800138000',
    'en-US': 'Enter a mobile number of 6 to 15 digits, optionally starting with +, e.g. +14155550100',
    ja: '携帯電話番号は 6〜15 桁の数字で入力してください（先頭の + 可。例：09012345678）',
  },
  email: {
    'zh-CN': '请输入正确的邮箱地址，如 name@example.com',
    'en-US': 'Enter an e-mail address such as name@example.com',
    ja: 'メールアドレスを name@example.com の形式で入力してください',
  },
  codeTarget: {
    'zh-CN': '请输入手机号码（6 至 15 位数字）或邮箱地址（如 name@example.com）',
    'en-US': 'Enter a mobile number (6 to 15 digits) or an e-mail address (such as name@example.com)',
    ja: '携帯電話番号（6〜15 桁の数字）またはメールアドレス（例：name@example.com）を入力してください',
  },
  verificationCode: {
    'zh-CN': '验证码为 6 位数字',
    'en-US': 'The verification code has 6 digits',
    ja: '認証コードは 6 桁の数字です',
  },
  roleName: {
    'zh-CN': '角色名称为 1 至 30 个字符',
    'en-US': 'The role name has 1 to 30 characters',
    ja: 'ロール名は 1〜30 文字で入力してください',
  },
  contact: {
    'zh-CN': '联系人为 1 至 30 个字符',
    'en-US': 'The contact name has 1 to 30 characters',
    ja: '担当者名は 1〜30 文字で入力してください',
  },
  singleField: {
    'zh-CN': '请输入 1 至 12 个字符',
    'en-US': 'Enter 1 to 12 characters',
    ja: '1〜12 文字で入力してください',
  },
  // Time rules (spec section 5; timeRules.ts) and the strategies' ranges (strategyRules.ts)
  timeFormat: {
    'zh-CN': '请输入 HH:mm 格式的时间，如 08:30',
    'en-US': 'Enter a time as HH:mm, e.g. 08:30',
    ja: '時刻は HH:mm の形式で入力してください（例：08:30）',
  },
  timeZone: {
    'zh-CN': '请选择有效的时区（IANA 名称，如 Asia/Shanghai）',
    'en-US': 'Choose a valid time zone (an IANA name such as Asia/Shanghai)',
    ja: '有効なタイムゾーン（Asia/Shanghai などの IANA 名）を選択してください',
  },
  dateTimeFormat: { 'zh-CN': '请选择日期和时间', 'en-US': 'Choose a date and time', ja: '日時を選択してください' },
  weekdays: {
    'zh-CN': '请至少选择一天，且每天只选一次',
    'en-US': 'Choose at least one day of the week, each once',
    ja: '曜日を 1 つ以上、重複なく選択してください',
  },
  sendingInterval: {
    'zh-CN': '发送间隔至少 1 分钟，最多 1440 分钟',
    'en-US': 'The sending interval is at least 1 minute and at most 1440',
    ja: '送信間隔は 1 分以上 1440 分以下にしてください',
  },
  sameStartEnd: {
    'zh-CN': '时间冲突：开始时间和结束时间不能相同',
    'en-US': 'Time conflict: the start and end times cannot be the same',
    ja: '時間が競合しています：開始時刻と終了時刻を同じにはできません',
  },
  endBeforeStart: {
    'zh-CN': '时间冲突：结束时间不能早于开始时间',
    'en-US': 'Time conflict: the end time cannot be before the start time',
    ja: '時間が競合しています：終了時刻を開始時刻より前にはできません',
  },
  rangeTooLong: {
    'zh-CN': '日期范围最多 {{max}} 天',
    'en-US': 'The date range can be at most {{max}} days',
    ja: '期間は {{max}} 日以内にしてください',
  },
  periodsOverlap: { 'zh-CN': '时间段重叠', 'en-US': 'Time periods overlap', ja: '時間帯が重複しています' },
  shutdownBeforeStartup: {
    'zh-CN': '时间冲突：关机时间须早于开机时间',
    'en-US': 'Time conflict: the shutdown time must be before the startup time',
    ja: '時間が競合しています：電源オフは電源オンより前の時刻にしてください',
  },
  powerGap: {
    'zh-CN': '时间冲突：关机与开机时间至少间隔 5 分钟',
    'en-US': 'Time conflict: power-off and power-on must be at least 5 minutes apart',
    ja: '時間が競合しています：電源オフと電源オンは 5 分以上空けてください',
  },
  notPast: {
    'zh-CN': '时间不能早于当前时间',
    'en-US': 'The time cannot be in the past',
    ja: '過去の時刻は指定できません',
  },
  periodsRequired: {
    'zh-CN': '请至少添加一个时间段',
    'en-US': 'Add at least one period',
    ja: '時間帯を 1 つ以上追加してください',
  },
  level: {
    'zh-CN': '请输入 0 至 100 之间的整数',
    'en-US': 'Enter a whole number from 0 to 100',
    ja: '0〜100 の整数で入力してください',
  },
  autoStartSec: {
    'zh-CN': '软件自启动时间为 5 至 9999 秒',
    'en-US': 'Software auto-start is 5 to 9999 seconds',
    ja: 'ソフトウェアの自動起動は 5〜9999 秒です',
  },
  exitAutoStartSec: {
    'zh-CN': '手动退出后自启动时间为 10 至 720 秒',
    'en-US': 'Auto-start after a manual exit is 10 to 720 seconds',
    ja: '手動終了後の自動起動は 10〜720 秒です',
  },
  reportCycleMin: {
    'zh-CN': '曝光上报周期为 15 至 720 分钟',
    'en-US': 'The impression report cycle is 15 to 720 minutes',
    ja: 'インプレッションの報告周期は 15〜720 分です',
  },
  storageDays: { 'zh-CN': '保存天数为 1 至 15 天', 'en-US': 'Keep for 1 to 15 days', ja: '保存日数は 1〜15 日です' },
  pauseRotationSec: {
    'zh-CN': '暂停轮播时间为 5 至 1800 秒',
    'en-US': 'Pause rotation is 5 to 1800 seconds',
    ja: 'ローテーションの一時停止は 5〜1800 秒です',
  },
  offlineNotifyHours: {
    'zh-CN': '离线通知时间为 1 至 360 小时',
    'en-US': 'Offline notification is 1 to 360 hours',
    ja: 'オフライン通知は 1〜360 時間です',
  },
  downloadConcurrency: {
    'zh-CN': '同时下载数为 1 至 10',
    'en-US': 'Concurrent downloads are 1 to 10',
    ja: '同時ダウンロード数は 1〜10 です',
  },
  posterColor: {
    'zh-CN': '请输入颜色，如 #1677ff',
    'en-US': 'Enter a colour such as #1677ff',
    ja: '#1677ff のような色を入力してください',
  },
  dictionaryCode: {
    'zh-CN': '编码以小写字母开头，只能包含小写字母、数字、下划线、连字符和点，最多 48 位',
    'en-US':
      'A code starts with a lower-case letter and has up to 48 lower-case letters, digits, underscores, hyphens or dots',
    ja: 'コードは英小文字で始まり、英小文字・数字・アンダースコア・ハイフン・ドットのみ、48 文字以内で入力してください',
  },
  posterFieldKey: {
    'zh-CN': '字段标识只能包含字母、数字、下划线和连字符',
    'en-US': 'A field key has letters, digits, underscores and hyphens only',
    ja: 'フィールドキーには英字・数字・アンダースコア・ハイフンのみ使用できます',
  },
  posterFieldType: {
    'zh-CN': '只有文字、图片和二维码可以设为可填字段',
    'en-US': 'Only texts, images and QR codes can be fields',
    ja: '入力項目にできるのはテキスト・画像・QR コードだけです',
  },
  posterDuplicateField: {
    'zh-CN': '字段标识重复',
    'en-US': 'This field key is already used',
    ja: 'このフィールドキーは既に使われています',
  },
  playCount: {
    'zh-CN': '播放次数为 1 至 99999',
    'en-US': 'Play count is 1 to 99999',
    ja: '再生回数は 1〜99999 です',
  },
  playCountOrder: {
    'zh-CN': '最小播放次数不能大于最大播放次数',
    'en-US': 'The minimum play count cannot exceed the maximum',
    ja: '最小再生回数は最大再生回数以下にしてください',
  },
  periodEndBeforeStart: {
    'zh-CN': '结束时间必须晚于开始时间',
    'en-US': 'The end must be after the start',
    ja: '終了日時は開始日時より後にしてください',
  },
  cptPrice: {
    'zh-CN': '价格为 0.01 至 99999 元',
    'en-US': 'The price is 0.01 to 99999 yuan',
    ja: '価格は 0.01〜99999 元です',
  },
  dailyBudgetAboveTotal: {
    'zh-CN': '日预算不能超过总预算',
    'en-US': 'The daily budget cannot exceed the total budget',
    ja: '日予算は総予算以下にしてください',
  },
  url: {
    'zh-CN': '请输入以 http:// 或 https:// 开头的地址（不含用户名和密码）',
    'en-US': 'Enter an address starting with http:// or https:// (without a user name or password)',
    ja: 'http:// または https:// で始まるアドレスを入力してください（認証情報は含めません）',
  },
  rtbPrice: {
    'zh-CN': 'RTB 价格为 0 至 10000 元',
    'en-US': 'The RTB price is 0 to 10000 yuan',
    ja: 'RTB 価格は 0〜10000 元です',
  },
  discount: {
    'zh-CN': '折扣为 0 至 1，最多两位小数',
    'en-US': 'The discount is 0 to 1, with at most 2 decimals',
    ja: '割引率は 0〜1（小数点以下 2 桁まで）です',
  },
  goodsSingle: {
    'zh-CN': '单品商品只能包含一个广告位',
    'en-US': 'Single goods hold exactly one ad slot',
    ja: '単品商品には広告枠を 1 つだけ含めます',
  },
  goodsProgramme: {
    'zh-CN': '节目包至少包含两个广告位',
    'en-US': 'A programme holds at least two ad slots',
    ja: '番組パッケージには広告枠を 2 つ以上含めます',
  },
  adContent: {
    'zh-CN': '请选择素材或布局（二选一）',
    'en-US': 'Choose materials or a layout (one of the two)',
    ja: '素材またはレイアウトのどちらか一方を選択してください',
  },
  screenSizeCode: {
    'zh-CN': '屏幕尺寸的编码须为英寸数，1 至 1000，最多一位小数（如 55、65.5）',
    'en-US': 'A screen size code is a number of inches from 1 to 1000, with at most one decimal (such as 55 or 65.5)',
    ja: '画面サイズのコードはインチ数（1〜1000、小数は 1 桁まで。例：55、65.5）で入力してください',
  },
} as const satisfies Record<string, Record<Locale, string>>;

export type ValidationKey = keyof typeof validationMessages;

/** A message key with the values it interpolates. */
export interface ValidationMessage {
  key: ValidationKey;
  params?: Record<string, string | number>;
}

function isValidationKey(key: string): key is ValidationKey {
  return Object.hasOwn(validationMessages, key);
}

/**
 * The message of a zod issue: the rule's own key (`validation.<key>`), otherwise one derived
 * from the issue (too short, too long, too many, not an allowed value, ...), else `invalid`.
 */
export function issueMessage(issue: z.core.$ZodIssue | undefined): ValidationMessage {
  if (!issue) return { key: 'invalid' };
  if (issue.message.startsWith('validation.')) {
    const key = issue.message.slice('validation.'.length);
    // A rule's own issue may carry the values its message names (rangeTooLong {max}).
    const params = issue.code === 'custom' ? (issue.params as ValidationMessage['params']) : undefined;
    if (isValidationKey(key)) return params ? { key, params } : { key };
  }
  switch (issue.code) {
    case 'too_small': {
      const min = Number(issue.minimum);
      if (issue.origin === 'string') return min <= 1 ? { key: 'required' } : { key: 'tooShort', params: { min } };
      if (issue.origin === 'array' || issue.origin === 'set') return { key: 'tooFew', params: { min } };
      return { key: 'tooSmall', params: { min } };
    }
    case 'too_big': {
      const max = Number(issue.maximum);
      if (issue.origin === 'string') return { key: 'tooLong', params: { max } };
      if (issue.origin === 'array' || issue.origin === 'set') return { key: 'tooMany', params: { max } };
      return { key: 'tooLarge', params: { max } };
    }
    case 'invalid_type':
      // zod keeps no input in the issue; its own message names what was received.
      if (/received (undefined|null)$/.test(issue.message)) return { key: 'required' };
      return issue.expected === 'int' ? { key: 'wholeNumber' } : { key: 'invalid' };
    case 'invalid_value':
      return { key: 'notAllowed' };
    case 'unrecognized_keys':
      return { key: 'notExpected' };
    case 'invalid_format':
      return issue.format === 'email' ? { key: 'email' } : { key: 'invalid' };
    default:
      return { key: 'invalid' };
  }
}

/** A validation message in a locale (zh-CN for an unknown one), with its values filled in. */
export function validationText(message: ValidationMessage, locale: string | undefined): string {
  const texts: Record<Locale, string> = validationMessages[message.key];
  const text = texts[isLocale(locale) ? locale : FALLBACK_LOCALE];
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) => String(message.params?.[name] ?? whole));
}
