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
  badEnvelope(field: string): LocalizedText {
    const detail = (locale: 'zh-CN' | 'en-US' | 'ja') =>
      `${errorMessage(ErrorCode.BAD_ENVELOPE, locale)}${locale === 'en-US' ? ': ' : '：'}${field}`;
    return { 'zh-CN': detail('zh-CN'), 'en-US': detail('en-US'), ja: detail('ja') };
  },
} satisfies Record<string, LocalizedText | ((...args: never[]) => LocalizedText)>;
