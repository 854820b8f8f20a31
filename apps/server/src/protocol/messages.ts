import { ErrorCode, errorMessage } from '@marquee/protocol';
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
  /** "<catalogue message>: <field> (<reason>)" in each locale. */
  invalidParams(field: string, reason: string): LocalizedText {
    const detail = (locale: 'zh-CN' | 'en-US' | 'ja') =>
      `${errorMessage(ErrorCode.INVALID_PARAMS, locale)}${locale === 'en-US' ? ': ' : '：'}${field} (${reason})`;
    return { 'zh-CN': detail('zh-CN'), 'en-US': detail('en-US'), ja: detail('ja') };
  },
  badEnvelope(field: string): LocalizedText {
    const detail = (locale: 'zh-CN' | 'en-US' | 'ja') =>
      `${errorMessage(ErrorCode.BAD_ENVELOPE, locale)}${locale === 'en-US' ? ': ' : '：'}${field}`;
    return { 'zh-CN': detail('zh-CN'), 'en-US': detail('en-US'), ja: detail('ja') };
  },
} satisfies Record<string, LocalizedText | ((...args: never[]) => LocalizedText)>;
