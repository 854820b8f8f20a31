import { WARNING_KINDS, WARNING_RULES, type WarningKind } from '@marquee/protocol';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { AppServices } from '../../services.js';
import { notifyOpened } from './notify.js';
import { RULES } from './rules.js';

/** The job that computes the warnings (jobs/index.ts), every minute. */
export const WARNINGS_EVALUATE_JOB = 'warnings-evaluate';
export const WARNINGS_EVALUATE_CRON = '* * * * *';

type Row = Record<string, unknown>;
const rowsOf = (result: unknown) => (result as { rows: Row[] }).rows;

export interface EvaluateResult {
  opened: Record<WarningKind, number>;
  resolved: Record<WarningKind, number>;
  notified: number;
  /** Milliseconds each rule took (the bench prints them). */
  ms: Record<WarningKind, number>;
}

/**
 * One rule, set-based: the objects its fact holds for now (`cand`); a warning opened for each
 * that has no live one (ON CONFLICT on warnings_live_key: idempotent, concurrent runs
 * included); every live warning of the kind whose object is no longer a candidate resolved.
 */
export async function syncRule(db: AppServices['db'], kind: WarningKind, now: Date) {
  const { level, object } = WARNING_RULES[kind];
  const at = sql`${now.toISOString()}::timestamptz`;
  const [row] = rowsOf(
    await db.execute(sql`
      with cand as materialized (${RULES[kind](now)}),
      ins as (
        insert into warnings (id, ent_id, kind, level, object_type, object_id, object_name, dept_id, detail, since, opened_at, state)
        select gen_random_uuid()::text, c.ent_id, ${kind}, ${level}, ${object}, c.object_id, coalesce(c.object_name, ''),
          c.dept_id, c.detail, least(coalesce(c.since, ${at}), ${at}), ${at}, 'open'
        from cand c
        on conflict (kind, object_id) where state <> 'resolved' do nothing
        returning 1),
      res as (
        update warnings w set state = 'resolved', resolved_at = ${at}
        where w.kind = ${kind} and w.state <> 'resolved'
          and not exists (select 1 from cand c where c.object_id = w.object_id)
        returning 1)
      select (select count(*) from ins)::int as opened, (select count(*) from res)::int as resolved`),
  );
  return { opened: Number(row?.opened ?? 0), resolved: Number(row?.resolved ?? 0) };
}

/** Evaluates every rule, then notifies the chosen accounts of the warnings that opened. */
export async function evaluateWarnings(
  services: Pick<AppServices, 'db' | 'codeSender'>,
  now: Date,
  log?: FastifyBaseLogger,
): Promise<EvaluateResult> {
  const result = { opened: {}, resolved: {}, ms: {}, notified: 0 } as EvaluateResult;
  for (const kind of WARNING_KINDS) {
    const started = performance.now();
    const { opened, resolved } = await syncRule(services.db, kind, now);
    result.opened[kind] = opened;
    result.resolved[kind] = resolved;
    result.ms[kind] = Math.round(performance.now() - started);
  }
  result.notified = await notifyOpened(services, now, log);
  return result;
}
