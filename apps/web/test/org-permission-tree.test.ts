import type { PermissionNode } from '@marquee/protocol';
import { describe, expect, it } from 'vitest';
import { checkedLeaves, codesToSave, indexTree, toggleNode, toUiTree } from '../src/features/roles/permissionTree';

const catalogue: PermissionNode[] = [
  {
    code: 'sec_user',
    title: 'menu:user',
    children: [
      { code: 'page_adv', title: 'menu:userAdv' },
      {
        code: 'page_company',
        title: 'menu:userCompany',
        children: [
          { code: 'act_account', title: 'roles:perm.act_account' },
          { code: 'act_dept', title: 'roles:perm.act_dept' },
        ],
      },
    ],
  },
  { code: 'sec_alarm', title: 'menu:alarm', children: [] },
  { code: '__other', title: 'roles:perm.other', children: [{ code: 'notice', title: 'roles:perm.notice' }] },
];

describe('role dialog permission tree', () => {
  const tree = toUiTree(catalogue);
  const index = indexTree(tree);

  it('turns a page with actions into a group whose first leaf is the page itself', () => {
    const company = tree[0].children[1];
    expect(company.key).toBe('#page_company');
    expect(company.children.map((c) => c.key)).toEqual(['page_company', 'act_account', 'act_dept']);
    expect([...index.leaves].sort()).toEqual(
      ['act_account', 'act_dept', 'notice', 'page_adv', 'page_company', 'sec_alarm'].sort(),
    );
  });

  it('shows a role holding a page but not its actions with only the page checked', () => {
    expect(checkedLeaves(['sec_user', 'page_company', 'notice'], index)).toEqual(['page_company', 'notice']);
  });

  it('saves the checked leaves with their section, never groups or the other bucket', () => {
    expect(codesToSave(['act_account', 'notice'], index)).toEqual(['act_account', 'notice', 'sec_user']);
    expect(codesToSave(['sec_alarm'], index)).toEqual(['sec_alarm']);
    expect(codesToSave([], index)).toEqual([]);
  });

  it('toggles a node from its title: all its leaves on, then all off', () => {
    const on = toggleNode([], '#page_company', index);
    expect(on.sort()).toEqual(['act_account', 'act_dept', 'page_company']);
    const partial = toggleNode(['act_account'], 'sec_user', index);
    expect(partial.sort()).toEqual(['act_account', 'act_dept', 'page_adv', 'page_company']);
    expect(toggleNode(partial, 'sec_user', index)).toEqual([]);
  });
});
