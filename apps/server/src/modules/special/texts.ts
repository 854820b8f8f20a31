import type { Locale } from '@marquee/protocol';

/** The station letters the inquirer gets when the operator answers (in the reader's language). */
export const QUOTED_LETTER: Record<Locale, (title: string, price: string) => string> = {
  'zh-CN': (title, price) => `您对特殊资源「${title}」的询价已收到报价：¥${price}。请到「特殊资源」接受或撤回。`,
  'en-US': (title, price) =>
    `Your inquiry about the special resource "${title}" has a quote: ¥${price}. Accept or withdraw it in Special resources.`,
  ja: (title, price) =>
    `特別リソース「${title}」への問い合わせに見積もりが届きました：¥${price}。「特別リソース」で承諾または取り下げてください。`,
};

export const DECLINED_LETTER: Record<Locale, (title: string, reason: string) => string> = {
  'zh-CN': (title, reason) => `您对特殊资源「${title}」的询价已被婉拒：${reason}`,
  'en-US': (title, reason) => `Your inquiry about the special resource "${title}" was declined: ${reason}`,
  ja: (title, reason) => `特別リソース「${title}」への問い合わせは辞退されました：${reason}`,
};
