import {
  EXPIRING_AD_DAYS,
  EXPIRING_DEVICE_DAYS,
  IOT_CARD_EXPIRING_DAYS,
  LONG_TERM_OFFLINE_DAYS,
  STORAGE_NEARLY_FULL_PERCENT,
  UNDER_DELIVERING_MIN_EXPECTED,
  UNDER_DELIVERY_PCT,
  type WarningKind,
} from '@marquee/protocol';
import { type SQL, sql } from 'drizzle-orm';

const DAY_MS = 86_400_000;
/** A failed renewal attempt stays a warning this long (the renewal job tries again each day). */
export const RENEWAL_FAILED_WINDOW_MS = 2 * DAY_MS;

const iso = (at: Date) => sql`${at.toISOString()}::timestamptz`;

/**
 * Each rule: the objects its fact holds for now, as rows (ent_id, object_id, object_name,
 * dept_id, since, detail). Every rule reads indexed facts only: per enterprise (a lateral over
 * `enterprises`) through an index led by ent_id, or through a partial index of the few rows the
 * fact concerns. docs/ARCHITECTURE.md "The warning centre" states each rule.
 */
export const RULES: Record<WarningKind, (now: Date) => SQL> = {
  // Stored offline (the device-offline job writes it each minute), for less than 15 days.
  deviceOffline: (now) => sql`
    select d.ent_id, d.id as object_id, d.name as object_name, d.dept_id, d.status_at as since,
      jsonb_build_object('lastSeenAt', d.last_seen_at) as detail
    from enterprises e cross join lateral (
      select id, ent_id, name, dept_id, status_at, last_seen_at from devices
      where devices.ent_id = e.id and devices.status = 'offline'
        and devices.status_at >= ${iso(new Date(now.getTime() - LONG_TERM_OFFLINE_DAYS * DAY_MS))}) d`,
  // Spec section 9: offline for more than 15 days.
  deviceLongOffline: (now) => sql`
    select d.ent_id, d.id as object_id, d.name as object_name, d.dept_id, d.status_at as since,
      jsonb_build_object('lastSeenAt', d.last_seen_at) as detail
    from enterprises e cross join lateral (
      select id, ent_id, name, dept_id, status_at, last_seen_at from devices
      where devices.ent_id = e.id and devices.status = 'offline'
        and devices.status_at < ${iso(new Date(now.getTime() - LONG_TERM_OFFLINE_DAYS * DAY_MS))}) d`,
  // Spec section 9: an ad that plays (passed, not paused, not deleted) and ends in under 7 days.
  adExpiring: (now) => sql`
    select a.ent_id, a.id as object_id, a.name as object_name, null::text as dept_id,
      a.end_at - interval '${sql.raw(String(EXPIRING_AD_DAYS))} days' as since,
      jsonb_build_object('endAt', a.end_at) as detail
    from ads a
    where a.deleted_at is null and a.end_at > ${iso(now)}
      and a.end_at < ${iso(new Date(now.getTime() + EXPIRING_AD_DAYS * DAY_MS))}
      and a.review_state = 'passed' and not a.paused`,
  // Spec section 9: a device (not disabled) whose expiry (the market's licence, written through to devices.expire_at) is under 15 days away.
  deviceExpiring: (now) => sql`
    select d.ent_id, d.id as object_id, d.name as object_name, d.dept_id,
      d.expire_at - interval '${sql.raw(String(EXPIRING_DEVICE_DAYS))} days' as since,
      jsonb_build_object('expireAt', d.expire_at) as detail
    from enterprises e cross join lateral (
      select id, ent_id, name, dept_id, expire_at from devices
      where devices.ent_id = e.id and devices.expire_at > ${iso(now)}
        and devices.expire_at < ${iso(new Date(now.getTime() + EXPIRING_DEVICE_DAYS * DAY_MS))}
        and devices.status <> 'invalid') d`,
  // The reconciliation of proof of play: on the enterprise's previous day (its report zone's,
  // issue 31) the schedule expected at least MIN plays of the screen and it reported under
  // UNDER_DELIVERY_PCT of them (delivery_days, written by the delivery-reconcile job from the
  // reports' expected model, by (ent_id, day)).
  underDelivering: (now) => {
    const day = sql`((${iso(now)} at time zone e.rollup_zone)::date - 1)`;
    return sql`
    select r.ent_id, r.device_id as object_id, d.name as object_name, d.dept_id,
      ${day}::timestamp at time zone e.rollup_zone as since,
      jsonb_build_object('day', ${day}::text, 'expected', r.expected, 'delivered', r.delivered,
        'percent', floor(r.delivered * 100.0 / r.expected)::int) as detail
    from enterprises e cross join lateral (
      select ent_id, device_id, expected, delivered from delivery_days
      where delivery_days.ent_id = e.id and delivery_days.day = ${day}
        and expected >= ${UNDER_DELIVERING_MIN_EXPECTED} and delivered * 100 < expected * ${UNDER_DELIVERY_PCT}) r
    join devices d on d.id = r.device_id`;
  },
  // Downloads the device reports failed (device_downloads, partial index on the failed ones).
  downloadFailing: () => sql`
    select d.ent_id, d.id as object_id, d.name as object_name, d.dept_id, f.since,
      jsonb_build_object('failed', f.failed, 'error', f.error) as detail
    from (
      select device_id, count(*)::int as failed, min(changed_at) as since, max(error) as error
      from device_downloads where state = 'failed' group by device_id) f
    join devices d on d.id = f.device_id`,
  // The enterprise's storage (materials against its quota, the market's packs included) at 90% or more.
  storageNearlyFull: () => sql`
    select q.ent_id, q.ent_id as object_id, e.name as object_name, null::text as dept_id, q.updated_at as since,
      jsonb_build_object('usedBytes', q.used_bytes, 'quotaBytes', q.quota_bytes,
        'percent', floor(q.used_bytes * 100.0 / q.quota_bytes)) as detail
    from storage_quotas q join enterprises e on e.id = q.ent_id
    where q.quota_bytes > 0 and q.used_bytes * 100 >= q.quota_bytes * ${STORAGE_NEARLY_FULL_PERCENT}`,
  // The last renewal attempt of an active item, within two days, failed.
  renewalFailing: (now) => sql`
    select i.ent_id, i.id as object_id, coalesce(dv.name, c.iccid, p.name) as object_name, dv.dept_id, r.at as since,
      jsonb_build_object('reason', r.reason, 'expiresAt', i.expires_at, 'itemKind', i.kind) as detail
    from enterprises e cross join lateral (
      select distinct on (item_id) item_id, at, outcome, reason from market_renewals
      where market_renewals.ent_id = e.id and market_renewals.at > ${iso(new Date(now.getTime() - RENEWAL_FAILED_WINDOW_MS))}
      order by item_id, at desc) r
    join market_items i on i.id = r.item_id and i.state = 'active'
    join market_products p on p.id = i.product_id
    left join devices dv on i.kind = 'devicePoints' and dv.id = i.subject_id
    left join iot_cards c on i.kind = 'dataCard' and c.id = i.subject_id
    where r.outcome = 'failed'`,
  // An activated IoT card whose package ends in under 7 days.
  iotCardExpiring: (now) => sql`
    select c.ent_id, c.id as object_id, c.iccid as object_name, null::text as dept_id,
      c.expires_at - interval '${sql.raw(String(IOT_CARD_EXPIRING_DAYS))} days' as since,
      jsonb_build_object('expiresAt', c.expires_at, 'packageName', c.package_name) as detail
    from enterprises e cross join lateral (
      select id, ent_id, iccid, expires_at, package_name from iot_cards
      where iot_cards.ent_id = e.id and iot_cards.state = 'activated'
        and iot_cards.expires_at > ${iso(now)}
        and iot_cards.expires_at < ${iso(new Date(now.getTime() + IOT_CARD_EXPIRING_DAYS * DAY_MS))}) c`,
};
