import { index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { accounts } from './accounts.js';
import { createdAt, id, updatedAt } from './columns.js';
import { enterprises } from './tenancy.js';

/**
 * User feedback (issue 31, /my/help; spec section 5: within 500 characters). A user of any
 * enterprise writes one (text, category, screenshots uploaded through storage); the platform
 * operator replies (the reply arrives to the author as a station letter) and either side closes.
 */

export const FEEDBACK_STATE_VALUES = ['submitted', 'replied', 'closed'] as const;

export const feedbacks = pgTable(
  'feedbacks',
  {
    id: id(),
    entId: text('ent_id')
      .notNull()
      .references(() => enterprises.id),
    authorId: text('author_id')
      .notNull()
      .references(() => accounts.id),
    category: text('category').notNull(),
    content: text('content').notNull(),
    state: text('state').$type<(typeof FEEDBACK_STATE_VALUES)[number]>().notNull().default('submitted'),
    reply: text('reply'),
    repliedBy: text('replied_by').references(() => accounts.id),
    repliedAt: timestamp('replied_at', { withTimezone: true }),
    closedBy: text('closed_by').references(() => accounts.id),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('feedbacks_author_created_idx').on(t.authorId, t.createdAt),
    index('feedbacks_state_created_idx').on(t.state, t.createdAt),
  ],
);

/** A screenshot of a feedback: reserved at apply, `ready` once the storage holds it. */
export const feedbackShots = pgTable(
  'feedback_shots',
  {
    id: id(),
    entId: text('ent_id')
      .notNull()
      .references(() => enterprises.id),
    authorId: text('author_id')
      .notNull()
      .references(() => accounts.id),
    /** Null until the feedback naming it is submitted. */
    feedbackId: text('feedback_id').references(() => feedbacks.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    contentType: text('content_type').notNull(),
    size: integer('size').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [index('feedback_shots_feedback_idx').on(t.feedbackId), index('feedback_shots_author_idx').on(t.authorId)],
);
