import type { WatermarkSetting } from '@marquee/protocol';
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { accounts } from './accounts.js';
import { createdAt, id, updatedAt } from './columns.js';
import { deviceGroups } from './deviceGroups.js';
import { stores } from './stores.js';
import { departments, enterprises } from './tenancy.js';

/** Spec section 4: device states. */
export type DeviceStatus = 'online' | 'offline' | 'invalid' | 'activating' | 'trial';
/** Device types: a code of the dictionary `deviceType` (dictionary_entries; the protocol's DEVICE_TYPES were its first). */
export type DeviceType = string;
/** Command states (issue 9). */
export type CommandState = 'pending' | 'sent' | 'acknowledged' | 'failed' | 'expired';

/**
 * Screens (spec section 3 Device; ref-type '1'). Data-scoped by `dept_id` and `owner_id`
 * (the account that added it). `status` is what presence last said (online / offline) or
 * the registry's own state (activating until the player collected its credentials and
 * connected; invalid when disabled); a device `online` whose `last_seen_at` is older than
 * MISSED_HEARTBEATS_OFFLINE heartbeats (its device_presence deadline) is shown offline on read, and written offline by the
 * `device-offline` job each minute. The reported columns are the last heartbeat's; type,
 * screen size and count, install time, expiry and remark are the operator's (device.update).
 */
