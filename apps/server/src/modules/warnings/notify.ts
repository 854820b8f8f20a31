import type { WarningKind } from '@marquee/protocol';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.js';
import type { AppServices } from '../../services.js';
import { createStationLetter } from '../stationLetter/service.js';
import { WARNING_OPENED_LETTER_KIND } from './letters.js';
import { KIND_NAMES, OPENED_TEXT } from './texts.js';

type Row = Record<string, unknown>;
const rowsOf = (result: unknown) => (result as { rows: Row[] }).rows;

/** Warnings notified per batch. */
const BATCH = 500;

/**
 * Notifies the accounts the enterprise chose for a kind (warning_recipients) of each warning
 * that opened: a station letter to each, and a message through the pluggable sender (SMS to a
 * phone, e-mail to an address; the development outbox when no provider is configured). A
 * warning is marked notified (notified_at) in the same statement that picks it, so it is never
 * notified twice while it stays open, even by two runs at once (SKIP LOCKED). Warnings nobody
 * is to hear of are marked in one statement.
 */
export async function notifyOpened(
  services: Pick<AppServices, 'db' | 'codeSender'> & { config?: Pick<Config, 'messageLanguage'> },
  now: Date,
  log?: FastifyBaseLogger,
): Promise<number> {
  // Notices go out in MESSAGE_LANGUAGE: accounts and phone numbers keep no language.
  const language = services.config?.messageLanguage ?? 'zh-CN';
  const at = sql`${now.toISOString()}::timestamptz`;
  await services.db.execute(sql`
    update warnings w set notified_at = ${at}
    where w.notified_at is null
      and (w.state = 'resolved' or not exists (
        select 1 from warning_recipients r where r.ent_id = w.ent_id and r.kind = w.kind))`);
  let sent = 0;
  for (;;) {
    const rows = rowsOf(
      await services.db.execute(sql`
        with due as (
          select id from warnings where notified_at is null order by opened_at limit ${BATCH} for update skip locked),
        marked as (
          update warnings w set notified_at = ${at} from due where w.id = due.id
          returning w.id, w.ent_id, w.kind, w.object_name)
        select m.id, m.ent_id, m.kind, m.object_name, a.id as account_id, a.phone, a.email
        from marked m
        join warning_recipients r on r.ent_id = m.ent_id and r.kind = m.kind
        join accounts a on a.id = r.account_id`),
    );
    if (rows.length === 0) break;
    for (const r of rows) {
      const kind = String(r.kind) as WarningKind;
      const object = String(r.object_name);
      await createStationLetter(services.db, {
        entId: String(r.ent_id),
        accountId: String(r.account_id),
        kind: WARNING_OPENED_LETTER_KIND,
        params: { kind, object },
        createdAt: now,
      });
      const text = OPENED_TEXT[language](KIND_NAMES[kind][language], object);
      const targets: { channel: 'sms' | 'email'; target: string }[] = [];
      if (r.phone) targets.push({ channel: 'sms', target: String(r.phone) });
      if (r.email) targets.push({ channel: 'email', target: String(r.email) });
      for (const t of targets) {
        try {
          // A warning is a notice: it carries no code.
          await services.codeSender.send({ ...t, purpose: 'warning', code: '', text });
        } catch (error) {
          log?.warn({ err: error, warningId: r.id, channel: t.channel }, 'warning notification not delivered');
        }
      }
      sent++;
    }
  }
  return sent;
}
