import { WARNING_KINDS, type WarningKind } from '@marquee/protocol';
import { registerLetterRule } from '../stationLetter/rules.js';
import { KIND_NAMES, OPENED_TEXT } from './texts.js';

/** The station letter a chosen account gets when a warning of its kinds opens (stored by the job). */
export const WARNING_OPENED_LETTER_KIND = 'warnings.opened';

registerLetterRule<{ kind: string; object: string }>({
  kind: WARNING_OPENED_LETTER_KIND,
  render: ({ kind, object }, language) => {
    const name = (WARNING_KINDS as readonly string[]).includes(kind) ? KIND_NAMES[kind as WarningKind][language] : kind;
    return OPENED_TEXT[language](name, object);
  },
});