export const devices = pgTable(
  'devices',
  {
    id: id(),
    entId: text('ent_id')
      .notNull()
      .references(() => enterprises.id),
    deptId: text('dept_id').references(() => departments.id),
    ownerId: text('owner_id').references(() => accounts.id),
    /** The device's own number (serial); unique across the platform when given. */
    number: text('number'),
    name: text('name').notNull(),
    status: text('status').$type<DeviceStatus>().notNull().default('activating'),
    /** sha256 (hex) of the MQTT password; null until the player collected its credentials. */
    secretHash: text('secret_hash'),
    heartbeatSec: integer('heartbeat_sec').notNull().default(30),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }),
    /** When presence last changed (status history has every change). */
    statusAt: timestamp('status_at', { withTimezone: true }).notNull().defaultNow(),
    /** The `ts` (device clock) of the last state message applied: an older one (a late last will) is ignored. */
    stateTs: bigint('state_ts', { mode: 'number' }),
    activatedAt: timestamp('activated_at', { withTimezone: true }),
    // Reported by heartbeats (spec section 3: APK version, MAC, IP, storage, screen size).
    playerVersion: text('player_version'),
    firmware: text('firmware'),
    model: text('model'),
    ip: text('ip'),
    mac: text('mac'),
    storageUsed: bigint('storage_used', { mode: 'number' }),
    storageFree: bigint('storage_free', { mode: 'number' }),
    screenWidth: integer('screen_width'),
    screenHeight: integer('screen_height'),
    screenOn: integer('screen_on'),
    volume: integer('volume'),
    brightness: integer('brightness'),
    // ---- Location (issue 9, geography: modules/geo and modules/stores) ----
    // Where the screen stands: its address and POI, the point (geocoded, or picked by the
    // user), whether that point is approximate (a region's centre), its region codes
    // (GB/T 2260) and the store it stands in (at most one).
    address: text('address'),
    poi: text('poi'),
    latitude: doublePrecision('latitude'),
    longitude: doublePrecision('longitude'),
    coordApproximate: boolean('coord_approximate').notNull().default(false),
    provinceCode: text('province_code'),
    cityCode: text('city_code'),
    districtCode: text('district_code'),
    storeId: text('store_id').references(() => stores.id),
    /**
     * The IANA zone the screen stands in when it is not its enterprise's (issue 31): its
     * schedules and strategies run on this zone's wall clock; null: the enterprise's zone.
     */
    timeZone: text('time_zone'),
    // ---- end of location ----
    // Kept by operators (spec section 3 Device: type, screen size, screen count, install time, expiry).
    type: text('type').$type<DeviceType>(),
    /** Where the screen stands (spec 'scene'): a code of the dictionary `scene` (issue 31, migration 0070); null: not given. */
    scene: text('scene'),
    /** Diagonal in inches. */
    screenSize: doublePrecision('screen_size'),
    screenCount: integer('screen_count').notNull().default(1),
    installedAt: timestamp('installed_at', { withTimezone: true }),
    expireAt: timestamp('expire_at', { withTimezone: true }),
    remark: text('remark').notNull().default(''),
    // --- device groups (branch dev-groups): a device is in at most one group (ref-type '2'),
    // whose allocations it inherits (auth/scope.ts containers). ---
    groupId: text('group_id').references(() => deviceGroups.id, { onDelete: 'set null' }),
    // --- end device groups ---
    /** Seconds since the player started, as its last heartbeat said. */
    uptimeSec: integer('uptime_sec'),
    // --- player content (branch player): the layout the device plays (spec Device 'layout'),
    // until ads schedule content; no foreign key yet, the layouts module checks it exists. ---
    layoutId: text('layout_id'),
    // --- end player content ---
    /** A player of the demo fleet (src/demo/fleet.ts): a headless player the server itself runs. */
    demo: boolean('demo').notNull().default(false),
    /** The device's own watermark setting (modules/watermark): null follows its group's. */
    watermark: jsonb('watermark').$type<WatermarkSetting>(),
    /**
     * The values of the enterprise's custom fields (issue 31, device_custom_fields), by field
     * key: text and option as strings, number as a number, date as 'YYYY-MM-DD'. Checked
     * against the definitions on every save, update and import (modules/devices/customFields.ts).
     */
    customFields: jsonb('custom_fields').$type<Record<string, string | number>>().notNull().default({}),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('devices_status_check', sql`${t.status} in ('online', 'offline', 'invalid', 'activating', 'trial')`),
    // No check on type: it is a code of the dictionary `deviceType` (issue 31, migration 0068), checked by the service.
    index('devices_ent_type_idx').on(t.entId, t.type),
    index('devices_ent_scene_idx').on(t.entId, t.scene),
    index('devices_ent_expire_idx').on(t.entId, t.expireAt),
    index('devices_ent_version_idx').on(t.entId, t.playerVersion),
    // The offline job's scan: only online devices. Not on last_seen_at, which every heartbeat
    // changes (an index on it would cost each heartbeat's update its HOT path).
    index('devices_online_idx').on(t.heartbeatSec).where(sql`${t.status} = 'online'`),
    uniqueIndex('devices_number_key').on(t.number),
    index('devices_ent_created_idx').on(t.entId, t.createdAt.desc(), t.id),
    // The list of a narrow scope (a store's staff), by department and status, newest first:
    // a bitmap of the scope's departments, then a sort of those rows only (device.list chooses
    // that plan by scope size, deviceScopeSize). Its prefix (ent_id, dept_id) serves what
    // devices_ent_dept_idx did.
    index('devices_ent_dept_status_created_idx').on(t.entId, t.deptId, t.status, t.createdAt.desc(), t.id),
    // The merged plan of a department scope's list (device.list, mergedPageQueries): each
    // covered department's devices newest first, merged (issue 9, bench/deviceList.ts).
    index('devices_ent_dept_created_idx').on(t.entId, t.deptId, t.createdAt.desc(), t.id),
    // The merged plan's own devices outside the covered departments (ranges of dept_id).
    index('devices_ent_owner_dept_idx').on(t.entId, t.ownerId, t.deptId),
    // The owner branch of the data scope (own devices), so the scope's branches combine as index scans.
    index('devices_ent_owner_created_idx').on(t.entId, t.ownerId, t.createdAt.desc(), t.id),
    // The list filtered by status, newest first (device.list; bench/deviceList.ts).
    index('devices_ent_status_created_idx').on(t.entId, t.status, t.createdAt.desc(), t.id),
    // Location (issue 9, geography): the device map's grouping and the store's devices.
    index('devices_ent_region_idx').on(t.entId, t.provinceCode, t.cityCode, t.districtCode),
    index('devices_store_idx').on(t.storeId),
    // device groups (branch dev-groups)
    index('devices_group_idx').on(t.groupId),
  ],
);

/**
 * When each online device is due to be shown offline: `deadline` is its last sign of life
 * (the later of `last_seen_at` and `status_at`) plus MISSED_HEARTBEATS_OFFLINE heartbeats,
 * effectiveStatus's rule. A trigger on `devices` keeps one row per stored online device
 * (devices_presence_follow, migrations 0037 and 0038): written on each heartbeat, removed when the device
 * leaves `online`. So the devices shown offline though stored online are the few rows past
 * their deadline, found by an index, where an index on `devices.last_seen_at` would cost every
 * heartbeat's update of `devices` its HOT path (the offline filter of device.list and the
 * `device-offline` job; bench/deviceList.ts).
 */
