import { Perm } from '@marquee/protocol';
import type { Page } from '@playwright/test';
import { apiCall, DEMO_PASSWORD, loginApi } from '../fixtures/api.js';
import { createAccount, createRole, deptId, outboxCode, uniqueName } from '../fixtures/org.js';
import { expect, openAs, test } from '../fixtures/session.js';

/** Opens the accounts tab of /user/company filtered to one login name. */
async function openAccount(page: Page, loginName: string) {
  await page.goto(`/user/company?tab=accounts&loginName=${loginName}`);
  await expect(page.getByTestId(`account-row-${loginName}`)).toBeVisible();
}

test('sharing a template with a department (type 1) and an account: sub-department and account see it, the sibling does not', async ({
  browser,
}) => {
  const admin = await loginApi('entadmin');
  const viewer = await createRole(admin.token, {
    name: uniqueName('tpl_viewer'),
    permissionCodes: [Perm.adv, Perm.template],
    dataScope: 'self',
  });
  const [shanghai, shenzhen, south] = await Promise.all(
    ['Shanghai Store', 'Shenzhen Store', 'South Region'].map((n) => deptId(admin.token, n)),
  );
  const subMember = await createAccount(admin.token, { prefix: 'e2e_sub', deptIds: [shanghai], roleIds: [viewer] });
  const target = await createAccount(admin.token, { prefix: 'e2e_acc', deptIds: [shenzhen], roleIds: [viewer] });
  const sibling = await createAccount(admin.token, { prefix: 'e2e_sib', deptIds: [south], roleIds: [viewer] });

  const page = await browser.newPage();
  await openAs(page, 'entadmin', '/template');
  const template = 'Quarterly results';
  await page.getByTestId(`template-share-${template}`).click();
  const dialog = page.getByTestId('permission-dialog');
  await expect(dialog.getByTestId('perm-dept-East Region')).toBeVisible();
  await dialog
    .locator('.ant-tree-treenode', { has: page.getByTestId('perm-dept-East Region') })
    .locator('.ant-tree-checkbox')
    .click();
  await expect(dialog.getByTestId('perm-tag-East Region')).toBeVisible();
  await dialog.getByTestId('perm-accounts').click();
  await page.keyboard.type(target.loginName);
  await page.locator('.ant-select-item-option', { hasText: target.loginName }).first().click();
  await page.keyboard.press('Escape');
  await expect(dialog.getByTestId(`perm-tag-${target.loginName}`)).toBeVisible();
  await dialog.getByTestId('permission-submit').click();
  await expect(page.getByTestId('permission-dialog')).toBeHidden();

  for (const [who, sees] of [
    [subMember.loginName, true],
    [target.loginName, true],
    [sibling.loginName, false],
  ] as const) {
    const p = await browser.newPage();
    await openAs(p, who, '/template');
    await expect(p.getByTestId('template-page')).toBeVisible();
    await p.waitForLoadState('networkidle');
    await expect(p.getByTestId(`template-row-${template}`)).toHaveCount(sees ? 1 : 0);
    await p.close();
  }
});

test('register a company, then log in with a phone code read from the development outbox', async ({ page }) => {
  const phone = `139${String(Date.now()).slice(-8)}`;
  const loginName = uniqueName('e2e_co');
  await page.goto('/login');
  await page.getByTestId('login-register').click();
  await expect(page).toHaveURL(/\/login\/register$/);
  await page.getByTestId('register-company').fill(`E2E Screens ${loginName}`);
  await page.getByTestId('register-credit-code').fill(`91310000${String(Date.now()).slice(-10)}`);
  await page.getByTestId('register-account').fill(loginName);
  await page.getByTestId('register-password').fill(DEMO_PASSWORD);
  await page.getByTestId('register-confirm').fill(DEMO_PASSWORD);
  await page.getByTestId('register-phone').fill(phone);
  await page.getByTestId('register-send-code').click();
  await expect.poll(() => outboxCode(phone).catch(() => ''), { timeout: 10_000 }).toMatch(/^\d{6}$/);
  await page.getByTestId('register-code').fill(await outboxCode(phone));
  await page.getByTestId('register-submit').click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByTestId('home-page')).toBeVisible();

  // The new administrator logs out and back in with a code sent to the phone.
  await page.getByTestId('user-dropdown').click();
  await page.getByTestId('logout').click();
  await expect(page).toHaveURL(/\/login/);
  await page.getByTestId('login-tab-phone').click();
  await page.getByTestId('login-phone').fill(phone);
  await page.getByTestId('login-send-code').click();
  await expect(page.getByTestId('login-code-sent')).toBeVisible();
  await page.getByTestId('login-code').fill(await outboxCode(phone));
  await page.getByTestId('login-code-submit').click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByTestId('user-dropdown')).toBeVisible();
});

