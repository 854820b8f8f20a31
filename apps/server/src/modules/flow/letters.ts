import { CARD_NEAR_END_PERCENT, EXPIRING_DEVICE_DAYS, hasPermission, Perm } from '@marquee/protocol';
import { sql } from 'drizzle-orm';
import { registerLetterRule } from '../stationLetter/rules.js';
import { MB, utc8MonthStart } from './repository.js';
import { NEAR_END_LETTER } from './texts.js';

export const NEAR_END_LETTER_KIND = 'flow.cardsNearEnd';
/** ICCIDs the letter names (the rest are counted). */
const LETTER_ICCIDS = 3;
const DAY_MS = 86_400_000;

/**
 * Station letter (issue 27): the reader's enterprise has activated cards that used
 * CARD_NEAR_END_PERCENT of their package this month (UTC+8), or cards whose package expires
 * within EXPIRING_DEVICE_DAYS days. Computed when letters are read, never stored, so it goes
 * away with a new month or a renewal; only for readers who operate the cards.
 */
registerLetterRule<{ nearEnd: number; expiring: number; iccids: string; percent: number; days: number }>({
  kind: NEAR_END_LETTER_KIND,
  render: (params, language) => NEAR_END_LETTER[language](params),
  async compute(db, reader, now) {
    if (!hasPermission(reader.permissions, Perm.operateFlow)) return [];
    const monthStart = utc8MonthStart(now.getTime());
    const until = new Date(now.getTime() + EXPIRING_DEVICE_DAYS * DAY_MS).toISOString();
    const result = (await db.execute(sql`
      with cards as (
        select c.iccid, c.created_at,
          c.state = 'activated' and c.package_mb > 0 and
            (select coalesce(sum(fd.bytes), 0) from flow_days fd
             where fd.card_id = c.id and fd.ent_id = c.ent_id and fd.day >= ${monthStart}::date)
            * 100 >= c.package_mb::numeric * ${MB} * ${CARD_NEAR_END_PERCENT} as near_end,
          c.state in ('activated', 'suspended') and c.expires_at > ${now.toISOString()}::timestamptz
            and c.expires_at <= ${until}::timestamptz as expiring
        from iot_cards c
        where c.ent_id = ${reader.entId} and c.state in ('activated', 'suspended')
      )
      select iccid, near_end, expiring from cards where near_end or expiring
      order by created_at, iccid`)) as unknown as { rows: { iccid: string; near_end: boolean; expiring: boolean }[] };
    const rows = result.rows;
    if (rows.length === 0) return [];
    const iccids = rows.slice(0, LETTER_ICCIDS).map((r) => r.iccid);
    const more = rows.length - iccids.length;
    return [
      {
        nearEnd: rows.filter((r) => r.near_end).length,
        expiring: rows.filter((r) => r.expiring).length,
        iccids: more > 0 ? `${iccids.join(', ')} +${more}` : iccids.join(', '),
        percent: CARD_NEAR_END_PERCENT,
        days: EXPIRING_DEVICE_DAYS,
      },
    ];
  },
});
