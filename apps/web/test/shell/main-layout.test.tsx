import { Perm, ROUTES } from '@marquee/protocol';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { initI18n, switchLocale } from '../../src/i18n';
import { initialSessionState, useSession } from '../../src/session/session';
import { reloadPage } from '../../src/shell/reload';
import { tabKeyTarget } from '../../src/shell/TabBar';
import { useTabs } from '../../src/shell/tabs/store';
import { installDomShims, renderShell } from './harness';

const api = vi.hoisted(() => ({
  calls: [] as { name: string; data: unknown }[],
  answers: {} as Record<string, (data: unknown) => unknown>,
}));

vi.mock('../../src/api/client', () => ({
  ApiError: class ApiError extends Error {},
  call: vi.fn(async (name: string, data: unknown) => {
    api.calls.push({ name, data });
    const answer = api.answers[name];
    if (!answer) throw new Error(`no answer for ${name}`);
    return answer(data);
  }),
}));
vi.mock('../../src/shell/reload', () => ({ reloadPage: vi.fn(), DEPT_SWITCH_RELOAD_MS: 500 }));
vi.mock('../../src/i18n', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../src/i18n')>()),
  switchLocale: vi.fn(() => true),
}));

const ALL_PERMS = [Perm.device, Perm.report, Perm.applicationMarket, Perm.notice, Perm.deptSwitch, Perm.appMarket];

function signIn(extra: Partial<ReturnType<typeof initialSessionState>> = {}) {
  useSession.setState({
    ...initialSessionState(),
    token: 'token-1',
    userId: 'u1',
    userName: 'Alice Admin',
    loginName: 'entadmin',
    deptId: 'd1',
    deptName: 'Head office',
    welcomeSpeech: 'Good to see you',
    isYXF: false,
    permissionList: [...ALL_PERMS],
    navMenuList: [
      { code: 'home', url: '/', icon: 'home' },
      { code: 'device', url: '/device', icon: 'device', children: [{ code: 'deviceTags', url: '/app_tags' }] },
      { code: 'user', url: '/user', icon: 'user' },
      { code: 'report', url: '/report', icon: 'report' },
      { code: 'skin', url: '/skin' },
    ],
    loginout: false,
    ...extra,
  });
}

beforeAll(async () => {
  installDomShims();
  await initI18n('en-US');
});

beforeEach(() => {
  api.calls.length = 0;
  api.answers = {
    stationLetterList: () => [],
    noticeList: () => ({ total: 0, data: [] }),
    deptUserList: () => [
      { value: 'd1', label: 'Head office' },
      { value: 'd2', label: 'Branch north' },
    ],
  };
  useTabs.getState().reset();
  signIn();
  vi.mocked(reloadPage).mockClear();
  vi.mocked(switchLocale).mockClear();
});

afterEach(() => cleanup());

function mount(path: string) {
  const shell = renderShell(path);
  render(shell.tree);
  return shell;
}

const tab = (path: string) => screen.getByTestId(`tab-${path}`);
const tabPaths = () => useTabs.getState().visitedViews.map((v) => v.path);
const go = (router: ReturnType<typeof mount>['router'], to: string) => act(() => router.navigate(to));

describe('side menu', () => {
  it('shows the permitted items with translated titles and marks the active one', async () => {
    mount('/device');
    await screen.findByTestId('page-device');
    expect(screen.getByTestId('menu-home').textContent).toContain('Home');
    expect(screen.getByTestId('menu-device').textContent).toContain('Devices');
    expect(screen.getByTestId('menu-report')).toBeTruthy();
    // No yxf_new_user permission: the user section is hidden.
    expect(screen.queryByTestId('menu-user')).toBeNull();
    expect(screen.getByTestId('menu-device').getAttribute('aria-current')).toBe('page');
    expect(screen.getByTestId('menu-home').getAttribute('aria-current')).toBeNull();
  });

  it('marks a rail entry whose own page is not built, and only those (issue 25)', async () => {
    // Every section of the route table with a flyout page: marked exactly when its own page is not online.
    const sections = ROUTES.filter((r) => r.menu && r.path !== '/' && r.path.split('/').length === 2 && r.icon);
    useSession.setState({
      permissionList: [...ALL_PERMS, Perm.reportAd, ...sections.flatMap((r) => (r.permission ? [r.permission] : []))],
      navMenuList: [
        { code: 'home', url: '/', icon: 'home' },
        ...sections.map((r) => ({
          code: r.title ?? '',
          url: r.path,
          icon: r.icon ?? '',
          children: [{ code: 'reportAd', url: '/report/ad' }],
        })),
      ],
    });
    mount('/device');
    await screen.findByTestId('page-device');
    for (const r of sections) {
      const entry = screen.getByTestId(`menu-${r.title}`);
      expect(entry.textContent?.includes('Not online yet'), r.path).toBe(!r.online);
    }
    expect(screen.getByTestId('menu-home').textContent).not.toContain('Not online yet');
  });

  it('opens a flyout with the children of an item', async () => {
    useSession.setState({ permissionList: [...ALL_PERMS, Perm.deviceTags] });
    mount('/');
    await screen.findByTestId('page-home');
    fireEvent.mouseEnter(screen.getByTestId('menu-device'));
    const child = await screen.findByTestId('menu-deviceTags');
    expect(child.textContent).toContain('Device tags');
  });
});

