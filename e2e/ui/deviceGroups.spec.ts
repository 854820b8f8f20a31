import { DEVICE_API_PREFIX, Perm } from '@marquee/protocol';
import { apiCall, BASE_URL, loginApi } from '../fixtures/api.js';
import { createAccount, createRole, deptId, uniqueName } from '../fixtures/org.js';
import { expect, openAs, test } from '../fixtures/session.js';

/** Pairs a player over the device API (as a headless player does) and adds it in the console. */
async function addDevice(token: string, name: string): Promise<string> {
  const res = await fetch(`${BASE_URL}${DEVICE_API_PREFIX}/pairing`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ player: { version: 'e2e' } }),
  });
  const pairing = (await res.json()) as { code: number; payload: { code: string } };
  expect(pairing.code).toBe(0);
  const added = await apiCall('deviceAdd', { code: pairing.payload.code, name }, { token });
  expect(added.code).toBe(0);
  return added.payload.id;
}

test('a device group with devices, shared with a department: its members see the devices, a sibling does not', async ({
  browser,
}) => {
  // Three accounts open the console in turn: more than the default minute on a loaded machine.
  test.setTimeout(180_000);
  const admin = await loginApi('entadmin');
  const prefix = uniqueName('Screen');
  const [d1, d2] = [`${prefix}-lobby`, `${prefix}-door`];
  await addDevice(admin.token, d1);
  await addDevice(admin.token, d2);
  await addDevice(admin.token, `${prefix}-elsewhere`);
  const role = await createRole(admin.token, {
    name: uniqueName('dev_viewer'),
    permissionCodes: [Perm.device, Perm.deviceGroup],
    dataScope: 'self',
  });
  const [shanghai, south] = await Promise.all(['Shanghai Store', 'South Region'].map((n) => deptId(admin.token, n)));
  const member = await createAccount(admin.token, { prefix: 'e2e_grp', deptIds: [shanghai], roleIds: [role] });
  const sibling = await createAccount(admin.token, { prefix: 'e2e_sib', deptIds: [south], roleIds: [role] });

  // Create the group with two devices picked in the transfer.
  const page = await browser.newPage();
  await openAs(page, 'entadmin', '/device/group');
  await expect(page.getByTestId('device-group-page')).toBeVisible();
  await page.getByTestId('group-add').click();
  await expect(page.getByTestId('device-group-edit')).toBeVisible();
  const group = uniqueName('Lobby');
  await page.getByTestId('group-form-name').fill(group);
  const picker = page.getByTestId('group-form-devices');
  await picker.locator('.ant-transfer-section').first().locator('input[type=text]').fill(prefix);
  await page.getByTestId(`group-form-devices-item-${d1}`).click();
  await page.getByTestId(`group-form-devices-item-${d2}`).click();
  await expect(page.getByTestId(`group-form-devices-item-${prefix}-elsewhere`)).toBeVisible();
  await picker.locator('.ant-transfer-actions button').first().click();
  await page.getByTestId('group-form-save').click();
  await expect(page.getByTestId('device-group-page')).toBeVisible();
  const row = page.getByTestId(`group-row-${group}`);
  await expect(row).toBeVisible();
  await expect(row).toContainText('2');

  // Share it with East Region (and its sub-departments, Shanghai Store among them).
  await page.getByTestId(`group-share-${group}`).click();
  const dialog = page.getByTestId('permission-dialog');
  await expect(dialog.getByTestId('perm-dept-East Region')).toBeVisible();
  await dialog
    .locator('.ant-tree-treenode', { has: page.getByTestId('perm-dept-East Region') })
    .locator('.ant-tree-checkbox')
    .click();
  await expect(dialog.getByTestId('perm-tag-East Region')).toBeVisible();
  await dialog.getByTestId('permission-submit').click();
  await expect(dialog).toBeHidden();

  for (const [who, sees] of [
    [member.loginName, true],
    [sibling.loginName, false],
  ] as const) {
    const p = await browser.newPage();
    await openAs(p, who, '/device/group');
    await expect(p.getByTestId('device-group-page')).toBeVisible();
    await p.waitForLoadState('networkidle');
    const shared = p.getByTestId(`group-row-${group}`);
    await expect(shared).toHaveCount(sees ? 1 : 0);
    if (sees) await expect(shared).toContainText('2');
    const { token } = await loginApi(who);
    const list = await apiCall('deviceList', { size: 500, keyword: prefix }, { token });
    expect(list.code).toBe(0);
    expect(list.payload.data.map((d) => d.name).sort()).toEqual(sees ? [d2, d1].sort() : []);
    await p.close();
  }
});
