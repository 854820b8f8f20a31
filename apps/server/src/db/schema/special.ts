import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { accounts } from './accounts.js';
import { createdAt, id, updatedAt } from './columns.js';
import { enterprises } from './tenancy.js';

/**
 * Special resources (issue 31, /special/resource; docs/ARCHITECTURE.md "Special resources"):
 * premium inventory the platform operator sells by inquiry (a landmark screen, a takeover, an
 * exclusive, a package). The operator keeps them; advertisers inquire, the operator quotes or
 * declines, the advertiser accepts or withdraws.
 */
type SlotTargets = { deviceIds: string[]; groupIds: string[]; tagIds: string[]; spliceIds: string[] };

export const SPECIAL_RESOURCE_KINDS = ['landmark', 'takeover', 'exclusive', 'package'] as const;
export const SPECIAL_RESOURCE_STATES = ['draft', 'listed', 'withdrawn'] as const;
export const SPECIAL_INQUIRY_STATES = ['open', 'quoted', 'accepted', 'declined', 'withdrawn'] as const;

export const specialResources = pgTable(
  'special_resources',
  {
    id: id(),
    /** The operator's (provider) enterprise. */
    entId: text('ent_id')
      .notNull()
      .references(() => enterprises.id),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    kind: text('kind').$type<(typeof SPECIAL_RESOURCE_KINDS)[number]>().notNull(),
    /** The screens it covers: the target references slots use. */
    targets: jsonb('targets').$type<SlotTargets>().notNull(),
    /** Dates it is offered (YYYY-MM-DD, inclusive). */
    startDate: text('start_date').notNull(),
    endDate: text('end_date').notNull(),
    /** Reference price in fen. */
    price: integer('price').notNull(),
    /** How many buyers may hold it at once (accepted inquiries); 1 = exclusive. */
    capacity: integer('capacity').notNull().default(1),
    state: text('state').$type<(typeof SPECIAL_RESOURCE_STATES)[number]>().notNull().default('draft'),
    createdBy: text('created_by').references(() => accounts.id),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('special_resources_ent_state_idx').on(t.entId, t.state),
    check('special_resources_price_check', sql`${t.price} >= 0`),
    check('special_resources_capacity_check', sql`${t.capacity} >= 1`),
  ],
);

/** A photo of a resource: reserved at apply, attached when the resource is saved naming it. */
export const specialResourcePhotos = pgTable(
  'special_resource_photos',
  {
    id: id(),
    entId: text('ent_id')
      .notNull()
      .references(() => enterprises.id),
    resourceId: text('resource_id').references(() => specialResources.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    contentType: text('content_type').notNull(),
    sort: integer('sort').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [index('special_resource_photos_resource_idx').on(t.resourceId)],
);

/** An advertiser's inquiry on a listed resource. */
export const specialInquiries = pgTable(
  'special_resource_inquiries',
  {
    id: id(),
    resourceId: text('resource_id')
      .notNull()
      .references(() => specialResources.id, { onDelete: 'cascade' }),
    /** The inquirer's enterprise and account. */
    entId: text('ent_id')
      .notNull()
      .references(() => enterprises.id),
    inquirerId: text('inquirer_id')
      .notNull()
      .references(() => accounts.id),
    startDate: text('start_date').notNull(),
    endDate: text('end_date').notNull(),
    message: text('message').notNull().default(''),
    state: text('state').$type<(typeof SPECIAL_INQUIRY_STATES)[number]>().notNull().default('open'),
    /** The operator's quote in fen (quoted and after). */
    quotedPrice: integer('quoted_price'),
    /** The operator's note with the quote, or the reason of a decline. */
    answer: text('answer').notNull().default(''),
    answeredBy: text('answered_by').references(() => accounts.id),
    answeredAt: timestamp('answered_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('special_inquiries_resource_state_idx').on(t.resourceId, t.state),
    index('special_inquiries_ent_created_idx').on(t.entId, t.createdAt),
  ],
);
