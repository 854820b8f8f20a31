import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';

/**
 * The screens each slot reaches (ids and names, by name then id), kept in memory with the
 * enterprise's screen generation they were resolved at (issue 28: the availability of a slot
 * over 10,000 screens resolved its targets and read every screen's row on every call).
 *
 * The generation (table sales_screen_generations, migration 0048) is bumped by triggers when the
 * transactions that change what a slot's targets resolve to, or a screen's name, commit: a
 * device inserted, deleted, activated, renamed, moved to another group, department or
 * enterprise, a tag put on or taken off, a split screen's tile added, removed or moved. A
 * slot's own edit changes its targets, which are part of the key. Every call reads the
 * generation (one row, in the same statement as the live presence of the screens: slotScreens)
 * and uses the kept screens only when it is the one they were resolved at, so the next call
 * after a change, on this instance or any other, resolves afresh: each instance keeps its own
 * copy, and the database says whether it is still good. Each bump takes a new value of a
 * sequence, so a generation names one committed state of the enterprise's screens; a
 * transaction that changed screens and has not committed yet is marked (marquee.screen_changed)
 * and neither uses nor keeps anything.
 *
 * Presence (online, offline for more than 72 hours) is never kept: slotScreens reads it live.
 */

export interface SlotMembers {
  ids: string[];
  names: string[];
}

interface Entry extends SlotMembers {
  gen: string;
}

/** Slots kept (least recently used dropped first) and screens kept over all of them. */
const MAX_SLOTS = 500;
const MAX_SCREENS = 2_000_000;
const entries = new Map<string, Entry>();
let screensKept = 0;

const keyOf = (slot: { id: string; entId: string; targets: unknown }) =>
  `${slot.entId}\u0000${slot.id}\u0000${JSON.stringify(slot.targets)}`;

/** The enterprise's screen generation ('0' before its first change). */
export async function screenGeneration(db: Executor, entId: string): Promise<string> {
  const result = await db.execute(sql`
    select coalesce((select gen from sales_screen_generations where ent_id = ${entId}), 0)::text as gen`);
  return (result as unknown as { rows: { gen: string }[] }).rows[0].gen;
}

/** The slot's screens as kept at generation `gen`, or null (never resolved, or at another generation). */
export function keptMembers(slot: { id: string; entId: string; targets: unknown }, gen: string): SlotMembers | null {
  const key = keyOf(slot);
  const entry = entries.get(key);
  if (!entry || entry.gen !== gen) return null;
  // Most recently used last.
  entries.delete(key);
  entries.set(key, entry);
  return entry;
}

/** Keeps the slot's screens resolved at generation `gen`. */
export function keepMembers(
  slot: { id: string; entId: string; targets: unknown },
  gen: string,
  members: SlotMembers,
): void {
  const key = keyOf(slot);
  const old = entries.get(key);
  if (old) {
    entries.delete(key);
    screensKept -= old.ids.length;
  }
  if (members.ids.length > MAX_SCREENS) return;
  entries.set(key, { gen, ids: members.ids, names: members.names });
  screensKept += members.ids.length;
  for (const [k, e] of entries) {
    if (entries.size <= MAX_SLOTS && screensKept <= MAX_SCREENS) break;
    entries.delete(k);
    screensKept -= e.ids.length;
  }
}

/** Forgets every slot's screens (tests). */
export function forgetMembers(): void {
  entries.clear();
  screensKept = 0;
}
