import type { Locale } from '@marquee/protocol';

/** The station letter the author gets when the platform operator replies (in the reader's language). */
export const REPLIED_LETTER: Record<Locale, (summary: string) => string> = {
  'zh-CN': (summary) => `您的反馈「${summary}」已收到平台回复，请到「我的帮助」查看。`,
  'en-US': (summary) => `Your feedback "${summary}" has a reply from the platform: read it in My help.`,
  ja: (summary) =>
    `フィードバック「${summary}」にプラットフォームから返信がありました。「マイヘルプ」で確認してください。`,
};
