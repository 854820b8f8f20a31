import { asc, eq, inArray } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { alarmContacts, alarmEvents, alarmSteps, devices } from '../../db/schema/index.js';
import type { AppServices } from '../../services.js';
import { alarmNotifyText } from './texts.js';

/** A provider that does not answer within this long counts as failed (the event must not wait). */
export const ALARM_SEND_TIMEOUT_MS = 10_000;

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Notifies the contacts of the regions an event's device was in (its `regionIds`): an SMS to
 * each phone and an e-mail to each address through the sender (modules/verification/sender.ts;
 * the development outbox when no provider is configured), each recorded on the event's timeline
 * as delivered or failed. A contact listed in two regions is told once per phone/address.
 * Runs right after the event's transaction commits; the sends run concurrently.
 */
export async function notifyAlarm(
  services: Pick<AppServices, 'db' | 'codeSender' | 'clock'>,
  eventId: string,
  log: FastifyBaseLogger,
  language = 'zh-CN',
): Promise<{ delivered: number; failed: number }> {
  const [event] = await services.db
    .select({ event: alarmEvents, deviceName: devices.name, address: devices.address })
    .from(alarmEvents)
    .innerJoin(devices, eq(devices.id, alarmEvents.deviceId))
    .where(eq(alarmEvents.id, eventId));
  if (!event || event.event.regionIds.length === 0) return { delivered: 0, failed: 0 };
  const contacts = await services.db
    .select()
    .from(alarmContacts)
    .where(inArray(alarmContacts.regionId, event.event.regionIds))
    .orderBy(asc(alarmContacts.regionId), asc(alarmContacts.sort));
  const text = alarmNotifyText(language, event.deviceName, event.address, event.event.raisedAt);
  const seen = new Set<string>();
  const messages: { contactName: string; channel: 'sms' | 'email'; target: string }[] = [];
  for (const c of contacts) {
    for (const [channel, target] of [
      ['sms', c.phone],
      ['email', c.email],
    ] as const) {
      if (!target || seen.has(`${channel}:${target}`)) continue;
      seen.add(`${channel}:${target}`);
      messages.push({ contactName: c.name, channel, target });
    }
  }
  const outcomes = await Promise.all(
    messages.map(async (m) => {
      try {
        await withTimeout(
          services.codeSender.send({
            channel: m.channel,
            target: m.target,
            purpose: 'alarm',
            code: '',
            text,
          }),
          ALARM_SEND_TIMEOUT_MS,
        );
        return { ...m, outcome: 'delivered' as const, error: null, at: new Date(services.clock()) };
      } catch (error) {
        log.warn({ err: error, eventId, channel: m.channel }, 'alarm notification failed');
        const reason = error instanceof Error ? error.message : String(error);
        return { ...m, outcome: 'failed' as const, error: reason.slice(0, 200), at: new Date(services.clock()) };
      }
    }),
  );
  if (outcomes.length > 0) {
    await services.db.insert(alarmSteps).values(
      outcomes.map((o) => ({
        eventId,
        kind: 'notified' as const,
        at: o.at,
        contactName: o.contactName,
        target: o.target,
        channel: o.channel,
        outcome: o.outcome,
        error: o.error,
      })),
    );
  }
  const delivered = outcomes.filter((o) => o.outcome === 'delivered').length;
  return { delivered, failed: outcomes.length - delivered };
}
