import { registerLetterRule } from '../stationLetter/rules.js';
import { REPLIED_LETTER } from './texts.js';

/**
 * The feedback's station letter (issue 31): stored for the author when the platform operator
 * replies; its parameters are the feedback's id and the first characters of what the author
 * wrote (the author's own words), rendered in the reader's language when read.
 */
export const FEEDBACK_REPLIED_LETTER_KIND = 'feedback.replied';

/** How many characters of the feedback the letter quotes. */
export const LETTER_SUMMARY_CHARS = 30;

registerLetterRule<{ feedbackId: string; summary: string }>({
  kind: FEEDBACK_REPLIED_LETTER_KIND,
  render: ({ summary }, language) => REPLIED_LETTER[language](summary),
});

export function letterSummary(content: string): string {
  const chars = [...content.replace(/\s+/g, ' ').trim()];
  return chars.length > LETTER_SUMMARY_CHARS ? `${chars.slice(0, LETTER_SUMMARY_CHARS).join('')}…` : chars.join('');
}
