import type { CommandRow, CommandStateValue } from '@marquee/protocol';
import { useQuery } from '@tanstack/react-query';
import { useCallback, useMemo, useState } from 'react';
import { call } from '../../api/client';
import { callKey } from '../../api/queries';

/** A command this page sent, with the state the server last reported. */
export interface SentCommand {
  id: string;
  deviceId: string;
  deviceName: string;
  kind: CommandRow['kind'];
  params: Record<string, unknown>;
  sentAt: number;
  state: CommandStateValue;
  errorCode: string | null;
  errorMessage: string | null;
  ackedAt: string | null;
}

const OPEN: readonly CommandStateValue[] = ['pending', 'sent'];
/** Devices polled per tick at most (the rest on the next ticks). */
const DEVICES_PER_TICK = 20;

/**
 * The commands sent from this page and their live states: while any is open (pending or
 * sent), `device.commands` is asked every second for the open ones, by device and ids.
 */
export function useCommandResults() {
  const [sent, setSent] = useState<SentCommand[]>([]);
  const open = useMemo(() => sent.filter((c) => OPEN.includes(c.state)), [sent]);
  const [cursor, setCursor] = useState(0);

  const add = useCallback((commands: Omit<SentCommand, 'state' | 'errorCode' | 'errorMessage' | 'ackedAt'>[]) => {
    setSent((previous) => [
      ...commands.map((c) => ({ ...c, state: 'pending' as const, errorCode: null, errorMessage: null, ackedAt: null })),
      ...previous,
    ]);
  }, []);
  const clear = useCallback(() => setSent((previous) => previous.filter((c) => OPEN.includes(c.state))), []);

  useQuery({
    // device.commands for the open commands, a batch of devices per tick.
    queryKey: [...callKey('deviceCommands'), { ids: open.map((c) => c.id), cursor }],
    enabled: open.length > 0,
    refetchInterval: 1000,
    queryFn: async ({ signal }) => {
      const byDevice = new Map<string, string[]>();
      for (const c of open) byDevice.set(c.deviceId, [...(byDevice.get(c.deviceId) ?? []), c.id]);
      const devices = [...byDevice.keys()];
      const start = devices.length > DEVICES_PER_TICK ? cursor % devices.length : 0;
      const batch = [...devices.slice(start), ...devices.slice(0, start)].slice(0, DEVICES_PER_TICK);
      const answers = await Promise.all(
        batch.map((deviceId) =>
          call(
            'deviceCommands',
            { deviceId, ids: byDevice.get(deviceId) ?? [], page: 1, size: 100 },
            { signal, silent: true },
          ).catch(() => null),
        ),
      );
      const rows = new Map<string, CommandRow>();
      for (const answer of answers) for (const row of answer?.data ?? []) rows.set(row.id, row);
      setSent((previous) =>
        previous.map((c) => {
          const row = rows.get(c.id);
          return row
            ? { ...c, state: row.state, errorCode: row.errorCode, errorMessage: row.errorMessage, ackedAt: row.ackedAt }
            : c;
        }),
      );
      if (devices.length > DEVICES_PER_TICK) setCursor((n) => n + DEVICES_PER_TICK);
      return rows.size;
    },
  });

  return { sent, open: open.length, add, clear };
}
