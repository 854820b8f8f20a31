import type { AlarmAnswer, AlarmRaise } from '@marquee/protocol';
import { ErrorCode } from '@marquee/protocol';

/**
 * One-key alarms (issue 30; docs/device-protocol.md 2.10): an alarm the player raised, kept in
 * its journal until the server's answer names it, sent again unchanged after a failure or a
 * reconnect (the server stores it once per id).
 */
export interface PendingAlarm {
  id: string;
  at: number;
  screenshot: { contentType: 'image/png' | 'image/jpeg'; data: string } | null;
}

/** Where the journal lives: the player's key-value storage (idb.ts kv), a variable in tests. */
export interface AlarmStore {
  load(): Promise<PendingAlarm[] | null>;
  save(alarms: PendingAlarm[]): Promise<void>;
}

export type SendAlarm = (alarm: AlarmRaise) => Promise<AlarmAnswer>;

/** An error a device call answered with (api.ts DeviceApiError): the code decides what to do. */
interface CodedError {
  code: number;
}
const codeOf = (error: unknown) =>
  typeof error === 'object' && error && 'code' in error ? (error as CodedError).code : null;

/** Codes after which the same request will never be stored: the screenshot goes (or the alarm, without one). */
const UNFIXABLE = new Set<number>([ErrorCode.INVALID_PARAMS, ErrorCode.FILE_FORMAT_ERROR, ErrorCode.FILE_TOO_LARGE]);

export class AlarmJournal {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly store: AlarmStore,
    private readonly newId: () => string = () => crypto.randomUUID(),
  ) {}

  /** One change of the journal at a time (a raise during a flush is kept). */
  private serial<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work, work);
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** Journals a new alarm (durable before it resolves); its id and time never change afterwards. */
  raise(at: number, screenshot: PendingAlarm['screenshot']): Promise<PendingAlarm> {
    return this.serial(async () => {
      const alarm: PendingAlarm = { id: this.newId(), at, screenshot };
      const list = (await this.store.load()) ?? [];
      await this.store.save([...list, alarm]);
      return alarm;
    });
  }

  async pending(): Promise<number> {
    return ((await this.store.load()) ?? []).length;
  }

  /**
   * Sends every pending alarm, oldest first; an answer (accepted, duplicate, rejected) deletes
   * it. A refusal the request cannot outgrow (a screenshot the server does not take) sends the
   * alarm again without its screenshot, and drops an alarm refused even so. Any other failure
   * (offline, a server error) stops the round: the rest stays for the next one. Returns the
   * answers of this round.
   */
  flush(send: SendAlarm): Promise<AlarmAnswer[]> {
    return this.serial(async () => {
      const answers: AlarmAnswer[] = [];
      for (const alarm of (await this.store.load()) ?? []) {
        let answer: AlarmAnswer | null = null;
        try {
          answer = await send(alarm);
        } catch (error) {
          const code = codeOf(error);
          if (code === null || !UNFIXABLE.has(code)) throw error;
          if (alarm.screenshot) {
            const bare = { ...alarm, screenshot: null };
            await this.replace(alarm.id, bare);
            try {
              answer = await send(bare);
            } catch (again) {
              const c = codeOf(again);
              if (c === null || !UNFIXABLE.has(c)) throw again;
            }
          }
        }
        answers.push(answer ?? { id: alarm.id, result: 'rejected' });
        await this.replace(alarm.id, null);
      }
      return answers;
    });
  }

  private async replace(id: string, alarm: PendingAlarm | null) {
    const list = (await this.store.load()) ?? [];
    await this.store.save(list.flatMap((a) => (a.id !== id ? [a] : alarm ? [alarm] : [])));
  }
}

/** The keys that raise an alarm on the browser player: F9, or Alt+A. */
export function isAlarmKey(event: { key: string; altKey: boolean; code?: string }): boolean {
  return event.key === 'F9' || (event.altKey && (event.key === 'a' || event.key === 'A' || event.code === 'KeyA'));
}
