import { ErrorCode, Perm } from '@marquee/protocol';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { useSession } from '../src/session/session';
import { fakeServer, loginResponse, renderApp, setUpConsoleTests, shellAnswers } from './harness';

vi.setConfig({ testTimeout: 60_000 });
setUpConsoleTests({ asyncUtilTimeout: 8000 });

const SHA = 'ab12cd34ef56ab12cd34ef56ab12cd34ef56ab12cd34ef56ab12cd34ef56ab12';

const pkg = (extra: Record<string, unknown> = {}) => ({
  id: 'p1',
  kind: 'apk',
  version: '2.0.0',
  deviceType: 'marquee-headless',
  fileName: 'player-2.0.0.apk',
  size: 2_621_440,
  sha256: SHA,
  notes: 'Faster start',
  state: 'ready',
  createdAt: '2026-11-01T08:00:00.000Z',
  ...extra,
});

const counts = (extra: Record<string, number> = {}) => ({
  total: 4,
  queued: 0,
  sent: 0,
  downloading: 0,
  installing: 0,
  done: 0,
  failed: 0,
  ...extra,
});

const rollout = (extra: Record<string, unknown> = {}) => ({
  id: 'r1',
  packageId: 'p1',
  packageVersion: '2.0.0',
  kind: 'apk',
  rollbackOf: null,
  canaryPercent: 50,
  failureThreshold: 20,
  autoContinue: false,
  state: 'halted',
  stage: 1,
  haltReason: 'failure threshold passed',
  counts: counts({ failed: 1, done: 1, queued: 2 }),
  createdAt: '2026-11-01T09:00:00.000Z',
  ...extra,
});

const devices = [
  {
    deviceId: 'd1',
    deviceName: 'Lobby',
    stage: 1,
    state: 'done',
    previousVersion: '1.0.0',
    reason: null,
    updatedAt: '2026-11-01T09:01:00.000Z',
  },
  {
    deviceId: 'd2',
    deviceName: 'Gate',
    stage: 1,
    state: 'failed',
    previousVersion: '1.0.0',
    reason: 'the device did not answer in time',
    updatedAt: '2026-11-02T09:01:00.000Z',
  },
];

const signature = {
  accessId: 'local',
  policy: 'p',
  signature: 's',
  key: 'e/ent-1/upgrades/p9.bin',
  callback: '',
  url: '/upload',
  fields: { key: 'e/ent-1/upgrades/p9.bin' },
  expiresAt: Date.now() + 600_000,
  packageId: 'p9',
};

