import type { BuiltinKey } from '@marquee/protocol';
import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, id, updatedAt } from './columns.js';
import { departments, enterprises } from './tenancy.js';

export type AccountStatus = 'enabled' | 'paused';
export type AccountType = 'individual' | 'enterprise';
export type DataScope = 'self' | 'dept_and_below' | 'dept_only';
export const DATA_SCOPES: readonly DataScope[] = ['self', 'dept_and_below', 'dept_only'];

export const accounts = pgTable(
  'accounts',
  {
    id: id(),
    /** Short numeric user number shown to people (the console's `userId`). */
    userNo: integer('user_no').generatedAlwaysAsIdentity({ startWith: 10001 }).notNull(),
    entId: text('ent_id')
      .notNull()
      .references(() => enterprises.id),
    loginName: text('login_name').notNull(),
    realName: text('real_name').notNull().default(''),
    passwordHash: text('password_hash').notNull(),
    phone: text('phone'),
    email: text('email'),
    status: text('status').$type<AccountStatus>().notNull().default('enabled'),
    accountType: text('account_type').$type<AccountType>().notNull().default('enterprise'),
    isEntAdmin: boolean('is_ent_admin').notNull().default(false),
    thirdMonitor: boolean('third_monitor').notNull().default(false),
    /** The user must change the password at next login. */
    updatePwd: boolean('update_pwd').notNull().default(false),
    openWxLogin: boolean('open_wx_login').notNull().default(false),
    currentDeptId: text('current_dept_id').references(() => departments.id),
    lastLoginAt: timestamp('last_login_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('accounts_status_check', sql`${t.status} in ('enabled', 'paused')`),
    check('accounts_type_check', sql`${t.accountType} in ('individual', 'enterprise')`),
    // Login is by login name alone, so it is unique across tenants, case-insensitively.
    uniqueIndex('accounts_login_name_key').on(sql`lower(${t.loginName})`),
    uniqueIndex('accounts_user_no_key').on(t.userNo),
    index('accounts_ent_status_idx').on(t.entId, t.status),
    index('accounts_ent_dept_idx').on(t.entId, t.currentDeptId),
    // Code login and password retrieval find the account of a phone or an email (verification).
    index('accounts_email_lower_idx').on(sql`lower(${t.email})`),
    index('accounts_phone_digits_idx').on(sql`regexp_replace(${t.phone}, '[[:space:]-]', '', 'g')`),
  ],
);

/** An account may belong to several departments and switch between them. */
export const accountDepartments = pgTable(
  'account_departments',
  {
    entId: text('ent_id')
      .notNull()
      .references(() => enterprises.id),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    deptId: text('dept_id')
      .notNull()
      .references(() => departments.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.entId, t.accountId, t.deptId] }),
    index('account_departments_ent_dept_idx').on(t.entId, t.deptId),
  ],
);

export const roles = pgTable(
  'roles',
  {
    id: id(),
    entId: text('ent_id')
      .notNull()
      .references(() => enterprises.id),
    name: text('name').notNull(),
    /** Free classification shown in role management (admin, staff, advertiser, monitor, custom). */
    type: text('type').notNull().default('custom'),
    deptId: text('dept_id').references(() => departments.id),
    dataScope: text('data_scope').$type<DataScope>().notNull().default('self'),
    permissionCodes: text('permission_codes').array().notNull().default(sql`'{}'::text[]`),
    /** Built-in roles are created with the enterprise and cannot be deleted. */
    builtin: boolean('builtin').notNull().default(false),
    /**
     * Set on roles the system creates (a key of BUILTIN_NAMES, @marquee/protocol): their name is
     * shown in the reader's language. Null for names people give; renaming clears it.
     */
    builtinKey: text('builtin_key').$type<BuiltinKey>(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('roles_data_scope_check', sql`${t.dataScope} in ('self', 'dept_and_below', 'dept_only')`),
    index('roles_ent_name_idx').on(t.entId, t.name),
    index('roles_ent_dept_idx').on(t.entId, t.deptId),
  ],
);

export const accountRoles = pgTable(
  'account_roles',
  {
    entId: text('ent_id')
      .notNull()
      .references(() => enterprises.id),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    roleId: text('role_id')
      .notNull()
      .references(() => roles.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.entId, t.accountId, t.roleId] }),
    index('account_roles_ent_role_idx').on(t.entId, t.roleId),
  ],
);
