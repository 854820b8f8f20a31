import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { accounts } from './accounts.js';
import { createdAt, id, updatedAt } from './columns.js';
import { devices } from './devices.js';
import { departments, enterprises } from './tenancy.js';

/**
 * Split screens (video walls, /device/splicDevice): rows x columns of devices, data-scoped
 * by `dept_id` and `owner_id` like devices. Screen rotation needs tile scaling (spec
 * section 9), held by a check as well as by the service.
 */
export const spliceWalls = pgTable(
  'splice_walls',
  {
    id: id(),
    entId: text('ent_id')
      .notNull()
      .references(() => enterprises.id),
    deptId: text('dept_id').references(() => departments.id),
    ownerId: text('owner_id').references(() => accounts.id),
    name: text('name').notNull(),
    rows: integer('rows').notNull(),
    cols: integer('cols').notNull(),
    scaling: boolean('scaling').notNull().default(false),
    rotation: integer('rotation').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('splice_walls_grid_check', sql`${t.rows} between 1 and 8 and ${t.cols} between 1 and 8`),
    check('splice_walls_rotation_check', sql`${t.rotation} in (0, 90, 180, 270)`),
    check('splice_walls_rotation_scaling_check', sql`${t.rotation} = 0 or ${t.scaling}`),
    index('splice_walls_ent_created_idx').on(t.entId, t.createdAt.desc(), t.id),
    index('splice_walls_ent_dept_idx').on(t.entId, t.deptId),
  ],
);

/** A wall's tiles: one device at one position; a device is a tile of at most one wall. */
export const spliceTiles = pgTable(
  'splice_tiles',
  {
    id: id(),
    entId: text('ent_id').notNull(),
    wallId: text('wall_id')
      .notNull()
      .references(() => spliceWalls.id, { onDelete: 'cascade' }),
    row: integer('row').notNull(),
    col: integer('col').notNull(),
    deviceId: text('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
  },
  (t) => [
    uniqueIndex('splice_tiles_position_key').on(t.wallId, t.row, t.col),
    uniqueIndex('splice_tiles_device_key').on(t.deviceId),
  ],
);
