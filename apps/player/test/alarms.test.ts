import { type AlarmRaise, ErrorCode } from '@marquee/protocol';
import { describe, expect, it } from 'vitest';
import { AlarmJournal, type AlarmStore, isAlarmKey, type PendingAlarm } from '../src/logic/alarms';

/** The browser player's alarm journal (docs/device-protocol.md 2.10): kept until answered, sent again unchanged. */
class MemoryStore implements AlarmStore {
  value: PendingAlarm[] | null = null;
  async load() {
    return this.value;
  }
  async save(list: PendingAlarm[]) {
    this.value = structuredClone(list);
  }
}

class Coded extends Error {
  constructor(readonly code: number) {
    super(`code ${code}`);
  }
}

let n = 0;
const ids = () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`;
const shot = { contentType: 'image/png' as const, data: 'iVBORw0KGgo=' };

describe('alarm journal', () => {
  it('keeps an alarm across a failed send and sends it again unchanged, then forgets it once answered', async () => {
    const store = new MemoryStore();
    const journal = new AlarmJournal(store, ids);
    const alarm = await journal.raise(1_000, shot);
    const sent: AlarmRaise[] = [];
    await expect(
      journal.flush(async (a) => {
        sent.push(a);
        throw new TypeError('Failed to fetch');
      }),
    ).rejects.toThrow('Failed to fetch');
    expect(await journal.pending()).toBe(1);
    // A new journal over the same storage (a reload, a reconnect) still has it.
    const again = new AlarmJournal(store, ids);
    const answers = await again.flush(async (a) => {
      sent.push(a);
      return { id: a.id, result: 'duplicate' };
    });
    expect(answers).toEqual([{ id: alarm.id, result: 'duplicate' }]);
    expect(sent).toEqual([alarm, alarm]);
    expect(await again.pending()).toBe(0);
  });

  it('sends oldest first and stops the round at the first failure', async () => {
    const journal = new AlarmJournal(new MemoryStore(), ids);
    const a = await journal.raise(1, null);
    const b = await journal.raise(2, null);
    const seen: string[] = [];
    await expect(
      journal.flush(async (x) => {
        seen.push(x.id);
        if (x.id === b.id) throw new Coded(ErrorCode.SERVER_ERROR);
        return { id: x.id, result: 'accepted' };
      }),
    ).rejects.toThrow();
    expect(seen).toEqual([a.id, b.id]);
    expect(await journal.pending()).toBe(1);
  });

  it('drops a screenshot the server refuses and sends the alarm without it', async () => {
    const journal = new AlarmJournal(new MemoryStore(), ids);
    const alarm = await journal.raise(5, shot);
    const sent: AlarmRaise[] = [];
    const answers = await journal.flush(async (x) => {
      sent.push(x);
      if (x.screenshot) throw new Coded(ErrorCode.FILE_FORMAT_ERROR);
      return { id: x.id, result: 'accepted' };
    });
    expect(sent.map((s) => s.screenshot)).toEqual([shot, null]);
    expect(answers).toEqual([{ id: alarm.id, result: 'accepted' }]);
    expect(await journal.pending()).toBe(0);
  });

  it('keeps an alarm raised while a round is being sent', async () => {
    const journal = new AlarmJournal(new MemoryStore(), ids);
    await journal.raise(1, null);
    let release: () => void = () => {};
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const round = journal.flush(async (x) => {
      await gate;
      return { id: x.id, result: 'accepted' };
    });
    const raised = journal.raise(2, null);
    release();
    await round;
    await raised;
    expect(await journal.pending()).toBe(1);
  });

  it('raises on F9 and Alt+A only', () => {
    expect(isAlarmKey({ key: 'F9', altKey: false })).toBe(true);
    expect(isAlarmKey({ key: 'a', altKey: true })).toBe(true);
    expect(isAlarmKey({ key: 'a', altKey: false })).toBe(false);
    expect(isAlarmKey({ key: 'i', altKey: false })).toBe(false);
  });
});