test('invite an account by QR link and register through it', async ({ page, browser }) => {
  await openAs(page, 'entadmin', '/user/company?tab=accounts');
  await page.getByTestId('account-invite').click();
  await page.getByTestId('invite-generate').click();
  await expect(page.getByTestId('invite-qr')).toBeVisible();
  const link = (await page.getByTestId('invite-link').textContent())?.trim() ?? '';
  expect(link).toContain('/login/register?invite=');

  const invitee = await browser.newPage();
  const loginName = uniqueName('e2e_inv');
  await invitee.goto(link);
  await expect(invitee.getByTestId('invite-enterprise')).toBeVisible();
  await invitee.getByTestId('invite-account').fill(loginName);
  await invitee.getByTestId('invite-real-name').fill('Invited Person');
  await invitee.getByTestId('invite-password').fill(DEMO_PASSWORD);
  await invitee.getByTestId('invite-confirm').fill(DEMO_PASSWORD);
  await invitee.getByTestId('invite-submit').click();
  await expect(invitee).toHaveURL(/\/login/);
  await invitee.getByTestId('login-account').fill(loginName);
  await invitee.getByTestId('login-password').fill(DEMO_PASSWORD);
  await invitee.getByTestId('login-submit').click();
  await expect(invitee.getByTestId('home-page')).toBeVisible();
});

test('a role with a reduced permission tree shrinks the menu of its account', async ({ page, browser }) => {
  const admin = await loginApi('entadmin');
  const broad = await createRole(admin.token, {
    name: uniqueName('broad'),
    permissionCodes: [Perm.device, Perm.deviceTags, Perm.report, Perm.reportDevice, Perm.my],
    dataScope: 'self',
  });
  const member = await createAccount(admin.token, {
    prefix: 'e2e_role',
    deptIds: [await deptId(admin.token, 'East Region')],
    roleIds: [broad],
  });
  const memberPage = await browser.newPage();
  await openAs(memberPage, member.loginName);
  await expect(memberPage.getByTestId('menu-report')).toBeVisible();
  await expect(memberPage.getByTestId('menu-device')).toBeVisible();

  // The administrator creates a reduced role in the permission tree and gives it to the account.
  const reduced = uniqueName('reduced');
  await openAs(page, 'entadmin', '/user/companyRole');
  await page.getByTestId('role-add').click();
  await page.getByTestId('role-name-input').fill(reduced);
  await page.getByTestId(`perm-node-${Perm.device}`).first().click();
  await page.getByTestId('role-save').click();
  await expect(page.getByTestId(`role-row-${reduced}`)).toBeVisible();
  const roles = await apiCall('roleList', { page: 1, size: 10, name: reduced }, { token: admin.token });
  const reducedId = roles.payload.data.find((r) => r.name === reduced)?.id;
  expect(reducedId).toBeTruthy();
  expect(
    (await apiCall('accountBatchRoles', { ids: [member.id], roleIds: [reducedId!] }, { token: admin.token })).code,
  ).toBe(0);

  await memberPage.reload();
  await expect(memberPage.getByTestId('menu-device')).toBeVisible();
  await expect(memberPage.getByTestId('menu-report')).toHaveCount(0);
});

test('pausing an account ends its open session', async ({ page, browser }) => {
  const admin = await loginApi('entadmin');
  const role = await createRole(admin.token, {
    name: uniqueName('pause'),
    permissionCodes: [Perm.device, Perm.my],
    dataScope: 'self',
  });
  const member = await createAccount(admin.token, {
    prefix: 'e2e_pause',
    deptIds: [await deptId(admin.token, 'South Region')],
    roleIds: [role],
  });
  const memberPage = await browser.newPage();
  await openAs(memberPage, member.loginName);
  await expect(memberPage.getByTestId('home-page')).toBeVisible();

  await openAs(page, 'entadmin');
  await openAccount(page, member.loginName);
  await page.getByTestId(`account-pause-${member.loginName}`).click();
  await page.getByTestId('confirm-ok').click();
  await expect(page.getByTestId(`account-enable-${member.loginName}`)).toBeVisible({ timeout: 20_000 });

  await memberPage.getByTestId('menu-device').click();
  await memberPage.reload();
  await expect(memberPage).toHaveURL(/\/login/);
});
