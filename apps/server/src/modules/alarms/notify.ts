import { and, asc, eq, inArray, isNull, lt, or } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.js';
import { alarmContacts, alarmEvents, alarmSteps, devices } from '../../db/schema/index.js';
import type { AppServices } from '../../services.js';
import { deviceZoneSql } from '../timeZones/service.js';
import { alarmNotifyText } from './texts.js';

/** A provider that does not answer within this long counts as failed (the event must not wait). */
export const ALARM_SEND_TIMEOUT_MS = 10_000;
/**
 * A claim on an event's notifications older than this is taken over (its sender stopped): well
 * past ALARM_SEND_TIMEOUT_MS, since the sends of one event run at once.
 */
export const ALARM_NOTIFY_LEASE_MS = 60_000;
/** The sweep leaves an event this long to the device's call that stored it before taking it over. */
export const ALARM_NOTIFY_GRACE_MS = 30_000;

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
 * Runs right after the event's transaction commits (the device's call), or from the sweep when
 * that call did not finish. Whoever runs it claims the event first (`notify_claimed_at`, taken
 * over after ALARM_NOTIFY_LEASE_MS), so two senders never both send; the steps and
 * `notified_at` are written together. The sends run concurrently.
 */
export async function notifyAlarm(
  services: Pick<AppServices, 'db' | 'codeSender' | 'clock'> & { config?: Pick<Config, 'messageLanguage'> },
  eventId: string,
  log: FastifyBaseLogger,
  language: string = services.config?.messageLanguage ?? 'zh-CN',
): Promise<{ delivered: number; failed: number }> {
  const claimedAt = new Date(services.clock());
  const claimed = await services.db
    .update(alarmEvents)
    .set({ notifyClaimedAt: claimedAt })
    .where(
      and(
        eq(alarmEvents.id, eventId),
        isNull(alarmEvents.notifiedAt),
        or(
          isNull(alarmEvents.notifyClaimedAt),
          lt(alarmEvents.notifyClaimedAt, new Date(claimedAt.getTime() - ALARM_NOTIFY_LEASE_MS)),
        ),
      ),
    )
    .returning({ id: alarmEvents.id });
  if (claimed.length === 0) return { delivered: 0, failed: 0 };
  const done = (at: Date) => services.db.update(alarmEvents).set({ notifiedAt: at }).where(eq(alarmEvents.id, eventId));
  const [event] = await services.db
    .select({ event: alarmEvents, deviceName: devices.name, address: devices.address, zone: deviceZoneSql })
    .from(alarmEvents)
    .innerJoin(devices, eq(devices.id, alarmEvents.deviceId))
    .where(eq(alarmEvents.id, eventId));
  if (!event || event.event.regionIds.length === 0) {
    await done(claimedAt);
    return { delivered: 0, failed: 0 };
  }
  const contacts = await services.db
    .select()
    .from(alarmContacts)
    .where(inArray(alarmContacts.regionId, event.event.regionIds))
    .orderBy(asc(alarmContacts.regionId), asc(alarmContacts.sort));
  const text = alarmNotifyText(language, event.deviceName, event.address, event.event.raisedAt, event.zone);
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
  await services.db.transaction(async (tx) => {
    if (outcomes.length > 0) {
      await tx.insert(alarmSteps).values(
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
    await tx
      .update(alarmEvents)
      .set({ notifiedAt: new Date(services.clock()) })
      .where(eq(alarmEvents.id, eventId));
  });
  const delivered = outcomes.filter((o) => o.outcome === 'delivered').length;
  return { delivered, failed: outcomes.length - delivered };
}

/** Events swept per run. */
const SWEEP_BATCH = 100;

/**
 * The `alarms-notify` job (every minute): events whose notifications were never finished (the
 * server stopped between storing an event and sending, or in the middle of the sends), older
 * than ALARM_NOTIFY_GRACE_MS and not claimed within ALARM_NOTIFY_LEASE_MS, are notified now,
 * oldest first (alarm_events_unnotified_idx). Answers how many events it notified.
 */
export async function sweepAlarmNotifications(
  services: Pick<AppServices, 'db' | 'codeSender' | 'clock'>,
  log: FastifyBaseLogger,
): Promise<number> {
  const now = services.clock();
  const due = await services.db
    .select({ id: alarmEvents.id })
    .from(alarmEvents)
    .where(
      and(
        isNull(alarmEvents.notifiedAt),
        lt(alarmEvents.receivedAt, new Date(now - ALARM_NOTIFY_GRACE_MS)),
        or(isNull(alarmEvents.notifyClaimedAt), lt(alarmEvents.notifyClaimedAt, new Date(now - ALARM_NOTIFY_LEASE_MS))),
      ),
    )
    .orderBy(asc(alarmEvents.receivedAt))
    .limit(SWEEP_BATCH);
  let swept = 0;
  for (const { id } of due) {
    const sent = await notifyAlarm(services, id, log);
    if (sent.delivered + sent.failed > 0) swept++;
  }
  return swept;
}
