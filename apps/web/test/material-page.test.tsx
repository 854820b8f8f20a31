import { type Material, type MaterialFolder, Perm } from '@marquee/protocol';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { useSession } from '../src/session/session';
import { fakeServer, loginResponse, renderApp, setUpConsoleTests, shellAnswers } from './harness';

vi.setConfig({ testTimeout: 120_000 });
setUpConsoleTests({ asyncUtilTimeout: 8000 });

const folder = (id: string, name: string, parentId: string | null, depth: number): MaterialFolder => ({
  id,
  name,
  parentId,
  depth,
  deptId: null,
  ownerId: 'o1',
  ownerName: 'Owner',
  materialCount: 1,
  hasPermission: true,
  createdAt: '2026-01-01T00:00:00.000Z',
});

const material = (name: string, extra: Partial<Material> = {}): Material => ({
  id: `m-${name}`,
  name,
  type: 'video',
  mime: 'video/mp4',
  size: 1536,
  width: 1920,
  height: 1080,
  duration: 75,
  codec: 'h264',
  pages: null,
  sha256: null,
  url: '/files/x',
  thumbUrl: '/files/x.jpg',
  status: 'ready',
  invalidReason: null,
  folderId: 'f1',
  folderName: 'Spring',
  categoryId: null,
  categoryName: '',
  uploaderId: 'u1',
  uploaderName: 'Ann',
  deptId: null,
  duplicateCount: 0,
  hasPermission: true,
  createdAt: '2026-01-01T00:00:00.000Z',
  ...extra,
});

function serve() {
  return fakeServer({
    ...shellAnswers,
    materialFolderTree: () => ({
      code: 0,
      payload: [folder('f1', 'Spring', null, 1), folder('f2', 'Posters', 'f1', 2)],
    }),
    materialCategoryList: () => ({ code: 0, payload: [{ id: 'c1', name: 'Promo', materialCount: 0 }] }),
    materialStorageUsage: () => ({
      code: 0,
      payload: { quotaBytes: 10 * 1024 ** 3, usedBytes: 1024 ** 3, materialCount: 2, byType: [] },
    }),
    permissionSubAccounts: () => ({ code: 0, payload: [{ id: 'u1', name: 'Ann' }] }),
    // The folder Spring holds more than the server counts (MATERIAL_LIST_COUNT_CAP).
    materialList: (data) => ({
      code: 0,
      payload: {
        total: (data as { folderId?: string }).folderId === 'f1' ? 1000 : 2,
        totalCapped: (data as { folderId?: string }).folderId === 'f1',
        data: [
          material('Intro'),
          material('Broken', {
            type: 'image',
            mime: 'image/png',
            duration: null,
            status: 'invalid',
            invalidReason: 'bad file',
            thumbUrl: null,
          }),
        ],
      },
    }),
    materialDelete: () => ({ code: 0, payload: { deleted: 1 } }),
  });
}

describe('material library page (/advert/material)', () => {
  it('shows folders, a grid with duration and status, the usage, and asks a folder before upload', async () => {
    const calls = serve();
    useSession
      .getState()
      .setLogin(loginResponse({ permissionList: [Perm.adv, Perm.advMaterial, Perm.dataAllocation] }));
    const { router, tree } = renderApp('/advert/material');
    render(tree);
    await screen.findByTestId('material-card-Intro', {}, { timeout: 25_000 });
    expect(screen.getByTestId('material-duration-Intro').textContent).toBe('1:15');
    expect(screen.getByTestId('material-invalid-Broken').textContent).toContain('bad file');
    expect((await screen.findByTestId('storage-usage-text')).textContent).toBe('1 GB of 10 GB used');
    expect(await screen.findByTestId('folder-node-Posters')).toBeTruthy();

    // No folder chosen: the spec's message, no dialog.
    fireEvent.click(screen.getByTestId('material-upload'));
    expect(await screen.findByText('Please choose a folder before uploading')).toBeTruthy();
    expect(screen.queryByTestId('upload-dialog')).toBeNull();

    // Choosing a folder filters the list by it (in the URL and the call).
    fireEvent.click(screen.getByTestId('folder-node-Spring'));
    await waitFor(() => expect(router.state.location.search).toBe('?folderId=f1'));
    await waitFor(() =>
      expect(calls.some((c) => c.name === 'materialList' && (c.data as { folderId?: string }).folderId === 'f1')).toBe(
        true,
      ),
    );
    // A capped total says so instead of claiming an exact count.
    expect(await screen.findByText('More than 1000 materials')).toBeTruthy();

    // Enter previews; Delete asks first, then deletes.
    fireEvent.keyDown(screen.getByTestId('material-open-Intro'), { key: 'Enter' });
    expect(await screen.findByTestId('preview-video')).toBeTruthy();
    fireEvent.keyDown(screen.getByTestId('material-open-Intro'), { key: 'Delete' });
    fireEvent.click(await screen.findByTestId('confirm-ok'));
    await waitFor(() => expect(calls.find((c) => c.name === 'materialDelete')?.data).toEqual({ ids: ['m-Intro'] }));
  });
});
