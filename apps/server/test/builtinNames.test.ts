import { readFileSync } from 'node:fs';
import { BUILTIN_NAMES, ErrorCode, endpoints, LOCALES } from '@marquee/protocol';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../src/auth/passwords.js';
import { roles } from '../src/db/schema/index.js';
import { createEnterpriseWithAdmin } from '../src/modules/enterprise/service.js';
import { type ApiClient, BACKENDS, createTestApp, TEST_PASSWORD, type TestApp, uniqueName } from './helpers/index.js';

/**
 * Built-in names (docs/ARCHITECTURE.md): a role the system creates reads in the caller's
 * language everywhere the console shows it; a name people give is never translated.
 */
const ADMIN = BUILTIN_NAMES.enterprise_admin;
const ADVERTISER = BUILTIN_NAMES.advertiser;
const STRONG = 'Strong#Pass1';

describe.each(BACKENDS)('built-in names on %s', (backend) => {
  let t: TestApp;
  let passwordHash: string;
  beforeAll(async () => {
    t = await createTestApp(backend);
    passwordHash = await hashPassword(TEST_PASSWORD);
  });
  afterAll(() => t.close());

  /** A new enterprise made as the product makes one, with its administrator logged in. */
  async function newEnterprise() {
    const loginName = uniqueName('adm');
    const ent = await createEnterpriseWithAdmin(t.db, {
      kind: 'enterprise',
      name: uniqueName('Ent'),
      socialCreditCode: null,
      admin: { loginName, passwordHash, realName: 'Admin' },
    });
    const client = await t.loginAs({ id: ent.adminId, entId: ent.id, loginName, password: TEST_PASSWORD });
    return { ...ent, client };
  }

  async function roleNames(client: ApiClient, language: string) {
    const res = await client.call(endpoints.roleList, { page: 1, size: 50 }, { language });
    expect(res.envelope.code).toBe(ErrorCode.OK);
    return new Map(res.envelope.payload.data.map((r) => [r.id, r.name]));
  }

  async function accountRoleNames(client: ApiClient, accountId: string, language: string) {
    const res = await client.call(endpoints.accountList, { page: 1, size: 50 }, { language });
    expect(res.envelope.code).toBe(ErrorCode.OK);
    return res.envelope.payload.data.find((a) => a.id === accountId)?.roles.map((r) => r.name);
  }

  it('a new enterprise administrator role reads in the caller language in lists, detail, options and tags', async () => {
    const ent = await newEnterprise();
    const [row] = await t.db.select({ key: roles.builtinKey }).from(roles).where(eq(roles.id, ent.adminRoleId));
    expect(row.key).toBe('enterprise_admin');
    expect(ADMIN).toEqual({ 'zh-CN': '企业管理员', 'en-US': 'Enterprise administrator', ja: '企業管理者' });
    for (const language of LOCALES) {
      expect((await roleNames(ent.client, language)).get(ent.adminRoleId)).toBe(ADMIN[language]);
      expect(await accountRoleNames(ent.client, ent.adminId, language)).toEqual([ADMIN[language]]);
      const detail = await ent.client.call(endpoints.roleDetail, { id: ent.adminRoleId }, { language });
      expect(detail.envelope.payload.name).toBe(ADMIN[language]);
      const options = await ent.client.call(endpoints.roleOptions, {}, { language });
      expect(options.envelope.payload.find((o) => o.value === ent.adminRoleId)?.label).toBe(ADMIN[language]);
    }
    // The name filter searches the name the caller reads.
    const found = await ent.client.call(
      endpoints.roleList,
      { page: 1, size: 10, name: '管理员' },
      { language: 'zh-CN' },
    );
    expect(found.envelope.payload.data.map((r) => r.id)).toEqual([ent.adminRoleId]);
    const invite = await ent.client.call(endpoints.invitationCreate, { roleId: ent.adminRoleId, days: 1 });
    const info = await t.client().call(
      endpoints.invitationInspect,
      { token: invite.envelope.payload.token },
      {
        language: 'ja',
      },
    );
    expect(info.envelope.payload.roleName).toBe(ADMIN.ja);
  });

  it('the advertiser role the system makes reads in the caller language', async () => {
    const ent = await newEnterprise();
    const added = await ent.client.call(endpoints.advertiserAdd, {
      loginName: uniqueName('adv'),
      password: STRONG,
      realName: 'Bright Drinks',
    });
    expect(added.envelope.code).toBe(ErrorCode.OK);
    for (const language of LOCALES)
      expect(await accountRoleNames(ent.client, added.envelope.payload.id, language)).toEqual([ADVERTISER[language]]);
  });

  it('a built-in name is reserved in every language; renaming makes the name the user own, never translated', async () => {
    const ent = await newEnterprise();
    const base = { type: 'custom', dataScope: 'self', permissionCodes: [] } as const;
    for (const name of [ADMIN['en-US'], ADMIN['zh-CN'], ADMIN.ja.toUpperCase()]) {
      const taken = await ent.client.call(endpoints.roleAdd, { ...base, name });
      expect(taken.envelope.code).toBe(ErrorCode.CONFLICT);
    }
    const detail = await ent.client.call(endpoints.roleDetail, { id: ent.adminRoleId }, { language: 'zh-CN' });
    const { id, name, type, deptId, dataScope, permissionCodes } = detail.envelope.payload;
    const edit = { id, type, deptId, dataScope, permissionCodes };

    // Saved under the name the form showed (Chinese): still built-in, still translated.
    const same = await ent.client.call(endpoints.roleUpdate, { ...edit, name }, { language: 'zh-CN' });
    expect(same.envelope.code).toBe(ErrorCode.OK);
    expect((await roleNames(ent.client, 'en-US')).get(id)).toBe(ADMIN['en-US']);

    // Renamed: the administrator's own name in every language.
    const renamed = await ent.client.call(endpoints.roleUpdate, { ...edit, name: 'Administrators' });
    expect(renamed.envelope.code).toBe(ErrorCode.OK);
    for (const language of LOCALES) expect((await roleNames(ent.client, language)).get(id)).toBe('Administrators');

    // Now free, a role people name 'Enterprise administrator' keeps that name in Chinese and Japanese.
    const own = await ent.client.call(endpoints.roleAdd, { ...base, name: ADMIN['en-US'] });
    expect(own.envelope.code).toBe(ErrorCode.OK);
    for (const language of LOCALES)
      expect((await roleNames(ent.client, language)).get(own.envelope.payload.id)).toBe(ADMIN['en-US']);
    const zh = await ent.client.call(endpoints.roleList, { page: 1, size: 10, name: '管理员' }, { language: 'zh-CN' });
    expect(zh.envelope.payload.total).toBe(0);
  });

  it('the migration gives roles made before it their key', async () => {
    const ent = await newEnterprise();
    await t.db.update(roles).set({ builtinKey: null }).where(eq(roles.entId, ent.id));
    const file = new URL('../src/db/migrations/0014_builtin_names.sql', import.meta.url);
    const updates = readFileSync(file, 'utf8')
      .split('--> statement-breakpoint')
      .map((s) => s.replace(/^--.*$/gm, '').trim())
      .filter((s) => s.startsWith('UPDATE'));
    expect(updates.length).toBeGreaterThan(0);
    for (const statement of updates) await t.db.execute(sql.raw(statement));
    expect((await roleNames(ent.client, 'ja')).get(ent.adminRoleId)).toBe(ADMIN.ja);
  });
});
