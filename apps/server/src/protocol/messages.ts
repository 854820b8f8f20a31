import { ErrorCode, errorMessage, type ValidationMessage, validationText } from '@marquee/protocol';
import type { LocalizedText } from './appError.js';

/** Server texts that carry details beyond the code's catalogue message. */
export const messages = {
  reviewDecided: {
    'zh-CN': '审核结果已确定，不能更改',
    'en-US': 'Review decisions cannot be changed',
    ja: '審査結果は変更できません',
  },
  rateLimited(minutes: number): LocalizedText {
    return {
      'zh-CN': `尝试次数过多，请 ${minutes} 分钟后再试`,
      'en-US': `Too many attempts. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}`,
      ja: `試行回数が多すぎます。${minutes} 分後に再度お試しください`,
    };
  },
  /**
   * "<catalogue message>: <field> (<rule's message>)" in each locale, the rule's message from
   * the validation catalogue (or a fixed reason such as 'json').
   */
  invalidParams(field: string, reason: ValidationMessage | string): LocalizedText {
    const detail = (locale: 'zh-CN' | 'en-US' | 'ja') => {
      const why = typeof reason === 'string' ? reason : validationText(reason, locale);
      const [open, close] = locale === 'en-US' ? [' (', ')'] : ['（', '）'];
      return `${errorMessage(ErrorCode.INVALID_PARAMS, locale)}${locale === 'en-US' ? ': ' : '：'}${field}${open}${why}${close}`;
    };
    return { 'zh-CN': detail('zh-CN'), 'en-US': detail('en-US'), ja: detail('ja') };
  },
  /** The sequence query field outside SEQUENCE_PATTERN (docs/protocol.md). */
  badSequence: {
    'zh-CN': `${errorMessage(ErrorCode.BAD_ENVELOPE, 'zh-CN')}：sequence（须为 8 至 64 个字母、数字、下划线或连字符）`,
    'en-US': `${errorMessage(ErrorCode.BAD_ENVELOPE, 'en-US')}: sequence (8 to 64 letters, digits, underscores or hyphens)`,
    ja: `${errorMessage(ErrorCode.BAD_ENVELOPE, 'ja')}：sequence（英数字・アンダースコア・ハイフンの 8～64 文字）`,
  },
  badEnvelope(field: string): LocalizedText {
    const detail = (locale: 'zh-CN' | 'en-US' | 'ja') =>
      `${errorMessage(ErrorCode.BAD_ENVELOPE, locale)}${locale === 'en-US' ? ': ' : '：'}${field}`;
    return { 'zh-CN': detail('zh-CN'), 'en-US': detail('en-US'), ja: detail('ja') };
  },
} satisfies Record<string, LocalizedText | ((...args: never[]) => LocalizedText)>;
