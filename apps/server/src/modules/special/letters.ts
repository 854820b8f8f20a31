import { fenToYuan } from '@marquee/protocol';
import { registerLetterRule } from '../stationLetter/rules.js';
import { DECLINED_LETTER, QUOTED_LETTER } from './texts.js';

/**
 * The special resources' station letters (issue 31): stored for the inquirer when the operator
 * quotes or declines; parameters are the inquiry, the resource's title and the price or reason,
 * rendered in the reader's language when read.
 */
export const SPECIAL_QUOTED_LETTER_KIND = 'specialResource.quoted';
export const SPECIAL_DECLINED_LETTER_KIND = 'specialResource.declined';

registerLetterRule<{ inquiryId: string; title: string; price: number }>({
  kind: SPECIAL_QUOTED_LETTER_KIND,
  render: ({ title, price }, language) => QUOTED_LETTER[language](title, fenToYuan(price)),
});

registerLetterRule<{ inquiryId: string; title: string; reason: string }>({
  kind: SPECIAL_DECLINED_LETTER_KIND,
  render: ({ title, reason }, language) => DECLINED_LETTER[language](title, reason),
});