describe('tab bar', () => {
  it('opens a tab per visited page, the affix home first and without a close icon', async () => {
    const { router } = mount('/device');
    await screen.findByTestId('page-device');
    await go(router, '/report');
    await screen.findByTestId('page-report');
    expect(tabPaths()).toEqual(['/', '/device', '/report']);
    expect(tab('/report').textContent).toContain('Reports');
    expect(tab('/report').getAttribute('aria-selected')).toBe('true');
    expect(screen.queryByTestId('tab-close-/')).toBeNull();
    expect(screen.getByTestId('tab-close-/device')).toBeTruthy();
  });

  it('keeps cached pages alive and remounts pages that are not cached', async () => {
    const { router } = mount('/device');
    fireEvent.click(await screen.findByTestId('inc-device'));
    fireEvent.click(screen.getByTestId('inc-device'));
    await go(router, '/template/edit');
    fireEvent.click(await screen.findByTestId('inc-template-edit'));
    expect(screen.getByTestId('inc-template-edit').textContent).toContain('count-template-edit:1');
    // The device page is still mounted (hidden) with its state.
    expect(screen.getByTestId('inc-device').textContent).toContain('count-device:2');

    fireEvent.click(tab('/device'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/device'));
    expect(screen.getByTestId('inc-device').textContent).toContain('count-device:2');
    // Not cached: unmounted on leave.
    expect(screen.queryByTestId('inc-template-edit')).toBeNull();
    expect(useTabs.getState().cachedViews).not.toContain('/template/edit');

    fireEvent.click(tab('/template/edit'));
    expect((await screen.findByTestId('inc-template-edit')).textContent).toContain('count-template-edit:0');
  });

  it('closing the active tab goes to the last remaining tab', async () => {
    const { router } = mount('/device');
    await go(router, '/report');
    await go(router, '/skin');
    await go(router, '/report');
    fireEvent.click(screen.getByTestId('tab-close-/report'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/skin'));
    expect(tabPaths()).toEqual(['/', '/device', '/skin']);
  });

  it('closing an inactive tab stays on the page', async () => {
    const { router } = mount('/device');
    await go(router, '/report');
    fireEvent.click(screen.getByTestId('tab-close-/device'));
    await waitFor(() => expect(tabPaths()).toEqual(['/', '/report']));
    expect(router.state.location.pathname).toBe('/report');
  });

  it('closes a tab with the middle button, never an affix tab', async () => {
    const { router } = mount('/device');
    await screen.findByTestId('page-device');
    fireEvent(tab('/'), new MouseEvent('auxclick', { bubbles: true, button: 1 }));
    expect(tabPaths()).toEqual(['/', '/device']);
    fireEvent(tab('/device'), new MouseEvent('auxclick', { bubbles: true, button: 1 }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(tabPaths()).toEqual(['/']);
  });

  it('is a keyboard tab list: arrows move, Enter opens, Delete closes (never an affix tab)', async () => {
    const { router } = mount('/device');
    await screen.findByTestId('page-device');
    await go(router, '/report');
    await screen.findByTestId('page-report');
    const strip = screen.getByRole('tablist');
    expect(
      within(strip)
        .getAllByRole('tab')
        .map((el) => el.dataset.testid),
    ).toEqual(['tab-/', 'tab-/device', 'tab-/report']);
    // One stop in the tab order: the active tab; no control nested in a tab.
    expect(tab('/report').tabIndex).toBe(0);
    expect(tab('/').tabIndex).toBe(-1);
    expect(tab('/device').querySelector('button, a, input, [tabindex]')).toBeNull();
    expect(tab('/device').getAttribute('aria-keyshortcuts')).toBe('Delete');
    expect(tab('/').getAttribute('aria-keyshortcuts')).toBeNull();

    tab('/report').focus();
    fireEvent.keyDown(tab('/report'), { key: 'ArrowRight' });
    expect(document.activeElement).toBe(tab('/'));
    fireEvent.keyDown(tab('/'), { key: 'ArrowLeft' });
    expect(document.activeElement).toBe(tab('/report'));
    fireEvent.keyDown(tab('/report'), { key: 'Home' });
    expect(document.activeElement).toBe(tab('/'));
    fireEvent.keyDown(tab('/'), { key: 'End' });
    expect(document.activeElement).toBe(tab('/report'));
    fireEvent.keyDown(tab('/report'), { key: 'ArrowLeft' });
    expect(document.activeElement).toBe(tab('/device'));

    fireEvent.keyDown(tab('/device'), { key: 'Enter' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/device'));
    expect(tab('/device').getAttribute('aria-selected')).toBe('true');

    fireEvent.keyDown(tab('/'), { key: 'Delete' });
    expect(tabPaths()).toEqual(['/', '/device', '/report']);
    fireEvent.keyDown(tab('/device'), { key: 'Delete' });
    await waitFor(() => expect(tabPaths()).toEqual(['/', '/report']));
    await waitFor(() => expect(document.activeElement).toBe(tab('/report')));
  });

  it('moves the focus in a strip of tabs (tabKeyTarget)', () => {
    expect(tabKeyTarget('ArrowRight', 2, 3)).toBe(0);
    expect(tabKeyTarget('ArrowLeft', 0, 3)).toBe(2);
    expect(tabKeyTarget('ArrowDown', 0, 3)).toBe(1);
    expect(tabKeyTarget('Home', 2, 3)).toBe(0);
    expect(tabKeyTarget('End', 0, 3)).toBe(2);
    expect(tabKeyTarget('Enter', 0, 3)).toBeNull();
    expect(tabKeyTarget('ArrowRight', 0, 0)).toBeNull();
  });

  it('context menu: close all keeps the affix tab and goes to the index page', async () => {
    const { router } = mount('/device');
    await go(router, '/report');
    fireEvent.contextMenu(tab('/report'));
    fireEvent.click(await screen.findByTestId('tab-menu-close-all'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(tabPaths()).toEqual(['/']);
  });

  it('context menu: close others keeps the chosen tab and the affix tab, and opens it', async () => {
    const { router } = mount('/device');
    await go(router, '/report');
    await go(router, '/skin');
    fireEvent.contextMenu(tab('/device'));
    fireEvent.click(await screen.findByTestId('tab-menu-close-others'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/device'));
    expect(tabPaths()).toEqual(['/', '/device']);
  });

  it('context menu: refresh remounts the page', async () => {
    mount('/device');
    fireEvent.click(await screen.findByTestId('inc-device'));
    expect(screen.getByTestId('inc-device').textContent).toContain('count-device:1');
    fireEvent.contextMenu(tab('/device'));
    fireEvent.click(await screen.findByTestId('tab-menu-refresh'));
    await waitFor(() => expect(screen.getByTestId('inc-device').textContent).toContain('count-device:0'));
  });

  it('the affix tab has a disabled close entry', async () => {
    mount('/');
    await screen.findByTestId('page-home');
    fireEvent.contextMenu(tab('/'));
    const close = await screen.findByTestId('tab-menu-close');
    expect(close.closest('[aria-disabled="true"]')).not.toBeNull();
  });
});

describe('leave tips', () => {
  it('asks before closing a tab whose page registered a leave tip, with the page title', async () => {
    const { router } = mount('/device');
    await go(router, '/advert/edit');
    await screen.findByTestId('page-editor');
    fireEvent.click(screen.getByTestId('tab-close-/advert/edit'));
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('Publish ad');
    fireEvent.click(within(dialog).getByTestId('tab-leave-cancel'));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(tabPaths()).toContain('/advert/edit');
    expect(router.state.location.pathname).toBe('/advert/edit');

    fireEvent.click(screen.getByTestId('tab-close-/advert/edit'));
    fireEvent.click(within(await screen.findByRole('dialog')).getByTestId('tab-leave-ok'));
    // Closing a view that is not cached sets auto-leave: the navigation is not asked again.
    await waitFor(() => expect(router.state.location.pathname).toBe('/device'));
    expect(tabPaths()).toEqual(['/', '/device']);
    await waitFor(() => expect(useTabs.getState().isAutoLeave).toBe(false));
  });

  it('with isAutoLeave set the tab closes at once', async () => {
    const { router } = mount('/device');
    await go(router, '/advert/edit');
    await screen.findByTestId('page-editor');
    act(() => useTabs.getState().setAutoLeave(true));
    fireEvent.click(screen.getByTestId('tab-close-/advert/edit'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/device'));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('asks before navigating away from an uncached page with a leave tip', async () => {
    const { router } = mount('/advert/edit');
    await screen.findByTestId('page-editor');
    fireEvent.click(screen.getByTestId('menu-report'));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByTestId('tab-leave-cancel'));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(router.state.location.pathname).toBe('/advert/edit');

    // Saved: the tip is gone and navigation is free.
    fireEvent.click(screen.getByTestId('save-editor'));
    fireEvent.click(screen.getByTestId('menu-report'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/report'));
  });
});

describe('header', () => {
  it('greets with the stored greeting, or the fixed text for the provider own users', async () => {
    mount('/');
    expect((await screen.findByTestId('header-greeting')).textContent).toContain('Good to see you');
    act(() => useSession.setState({ isYXF: true }));
    expect(screen.getByTestId('header-greeting').textContent).toContain('Welcome to the Marquee');
  });

  it('shows station letters in a dismissible banner and a dialog with a count and the market link', async () => {
    api.answers.stationLetterList = () => ['Device expiring', 'Balance low'];
    mount('/');
    const banner = await screen.findByTestId('station-letter-banner');
    expect(banner.textContent).toContain('Device expiring, Balance low');
    fireEvent.click(within(banner).getByText('Device expiring, Balance low'));
    const dialog = await screen.findByTestId('station-letter-dialog');
    expect(dialog.textContent).toContain('2 messages in total');
    expect(dialog.querySelectorAll('ol > li')).toHaveLength(2);
    expect(screen.getByTestId('station-letter-market').getAttribute('href')).toBe('/shop');
    fireEvent.click(screen.getByText('Close'));
    fireEvent.click(screen.getByTestId('station-letter-dismiss'));
    await waitFor(() => expect(screen.queryByTestId('station-letter-banner')).toBeNull());
  });

  it('keeps the banner dismissed after a reload until the letters change, per account (issue 25)', async () => {
    localStorage.clear();
    api.answers.stationLetterList = () => ['Renew soon'];
    mount('/');
    fireEvent.click(await screen.findByTestId('station-letter-dismiss'));
    await waitFor(() => expect(screen.queryByTestId('station-letter-banner')).toBeNull());
    // A reload: the shell mounts again and asks for the letters again.
    cleanup();
    const asked = api.calls.filter((c) => c.name === 'stationLetterList').length;
    mount('/');
    await screen.findByTestId('header-greeting');
    await waitFor(() => expect(api.calls.filter((c) => c.name === 'stationLetterList').length).toBeGreaterThan(asked));
    expect(screen.queryByTestId('station-letter-banner')).toBeNull();
    cleanup();
    // Another account on this browser still sees it.
    signIn({ userId: 'u2' });
    mount('/');
    expect((await screen.findByTestId('station-letter-banner')).textContent).toContain('Renew soon');
    cleanup();
    // A new letter shows the banner again.
    signIn();
    api.answers.stationLetterList = () => ['Renew soon', 'New device'];
    mount('/');
    expect((await screen.findByTestId('station-letter-banner')).textContent).toContain('New device');
    localStorage.clear();
  });

  it('hides the market link without the market permission', async () => {
    useSession.setState({ permissionList: [Perm.device] });
    api.answers.stationLetterList = () => ['One'];
    mount('/');
    fireEvent.click(within(await screen.findByTestId('station-letter-banner')).getByText('One'));
    await screen.findByTestId('station-letter-dialog');
    expect(screen.queryByTestId('station-letter-market')).toBeNull();
  });

  it('lists notices and answers a pending monitor application', async () => {
    let status: 'pending' | 'agreed' = 'pending';
    api.answers.noticeList = () => ({
      total: 1,
      data: [
        {
          id: 'n1',
          type: 'system',
          title: 'Monitor application',
          content: '<p>Please allow <b>monitoring</b></p><img src="/a.png"><script>window.bad=1</script>',
          createdAt: '2026-01-02T03:04:05Z',
          monitorStatus: status,
        },
      ],
    });
    api.answers.monitorApply = () => {
      status = 'agreed';
      return null;
    };
    mount('/');
    await waitFor(() => expect(api.calls.some((c) => c.name === 'noticeList')).toBe(true));
    expect(api.calls.find((c) => c.name === 'noticeList')?.data).toEqual({ page: 1, size: 10, pushPlatform: 1 });
    fireEvent.click(screen.getByTestId('notice-bell'));
    fireEvent.click(await screen.findByTestId('notice-item-n1'));
    const content = await screen.findByTestId('notice-content');
    expect(content.innerHTML).toContain('<b>monitoring</b>');
    expect(content.innerHTML).not.toContain('script');
    expect(content.querySelector('img')).not.toBeNull();
    fireEvent.click(screen.getByTestId('notice-agree'));
    await waitFor(() =>
      expect(api.calls.find((c) => c.name === 'monitorApply')?.data).toEqual({ noticeId: 'n1', status: 1 }),
    );
    expect(await screen.findByText('Operation successful')).toBeTruthy();
    await waitFor(() => expect(api.calls.filter((c) => c.name === 'noticeList').length).toBeGreaterThanOrEqual(2));
  });

  it('names the bell with the count its badge shows (WCAG 2.5.3: the name contains the visible text)', async () => {
    for (const [total, shown, name] of [
      [3, '3', '3 notices'],
      [1, '1', '1 notice'],
      [150, '99+', '99+ notices'],
    ] as const) {
      api.answers.noticeList = () => ({ total, data: [] });
      mount('/');
      const bell = await screen.findByTestId('notice-bell');
      await waitFor(() => expect(bell.querySelector('.ant-badge-count')?.getAttribute('title')).toBe(String(total)));
      expect(bell.getAttribute('aria-label')).toBe(name);
      expect(bell.getAttribute('aria-label')?.split(' ')).toContain(shown);
      cleanup();
    }
    mount('/');
    await waitFor(() => expect(api.calls.some((c) => c.name === 'noticeList')).toBe(true));
    expect(screen.getByTestId('notice-bell').getAttribute('aria-label')).toBe('Notices');
  });

  it('shows no monitor buttons for other notices', async () => {
    api.answers.noticeList = () => ({
      total: 1,
      data: [{ id: 'n2', type: 'info', title: 'Maintenance', content: 'x', createdAt: '', monitorStatus: null }],
    });
    mount('/');
    fireEvent.click(await screen.findByTestId('notice-bell'));
    fireEvent.click(await screen.findByTestId('notice-item-n2'));
    await screen.findByTestId('notice-content');
    expect(screen.queryByTestId('notice-agree')).toBeNull();
    expect(screen.queryByTestId('notice-refuse')).toBeNull();
  });

  it('switches to another department, updates the user and reloads after 500 ms', async () => {
    api.answers.deptChange = (data) => ({
      ...useSession.getState(),
      folderMenuList: useSession.getState().navMenuList,
      deptId: (data as { deptId: string }).deptId,
      deptName: 'Branch north',
      entId: 'e1',
      entName: 'Ada Media',
      homeEntId: 'e1',
      id: 'u1',
      logo: '',
      openWxLogin: 'N',
      updatePwd: false,
    });
    mount('/');
    fireEvent.click(await screen.findByTestId('user-dropdown'));
    fireEvent.click(await screen.findByTestId('dept-d1'));
    expect(api.calls.some((c) => c.name === 'deptChange')).toBe(false);
    fireEvent.click(screen.getByTestId('dept-d2'));
    await waitFor(() => expect(useSession.getState().deptName).toBe('Branch north'));
    expect(api.calls.find((c) => c.name === 'deptChange')?.data).toEqual({ deptId: 'd2' });
    expect(reloadPage).not.toHaveBeenCalled();
    await waitFor(() => expect(reloadPage).toHaveBeenCalledTimes(1), { timeout: 2000 });
  });

  it('switches enterprise for an account that acts for several, like a department, and says which one it acts in', async () => {
    signIn({
      entId: 'e1',
      entName: 'Ada Agency',
      homeEntId: 'e1',
      permissionList: [...ALL_PERMS, Perm.userCompanyManage],
    });
    api.answers.enterpriseOptions = () => [
      { value: 'e1', label: 'Ada Agency' },
      { value: 'c1', label: 'Client Co' },
    ];
    api.answers.changeEnterprise = (data) => ({
      ...useSession.getState(),
      folderMenuList: useSession.getState().navMenuList,
      entId: (data as { entId: string }).entId,
      entName: 'Client Co',
      homeEntId: 'e1',
      deptId: 'c-root',
      deptName: 'Client Co',
      id: 'u1',
      logo: '',
      openWxLogin: 'N',
      updatePwd: false,
    });
    mount('/');
    fireEvent.click(await screen.findByTestId('user-dropdown'));
    expect((await screen.findByTestId('ent-e1')).textContent).toContain('Ada Agency (own)');
    fireEvent.click(screen.getByTestId('ent-e1'));
    expect(api.calls.some((c) => c.name === 'changeEnterprise')).toBe(false);
    fireEvent.click(screen.getByTestId('ent-c1'));
    await waitFor(() => expect(useSession.getState().entId).toBe('c1'));
    expect(api.calls.find((c) => c.name === 'changeEnterprise')?.data).toEqual({ entId: 'c1' });
    expect(screen.getByTestId('user-dept-name').textContent).toBe('Client Co · Client Co');
    await waitFor(() => expect(reloadPage).toHaveBeenCalledTimes(1), { timeout: 2000 });
  });

  it('shows no enterprise switch without the permission to manage enterprises', async () => {
    api.answers.enterpriseOptions = () => [
      { value: 'e1', label: 'Ada Agency' },
      { value: 'c1', label: 'Client Co' },
    ];
    mount('/');
    fireEvent.click(await screen.findByTestId('user-dropdown'));
    await screen.findByTestId('dept-d1');
    expect(screen.queryByTestId('ent-c1')).toBeNull();
    expect(api.calls.some((c) => c.name === 'enterpriseOptions')).toBe(false);
  });

  it('a failed department switch closes the dropdown', async () => {
    api.answers.deptChange = () => {
      throw new Error('denied');
    };
    mount('/');
    fireEvent.click(await screen.findByTestId('user-dropdown'));
    fireEvent.click(await screen.findByTestId('dept-d2'));
    await waitFor(() =>
      expect(screen.getByTestId('dept-d2').closest('.ant-dropdown')?.classList.contains('ant-dropdown-hidden')).toBe(
        true,
      ),
    );
    expect(reloadPage).not.toHaveBeenCalled();
  });

  it('lists departments only with the department-switch permission', async () => {
    useSession.setState({ permissionList: [Perm.device] });
    mount('/');
    fireEvent.click(await screen.findByTestId('user-dropdown'));
    expect((await screen.findByTestId('dept-d1')).textContent).toContain('Head office');
    expect(screen.queryByTestId('dept-d2')).toBeNull();
    expect(api.calls.some((c) => c.name === 'deptUserList')).toBe(false);
  });

  it('switches the language, marking the current one', async () => {
    mount('/');
    fireEvent.click(await screen.findByTestId('user-dropdown'));
    const current = await screen.findByTestId('lang-en-US');
    expect(current.querySelector('.anticon-check')).not.toBeNull();
    fireEvent.click(current);
    expect(switchLocale).not.toHaveBeenCalled();
    fireEvent.click(await screen.findByTestId('user-dropdown'));
    fireEvent.click(await screen.findByTestId('lang-ja'));
    expect(switchLocale).toHaveBeenCalledWith('ja');
  });

  it('logs out from the user dropdown', async () => {
    const logout = vi.fn(async () => {});
    useSession.setState({ logout });
    mount('/');
    fireEvent.click(await screen.findByTestId('user-dropdown'));
    fireEvent.click(await screen.findByTestId('logout'));
    expect(logout).toHaveBeenCalledTimes(1);
  });
});
