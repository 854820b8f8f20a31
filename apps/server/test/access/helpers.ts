import { randomInt } from 'node:crypto';
import { and, desc, eq } from 'drizzle-orm';
import { accounts, devOutbox } from '../../src/db/schema/index.js';
import type { ApiClient, TestApp } from '../helpers/index.js';

/** A client from its own address, so throttling of one test never reaches another. */
export function freshClient(t: TestApp): ApiClient {
  return t.client({ ip: `10.${randomInt(1, 250)}.${randomInt(1, 250)}.${randomInt(1, 250)}` });
}

/** A mobile number no other test uses. */
export function uniquePhone(): string {
  return `139${String(randomInt(0, 100_000_000)).padStart(8, '0')}`;
}

export async function setContact(t: TestApp, accountId: string, contact: { phone?: string; email?: string }) {
  await t.db.update(accounts).set(contact).where(eq(accounts.id, accountId));
}

/** The newest code the development outbox holds for a target (and purpose). */
export async function outboxCode(t: TestApp, target: string, purpose?: string): Promise<string> {
  const rows = await t.db
    .select({ code: devOutbox.code, purpose: devOutbox.purpose })
    .from(devOutbox)
    .where(and(eq(devOutbox.target, target), purpose ? eq(devOutbox.purpose, purpose as 'login') : undefined))
    .orderBy(desc(devOutbox.createdAt))
    .limit(1);
  if (!rows[0]) throw new Error(`no outbox message for ${target}`);
  return rows[0].code;
}

/** A wrong code for a right one. */
export function wrongCode(code: string): string {
  return String((Number(code) + 1) % 1_000_000).padStart(6, '0');
}