/** XMLHttpRequest as the local store answers a direct upload (the envelope with code 0). */
class FakeXhr {
  static posted: string[] = [];
  upload: { onprogress: ((e: { loaded: number }) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  status = 0;
  responseText = '';
  private url = '';
  open(_method: string, url: string) {
    this.url = url;
  }
  setRequestHeader() {}
  abort() {}
  send(form: FormData) {
    FakeXhr.posted.push(`${this.url} ${(form.get('file') as File).name}`);
    setTimeout(() => {
      this.upload.onprogress?.({ loaded: 5 });
      this.status = 200;
      this.responseText = '{"code":0,"payload":null}';
      this.onload?.();
    }, 10);
  }
}

const open = async () => {
  useSession.getState().setLogin(loginResponse({ permissionList: [Perm.deviceRemote] }));
  render(renderApp('/device/remote?tab=upgrades').tree);
  return screen.findByTestId('upgrades-tab', {}, { timeout: 25_000 });
};

describe('the Upgrades tab of /device/remote', () => {
  it('lists packages and rollouts: a halted one with its reason, the progress from its counts, the actions its state allows', async () => {
    fakeServer({
      ...shellAnswers,
      upgradePackageList: () => ({ code: 0, payload: { total: 1, data: [pkg()] } }),
      upgradeRolloutList: () => ({ code: 0, payload: { total: 1, data: [rollout()] } }),
    });
    await open();
    const row = await screen.findByTestId('upgrade-package-2.0.0');
    expect(row.textContent).toContain('APK 2.0.0 · marquee-headless');
    expect(row.textContent).toContain('2.5 MB');
    expect(within(row).getByTestId('upgrade-package-state').textContent).toBe('Ready');
    expect(within(row).getByTestId('upgrade-package-sha').textContent).toContain('ab12cd34ef56…');

    const r = await screen.findByTestId('upgrade-rollout-2.0.0');
    expect(within(r).getByTestId('upgrade-rollout-state').textContent).toBe('Halted');
    expect(within(r).getByTestId('upgrade-rollout-halt-reason').textContent).toBe(
      'Halted automatically: 1 failed, past the 20% failure threshold',
    );
    expect(within(r).getByTestId('upgrade-rollout-progress').textContent).toContain('2/4');
    expect(within(r).getByTestId('upgrade-rollout-progress').textContent).toContain('2 Queued · 1 Done · 1 Failed');
    // Halted: resume and roll back (one device is done), not halt or continue.
    expect(within(r).getByTestId('upgrade-rollout-2.0.0-resume')).toBeTruthy();
    expect(within(r).getByTestId('upgrade-rollout-2.0.0-rollback')).toBeTruthy();
    expect(within(r).queryByTestId('upgrade-rollout-2.0.0-halt')).toBeNull();
    expect(within(r).queryByTestId('upgrade-rollout-2.0.0-continue')).toBeNull();
  });

  it('says when there are no packages or rollouts', async () => {
    fakeServer({
      ...shellAnswers,
      upgradePackageList: () => ({ code: 0, payload: { total: 0, data: [] } }),
      upgradeRolloutList: () => ({ code: 0, payload: { total: 0, data: [] } }),
    });
    await open();
    expect(await screen.findByText('No upgrade packages yet. Upload one to start a rollout')).toBeTruthy();
    expect(screen.getByText('No rollouts yet')).toBeTruthy();
    expect((screen.getByTestId('upgrade-rollout-start') as HTMLButtonElement).disabled).toBe(true);
  });

  it('deletes a package after a confirmation and shows the server refusing one a rollout uses', async () => {
    const calls = fakeServer({
      ...shellAnswers,
      upgradePackageList: () => ({ code: 0, payload: { total: 1, data: [pkg()] } }),
      upgradeRolloutList: () => ({ code: 0, payload: { total: 0, data: [] } }),
      // The server's refusal, in the console's language (the API client toasts it).
      upgradePackageDelete: () => ({
        code: ErrorCode.UPGRADE_PACKAGE_IN_USE,
        message: 'A rollout uses this upgrade package, so it cannot be deleted',
      }),
    });
    await open();
    fireEvent.click(await screen.findByTestId('upgrade-package-delete-2.0.0'));
    expect(await screen.findByText('Delete package 2.0.0?')).toBeTruthy();
    fireEvent.click(await screen.findByTestId('confirm-ok'));
    await waitFor(() => expect(calls.find((c) => c.name === 'upgradePackageDelete')?.data).toEqual({ id: 'p1' }));
    expect(await screen.findByText('A rollout uses this upgrade package, so it cannot be deleted')).toBeTruthy();
  });

  it('rolls back after a confirmation saying what happens (by default each device’s previous version), and shows each device in the drawer', async () => {
    const calls = fakeServer({
      ...shellAnswers,
      upgradePackageList: () => ({ code: 0, payload: { total: 1, data: [pkg()] } }),
      upgradeRolloutList: () => ({ code: 0, payload: { total: 1, data: [rollout()] } }),
      upgradeRolloutInfo: () => ({ code: 0, payload: { rollout: rollout(), devices } }),
      upgradeRolloutRollback: () => ({ code: 0, payload: { rolloutIds: ['r2'] } }),
    });
    await open();
    fireEvent.click(await screen.findByTestId('upgrade-rollout-details-2.0.0'));
    const gate = await screen.findByTestId('upgrade-device-Gate');
    expect(within(gate).getByTestId('upgrade-device-state').textContent).toBe('Failed');
    expect(gate.textContent).toContain('No answer: the device did not respond before the command expired');
    const lobby = screen.getByTestId('upgrade-device-Lobby');
    expect(lobby.textContent).toContain('1.0.0 → 2.0.0');
    expect(screen.getByTestId('upgrade-drawer-state').textContent).toBe('Halted');

    fireEvent.click(screen.getByTestId('upgrade-drawer-rollback'));
    expect(
      await screen.findByText('1 device it upgraded gets the package of the version it ran before. This rollout ends.'),
    ).toBeTruthy();
    expect(calls.find((c) => c.name === 'upgradeRolloutRollback')).toBeUndefined();
    fireEvent.click(await screen.findByTestId('upgrade-drawer-rollback-submit'));
    await waitFor(() => expect(calls.find((c) => c.name === 'upgradeRolloutRollback')?.data).toEqual({ id: 'r1' }));
  });

  it('rolls back the failed devices to a package the operator picks among the earlier ones (version and upload date)', async () => {
    const older = pkg({ id: 'p0', version: '1.5.0', createdAt: '2026-10-20T08:00:00.000Z' });
    const calls = fakeServer({
      ...shellAnswers,
      upgradePackageList: (data) => ({
        code: 0,
        payload:
          (data as { olderThan?: string }).olderThan === 'p1'
            ? { total: 1, data: [older] }
            : { total: 2, data: [pkg(), older] },
      }),
      upgradeRolloutList: () => ({ code: 0, payload: { total: 1, data: [rollout()] } }),
      upgradeRolloutRollback: () => ({ code: 0, payload: { rolloutIds: ['r3'] } }),
    });
    await open();
    fireEvent.click(await screen.findByTestId('upgrade-rollout-2.0.0-rollback'));
    const form = await screen.findByTestId('upgrade-rollback-form');
    // The candidates: the earlier packages of the rollout's kind and device type, with their upload date.
    const candidate = await within(form).findByTestId('upgrade-rollback-package-1.5.0');
    expect(candidate.textContent).toContain('APK 1.5.0 · marquee-headless');
    expect(candidate.textContent).toMatch(/uploaded 2026-10-20/);
    expect(
      calls.some((c) => c.name === 'upgradePackageList' && (c.data as { olderThan?: string }).olderThan === 'p1'),
    ).toBe(true);
    // The default: each device's previous version, for the devices it upgraded.
    const previous = within(form).getByTestId('upgrade-rollback-previous').closest('label') as HTMLElement;
    expect((previous.querySelector('input') as HTMLInputElement).checked).toBe(true);
    fireEvent.click(within(form).getByTestId('upgrade-rollback-devices-failed'));
    fireEvent.click(candidate);
    expect((await within(form).findByTestId('upgrade-rollback-summary')).textContent).toBe(
      '1 device gets APK 1.5.0 · marquee-headless. This rollout ends.',
    );
    fireEvent.click(screen.getByTestId('upgrade-rollout-2.0.0-rollback-submit'));
    await waitFor(() =>
      expect(calls.find((c) => c.name === 'upgradeRolloutRollback')?.data).toEqual({
        id: 'r1',
        devices: 'failed',
        packageId: 'p0',
      }),
    );
  });

  it('uploads a package with progress, has the server verify it and shows its size and SHA-256', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    FakeXhr.posted = [];
    const calls = fakeServer({
      ...shellAnswers,
      upgradePackageList: () => ({ code: 0, payload: { total: 0, data: [] } }),
      upgradeRolloutList: () => ({ code: 0, payload: { total: 0, data: [] } }),
      upgradePackageApply: () => ({ code: 0, payload: signature }),
      upgradePackageVerify: () => ({ code: 0, payload: pkg({ id: 'p9', version: '3.0.0', size: 10 }) }),
    });
    await open();
    fireEvent.click(await screen.findByTestId('upgrade-upload'));
    fireEvent.change(await screen.findByTestId('upgrade-upload-version'), { target: { value: '3.0.0' } });
    fireEvent.change(screen.getByTestId('upgrade-upload-device-type'), { target: { value: 'marquee-headless' } });
    const file = new File([new Uint8Array(10)], 'player-3.0.0.apk', {
      type: 'application/vnd.android.package-archive',
    });
    fireEvent.change(document.querySelector('.ant-modal input[type=file]') as HTMLInputElement, {
      target: { files: [file] },
    });
    fireEvent.click(screen.getByTestId('upgrade-upload-submit'));
    await waitFor(() => expect(calls.find((c) => c.name === 'upgradePackageVerify')?.data).toEqual({ id: 'p9' }));
    expect(calls.find((c) => c.name === 'upgradePackageApply')?.data).toEqual({
      kind: 'apk',
      version: '3.0.0',
      deviceType: 'marquee-headless',
      notes: '',
      fileName: 'player-3.0.0.apk',
      size: 10,
    });
    expect(FakeXhr.posted).toEqual(['/upload player-3.0.0.apk']);
    expect(await screen.findByText('Package verified: 10 Bytes, SHA-256 ab12cd34ef56…')).toBeTruthy();
    vi.unstubAllGlobals();
  });

  it('starts a rollout with the defaults: the package chosen on its row, the devices picked', async () => {
    const calls = fakeServer({
      ...shellAnswers,
      upgradePackageList: () => ({ code: 0, payload: { total: 1, data: [pkg()] } }),
      upgradeRolloutList: () => ({ code: 0, payload: { total: 0, data: [] } }),
      deviceList: () => ({
        code: 0,
        payload: { total: 1, data: [{ id: 'd1', name: 'Lobby', number: 'N-1' }] },
      }),
      upgradeRolloutCreate: () => ({ code: 0, payload: { id: 'r5' } }),
      upgradeRolloutInfo: () => ({
        code: 0,
        payload: {
          rollout: rollout({ id: 'r5', state: 'canary', haltReason: null, counts: counts({ sent: 1 }) }),
          devices: [],
        },
      }),
    });
    await open();
    fireEvent.click(await screen.findByTestId('upgrade-package-rollout-2.0.0'));
    const select = await screen.findByTestId('upgrade-rollout-devices');
    fireEvent.mouseDown(select.querySelector('input') ?? select);
    const options = await screen.findAllByText('Lobby (N-1)', { selector: '.ant-select-item-option-content' });
    fireEvent.click(options[options.length - 1]);
    fireEvent.click(screen.getByTestId('upgrade-rollout-submit'));
    await waitFor(() =>
      expect(calls.find((c) => c.name === 'upgradeRolloutCreate')?.data).toEqual({
        packageId: 'p1',
        deviceIds: ['d1'],
        groupIds: [],
        tagIds: [],
        canaryPercent: 10,
        failureThreshold: 20,
        autoContinue: false,
      }),
    );
    // The new rollout's drawer opens.
    expect(await screen.findByTestId('upgrade-drawer-state')).toBeTruthy();
  });

  it('starts a rollout to device groups and tags, and asks for at least one device, group or tag', async () => {
    const calls = fakeServer({
      ...shellAnswers,
      upgradePackageList: () => ({ code: 0, payload: { total: 1, data: [pkg()] } }),
      upgradeRolloutList: () => ({ code: 0, payload: { total: 0, data: [] } }),
      deviceList: () => ({ code: 0, payload: { total: 0, data: [] } }),
      deviceGroupOptions: () => ({ code: 0, payload: [{ id: 'g1', name: 'Lobby screens' }] }),
      deviceTagOptions: () => ({
        code: 0,
        payload: [{ id: 't1', name: 'Portrait', categoryId: 'c1', categoryName: 'Orientation' }],
      }),
      upgradeRolloutCreate: () => ({ code: 0, payload: { id: 'r6' } }),
      upgradeRolloutInfo: () => ({
        code: 0,
        payload: { rollout: rollout({ id: 'r6', state: 'canary', haltReason: null }), devices: [] },
      }),
    });
    useSession.getState().setLogin(loginResponse({ permissionList: [Perm.deviceRemote, Perm.device] }));
    render(renderApp('/device/remote?tab=upgrades').tree);
    await screen.findByTestId('upgrades-tab', {}, { timeout: 25_000 });
    fireEvent.click(await screen.findByTestId('upgrade-package-rollout-2.0.0'));
    await screen.findByTestId('upgrade-rollout-groups');
    fireEvent.click(screen.getByTestId('upgrade-rollout-submit'));
    expect(await screen.findByText('Choose at least one device, group or tag')).toBeTruthy();
    const pick = async (testId: string, label: string) => {
      const select = screen.getByTestId(testId);
      fireEvent.mouseDown(select.querySelector('input') ?? select);
      const options = await screen.findAllByText(label, { selector: '.ant-select-item-option-content' });
      fireEvent.click(options[options.length - 1]);
    };
    await pick('upgrade-rollout-groups', 'Lobby screens');
    await pick('upgrade-rollout-tags', 'Orientation / Portrait');
    fireEvent.click(screen.getByTestId('upgrade-rollout-submit'));
    await waitFor(() =>
      expect(calls.find((c) => c.name === 'upgradeRolloutCreate')?.data).toEqual({
        packageId: 'p1',
        deviceIds: [],
        groupIds: ['g1'],
        tagIds: ['t1'],
        canaryPercent: 10,
        failureThreshold: 20,
        autoContinue: false,
      }),
    );
  });
});
