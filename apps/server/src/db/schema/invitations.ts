import { index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { accounts, roles } from './accounts.js';
import { createdAt, id } from './columns.js';
import { departments, enterprises } from './tenancy.js';

/**
 * QR invitations to register into an enterprise. The link carries an HMAC-signed token
 * naming this row; the row decides validity (expiry, revocation) and the preset
 * department and role. An invitation can be used by several invitees until it expires.
 */
export const invitations = pgTable(
  'invitations',
  {
    id: id(),
    entId: text('ent_id')
      .notNull()
      .references(() => enterprises.id),
    deptId: text('dept_id').references(() => departments.id, { onDelete: 'set null' }),
    roleId: text('role_id').references(() => roles.id, { onDelete: 'set null' }),
    createdBy: text('created_by').references(() => accounts.id, { onDelete: 'set null' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('invitations_ent_created_idx').on(t.entId, t.createdAt)],
);