export const devicePresence = pgTable(
  'device_presence',
  {
    deviceId: text('device_id')
      .primaryKey()
      .references(() => devices.id, { onDelete: 'cascade' }),
    entId: text('ent_id').notNull(),
    /** The device's department (null: none), so a department scope reads only its own devices past their deadline. */
    deptId: text('dept_id'),
    deadline: timestamp('deadline', { withTimezone: true }).notNull(),
  },
  (t) => [index('device_presence_deadline_idx').on(t.deadline)],
);

/**
 * A player's pairing request (docs/device-protocol.md): the code it shows, the hash of its
 * poll token, and once an operator bound it, the device. Credentials are handed out once
 * (`claimed_at`); codes are unique among unexpired pairings.
 */
export const devicePairings = pgTable(
  'device_pairings',
  {
    id: id(),
    code: text('code').notNull(),
    /** sha256 (hex) of the poll token. */
    tokenHash: text('token_hash').notNull(),
    /** The number the player reported (an operator may add by it). */
    number: text('number'),
    playerVersion: text('player_version'),
    model: text('model'),
    ip: text('ip'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    deviceId: text('device_id').references(() => devices.id, { onDelete: 'cascade' }),
    boundAt: timestamp('bound_at', { withTimezone: true }),
    claimedAt: timestamp('claimed_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('device_pairings_code_idx').on(t.code, t.expiresAt.desc()),
    index('device_pairings_number_idx').on(t.number, t.expiresAt.desc()),
  ],
);

/** Every presence change of a device (reports, the warning centre). */
export const deviceStatusHistory = pgTable(
  'device_status_history',
  {
    id: id(),
    entId: text('ent_id').notNull(),
    deviceId: text('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    status: text('status').$type<DeviceStatus>().notNull(),
    /** Why: 'connect', 'will' (connection lost), 'shutdown', 'activated', 'heartbeat'. */
    reason: text('reason').notNull().default(''),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('device_status_history_device_at_idx').on(t.deviceId, t.at.desc())],
);

/**
 * Commands sent to devices (issue 9): stored first, published at QoS 1, acknowledged by the
 * player, resent while pending or sent when the player comes online again, expired after
 * `expires_at`.
 */
export const deviceCommands = pgTable(
  'device_commands',
  {
    id: id(),
    entId: text('ent_id').notNull(),
    deviceId: text('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    params: jsonb('params').$type<Record<string, unknown>>().notNull(),
    state: text('state').$type<CommandState>().notNull().default('pending'),
    /** Who sent it (null for the server's own commands). */
    accountId: text('account_id'),
    /** How many times it was published. */
    attempts: integer('attempts').notNull().default(0),
    /** The ack's error code and message, or the ack's data (small results only). */
    errorCode: text('error_code'),
    errorMessage: text('error_message'),
    result: jsonb('result').$type<Record<string, unknown>>(),
    createdAt: createdAt(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    ackedAt: timestamp('acked_at', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** The push (content_pushes) a syncContent command belongs to: its issued record. */
    pushId: text('push_id'),
  },
  (t) => [
    index('device_commands_push_idx').on(t.pushId).where(sql`${t.pushId} is not null`),
    check('device_commands_state_check', sql`${t.state} in ('pending', 'sent', 'acknowledged', 'failed', 'expired')`),
    index('device_commands_device_created_idx').on(t.deviceId, t.createdAt.desc()),
    index('device_commands_open_idx').on(t.deviceId, t.createdAt).where(sql`${t.state} in ('pending', 'sent')`),
  ],
);

/**
 * Devices per enterprise, department ('' for none) and stored status, kept by a trigger on
 * devices (migration device_list_perf): how wide a caller's scope is (deviceScopeSize) and
 * whether a page's total passes the list's count cap, from a few rows instead of a scan of
 * the scope. Never written by application code.
 */
export const deviceDeptCounts = pgTable(
  'device_dept_counts',
  {
    entId: text('ent_id').notNull(),
    deptId: text('dept_id').notNull(),
    status: text('status').notNull(),
    n: integer('n').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.entId, t.deptId, t.status] })],
);
