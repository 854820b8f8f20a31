import { buildMenu, type MenuItem, Perm } from '@marquee/protocol';
import { describe, expect, it } from 'vitest';
import {
  activeMenuCode,
  filterMenu,
  isMenuItemAllowed,
  menuIconName,
  rootOf,
  visibleMenuCount,
} from '../../src/shell/menu/filterMenu';

const serverMenu: MenuItem[] = [
  { code: 'home', url: '/', icon: 'home' },
  {
    code: 'advert',
    url: '/advert',
    icon: 'advert',
    children: [
      { code: 'advertAudit', url: '/advert/audit' },
      { code: 'advertMaterial', url: '/material_mag' },
    ],
  },
  { code: 'template', url: '/temp_mag' },
  {
    code: 'report',
    url: '/report',
    icon: 'report',
    children: [
      { code: 'reportFlowConsumption', url: '/report/flowConsumption' },
      { code: 'reportAd', url: '/report/ad' },
    ],
  },
  { code: 'skin', url: '/skin' },
  { code: 'outside', url: '/not/in/the/route/table' },
];

describe('menu filtering by permission', () => {
  it('keeps items whose route permission is held, and routes without mapping', () => {
    const menu = filterMenu(serverMenu, [Perm.adv, Perm.advAudit, Perm.report, Perm.sourceConsumption]);
    expect(menu.map((i) => i.code)).toEqual(['home', 'advert', 'report', 'skin', 'outside']);
    expect(menu[1].children?.map((c) => c.code)).toEqual(['advertAudit']);
    expect(menu[2].children?.map((c) => c.code)).toEqual(['reportFlowConsumption']);
  });

  it('resolves menu url aliases before looking up the permission', () => {
    expect(isMenuItemAllowed({ url: '/material_mag' }, [Perm.advMaterial])).toBe(true);
    expect(isMenuItemAllowed({ url: '/material_mag' }, [Perm.adv])).toBe(false);
    expect(isMenuItemAllowed({ url: '/temp_mag' }, [Perm.template])).toBe(true);
  });

  it('drops a parent the user may not open, with its children', () => {
    const menu = filterMenu(serverMenu, [Perm.advAudit]);
    expect(menu.map((i) => i.code)).toEqual(['home', 'skin', 'outside']);
  });

  it('keeps a parent without children when none of them is allowed', () => {
    const menu = filterMenu(serverMenu, [Perm.report]);
    const report = menu.find((i) => i.code === 'report');
    expect(report).toBeDefined();
    expect(report?.children).toBeUndefined();
  });

  it('follows the section 6 code rules (comma lists, numeric codes)', () => {
    expect(isMenuItemAllowed({ url: '/report/flowConsumption' }, ['yxf_new_source_consumption'])).toBe(true);
    expect(isMenuItemAllowed({ url: '/report/flowConsumption' }, [])).toBe(false);
  });

  it('agrees with the server-side menu builder for the same permissions', () => {
    const perms = [Perm.adv, Perm.advPlan, Perm.device, Perm.deviceTags];
    const all = buildMenu(() => true);
    const server = buildMenu((p) => !p || perms.includes(p as never));
    expect(filterMenu(all, perms)).toEqual(server);
  });
});

describe('menu helpers', () => {
  it('finds the active item from the first path segment', () => {
    const menu = filterMenu(serverMenu, [Perm.adv, Perm.advAudit, Perm.template, Perm.report, Perm.reportAd]);
    expect(activeMenuCode(menu, '/advert/audit')).toBe('advert');
    expect(activeMenuCode(menu, '/template/edit')).toBe('template');
    expect(activeMenuCode(menu, '/report/ad')).toBe('report');
    expect(activeMenuCode(menu, '/')).toBe('home');
    expect(activeMenuCode(menu, '/skin')).toBe('skin');
    // /poster has no item of its own here: its section (advert) is active.
    expect(activeMenuCode(menu, '/poster/editor')).toBe('advert');
  });

  it('picks icons by item, route, then section', () => {
    expect(menuIconName({ url: '/device', icon: 'device' })).toBe('device');
    expect(menuIconName({ url: '/template' })).toBe('advert');
    expect(menuIconName({ url: '/alarm' })).toBe('alarm');
  });

  it('computes the first path segment', () => {
    expect(rootOf('/advert/audit?x=1')).toBe('/advert');
    expect(rootOf('/')).toBe('/');
  });

  it('puts what does not fit the rail height into a "more" entry', () => {
    expect(visibleMenuCount(5, 600, 60)).toBe(5);
    expect(visibleMenuCount(13, 600, 60)).toBe(9);
    expect(visibleMenuCount(10, 600, 60)).toBe(10);
    expect(visibleMenuCount(3, 10, 60)).toBe(0);
  });
});
