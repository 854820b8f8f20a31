import { registerLetterRule } from '../../src/modules/stationLetter/rules.js';

/**
 * A kind of station letter for tests: its text is its `text` parameter, introduced in the
 * reader's language. Product letters come from the modules' rules.
 */
export const TEST_LETTER = 'test.note';

registerLetterRule<{ text: string }>({
  kind: TEST_LETTER,
  render: ({ text }, language) =>
    ({ 'zh-CN': `提醒：${text}`, 'en-US': `Note: ${text}`, ja: `お知らせ：${text}` })[language],
});
