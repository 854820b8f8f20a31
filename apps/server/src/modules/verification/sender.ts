import type { MessagePurpose } from '@marquee/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { Executor } from '../../db/client.js';
import { devOutbox } from '../../db/schema/index.js';

/**
 * One message to a mobile number or e-mail address: a verification code for its purpose, or a
 * notice (a warning, an alarm) whose `code` is ''.
 */
export interface CodeMessage {
  channel: 'sms' | 'email';
  target: string;
  purpose: MessagePurpose;
  code: string;
  /** The text as it would be sent, in the caller's language. */
  text: string;
}

/**
 * Delivers verification messages. The default (DevOutboxSender) needs no provider; a real
 * SMS or mail gateway implements the same interface and is passed to buildApp.
 */
export interface CodeSender {
  readonly name: string;
  send(message: CodeMessage): Promise<void>;
}

/**
 * Development sender: writes the message to the server log and to the dev_outbox table that
 * the platform operator reads at /dev/outbox. Logging the code is acceptable here only: this
 * sender exists for installations without an SMS or mail provider (never tokens or passwords).
 */
export class DevOutboxSender implements CodeSender {
  readonly name = 'dev-outbox';

  constructor(
    private readonly db: Executor,
    private readonly log: FastifyBaseLogger,
  ) {}

  async send(message: CodeMessage): Promise<void> {
    await this.db.insert(devOutbox).values({
      channel: message.channel,
      target: message.target,
      purpose: message.purpose,
      code: message.code,
      text: message.text,
    });
    this.log.info(
      { channel: message.channel, target: message.target, purpose: message.purpose, code: message.code || undefined },
      message.code ? 'verification code (development outbox)' : 'notice (development outbox)',
    );
  }
}

const TEXTS: Record<string, (code: string, minutes: number) => string> = {
  'zh-CN': (code, minutes) => `【Marquee】您的验证码是 ${code}，${minutes} 分钟内有效。请勿告诉他人。`,
  'en-US': (code, minutes) =>
    `[Marquee] Your verification code is ${code}. It is valid for ${minutes} minutes. Do not share it.`,
  ja: (code, minutes) => `【Marquee】認証コードは ${code} です。${minutes} 分間有効です。他人に教えないでください。`,
};

/** The message text of a code in a console language (zh-CN otherwise). */
export function codeText(language: string, code: string, minutes: number): string {
  return (TEXTS[language] ?? TEXTS['zh-CN'])(code, minutes);
}
