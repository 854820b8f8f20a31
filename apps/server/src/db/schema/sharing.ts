import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { accounts } from './accounts.js';
import { createdAt, id } from './columns.js';
import { enterprises } from './tenancy.js';

/** 1 a department, 2 an account (spec: allocate-type). */
export type AllocationTargetType = 1 | 2;
/** 1 the department and its sub-departments, 2 that department alone (spec: allocate-dept-data-type). */
export type AllocationDeptDataType = 1 | 2;

/**
 * Data sharing (spec sections 4 and 7): an object (`ref_type`, `ref_id`, ref-types in
 * packages/protocol/src/refTypes.ts) shared with a department or an account. The rows are
 * the object's OWN allocations, replaced as a whole by permission.refresh. What an object
 * inherits (from a container it is in, or a parent department's type-1 allocation covering a
 * sub-department) is derived when read, never stored, so a department added later under a
 * shared department is covered at once. `inherited_from_*` records, for rows copied from a
 * container by a module that materialises them (e.g. a batch import), which container they
 * came from; such rows are shown locked and are not replaced by a refresh of the object.
 *
 * The data-scope mechanism (auth/scope.ts) reads this table: a shared object is visible to an
 * account target, to the members of a type-2 department, and to the members of a type-1
 * department and of every department below it.
 */
export const allocations = pgTable(
  'allocations',
  {
    id: id(),
    entId: text('ent_id')
      .notNull()
      .references(() => enterprises.id),
    refType: text('ref_type').notNull(),
    refId: text('ref_id').notNull(),
    targetType: integer('target_type').$type<AllocationTargetType>().notNull(),
    targetId: text('target_id').notNull(),
    deptDataType: integer('dept_data_type').$type<AllocationDeptDataType>().notNull().default(1),
    inheritedFromType: text('inherited_from_type'),
    inheritedFromId: text('inherited_from_id'),
    createdBy: text('created_by').references(() => accounts.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    check('allocations_target_type_check', sql`${t.targetType} in (1, 2)`),
    check('allocations_dept_data_type_check', sql`${t.deptDataType} in (1, 2)`),
    // One row per (object, target, origin); coalesce so own rows (null origin) are unique too.
    uniqueIndex('allocations_ref_target_key').on(
      t.entId,
      t.refType,
      t.refId,
      t.targetType,
      t.targetId,
      sql`coalesce(${t.inheritedFromType}, '')`,
      sql`coalesce(${t.inheritedFromId}, '')`,
    ),
    // The scope mechanism's lookup: which objects of a type are shared with this target.
    index('allocations_ent_type_target_idx').on(t.entId, t.refType, t.targetType, t.targetId, t.refId),
  ],
);
