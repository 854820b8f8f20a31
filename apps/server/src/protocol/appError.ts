import { type ErrorCodeValue, errorMessage, isLocale, type Locale } from '@marquee/protocol';

/** A message in every console locale, for errors whose text says more than the code's. */
export type LocalizedText = Record<Locale, string>;

/**
 * The one error a service throws for an answer with a non-zero code. Anything else that
 * escapes a handler is a server bug and becomes SERVER_ERROR.
 */
export class AppError extends Error {
  readonly code: ErrorCodeValue;
  readonly text: LocalizedText | string | undefined;

  constructor(code: ErrorCodeValue, messageOverride?: LocalizedText | string) {
    super(typeof messageOverride === 'string' ? messageOverride : (messageOverride?.['en-US'] ?? `code ${code}`));
    this.name = 'AppError';
    this.code = code;
    this.text = messageOverride;
  }

  /** The message in the caller's language (zh-CN when the language is not a console locale). */
  messageFor(language: string | undefined): string {
    if (this.text === undefined) return errorMessage(this.code, language);
    if (typeof this.text === 'string') return this.text;
    return this.text[isLocale(language) ? language : 'zh-CN'];
  }
}
