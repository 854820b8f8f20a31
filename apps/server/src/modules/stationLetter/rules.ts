import { isLocale, type Locale } from '@marquee/protocol';
import type { Principal } from '../../auth/principal.js';
import type { Executor } from '../../db/client.js';

/** The parameters of one letter: facts, never text (the text is rendered for each reader). */
export type LetterParams = Record<string, string | number>;

/**
 * One kind of station letter (issue 8): the system writes letters from facts, never prose.
 * A rule renders a letter of its kind in the reader's language from the letter's parameters,
 * and may compute letters from the facts when a reader asks (`compute`, e.g. applications
 * waiting for a decision). Letters an event sends (a screen went offline) are stored as
 * kind + parameters (createStationLetter) and rendered by the same rule when read.
 *
 * A module registers the rules of the facts it owns, once, at import; a kind whose facts do
 * not exist yet (storage, device points) has no rule, so no such letter can appear.
 */
export interface LetterRule<P extends LetterParams = LetterParams> {
  kind: string;
  render(params: P, language: Locale): string;
  compute?(db: Executor, reader: Principal, now: Date): Promise<P[]>;
}

const rules = new Map<string, LetterRule>();

/** Registers the rule of one kind of letter (once per kind). */
export function registerLetterRule<P extends LetterParams>(rule: LetterRule<P>): void {
  const known = rules.get(rule.kind);
  if (known && known !== (rule as unknown as LetterRule))
    throw new Error(`letter kind ${rule.kind} is registered twice`);
  rules.set(rule.kind, rule as unknown as LetterRule);
}

export function letterRule(kind: string): LetterRule | undefined {
  return rules.get(kind);
}

export function letterRules(): readonly LetterRule[] {
  return [...rules.values()];
}

/** The letter's text in `language` (zh-CN for a language the console does not have). */
export function renderLetter(rule: LetterRule, params: LetterParams, language: string): string {
  return rule.render(params, isLocale(language) ? language : 'zh-CN');
}
