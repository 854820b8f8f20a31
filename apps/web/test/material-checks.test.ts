import { IMAGE_MAX_BYTES, IMAGE_WARN_BYTES, type MaterialFolder, VIDEO_WARN_BYTES } from '@marquee/protocol';
import { describe, expect, it } from 'vitest';
import { ACCEPT, checkFile, formatDuration, previewKind } from '../src/features/materials/checks';
import { buildFolderTree } from '../src/features/materials/types';

const MB = 1024 * 1024;

/** The console's checks before an upload, on the protocol's named limits (spec section 5). */
describe('material upload checks', () => {
  it('refuses a file of no library format, and one over its type limit', () => {
    expect(checkFile({ name: 'notes.exe', size: 10 }).error).toEqual({ key: 'formatError' });
    expect(checkFile({ name: 'big.png', size: IMAGE_MAX_BYTES + 1 }).error).toEqual({
      key: 'tooLarge',
      max: IMAGE_MAX_BYTES,
    });
    expect(checkFile({ name: 'ok.png', size: IMAGE_MAX_BYTES }).error).toBeUndefined();
  });

  it('warns of a large image, a large resolution, a video past the suggestion and a very large video', () => {
    expect(checkFile({ name: 'a.jpg', size: IMAGE_WARN_BYTES + 1 }).warnings).toEqual(['imageLarge']);
    expect(checkFile({ name: 'a.jpg', size: 1000 }, { width: 4097, height: 2000 }).warnings).toEqual([
      'resolutionLarge',
    ]);
    // A portrait 2160*4096 screen is within 4096*2160.
    expect(checkFile({ name: 'a.jpg', size: 1000 }, { width: 2160, height: 4096 }).warnings).toEqual([]);
    expect(checkFile({ name: 'clip.mp4', size: MB }, { duration: 16 }).warnings).toEqual(['videoOverSuggested']);
    expect(checkFile({ name: 'clip.mp4', size: MB }, { duration: 15 }).warnings).toEqual([]);
    expect(checkFile({ name: 'clip.mp4', size: VIDEO_WARN_BYTES + 1 }).warnings).toEqual([
      'videoOverSuggested',
      'videoLarge',
    ]);
  });

  it('offers every library format in the picker', () => {
    for (const ext of ['.png', '.mp4', '.mp3', '.pdf', '.zip']) expect(ACCEPT.split(',')).toContain(ext);
  });

  it('formats durations for the grid badge', () => {
    expect(formatDuration(3.4)).toBe('0:03');
    expect(formatDuration(75)).toBe('1:15');
    expect(formatDuration(3723)).toBe('1:02:03');
    expect(formatDuration(null)).toBe('');
  });

  it('previews images, video, audio, PDF and web pages; nothing else', () => {
    expect(previewKind({ type: 'image', name: 'a', mime: 'image/png' })).toBe('image');
    expect(previewKind({ type: 'document', name: 'report', mime: 'application/pdf' })).toBe('pdf');
    expect(previewKind({ type: 'document', name: 'sheet', mime: 'application/vnd.ms-excel' })).toBe('none');
    expect(previewKind({ type: 'archive', name: 'a', mime: 'application/zip' })).toBe('none');
    expect(previewKind({ type: 'stream', name: 'live', mime: '' })).toBe('none');
    expect(previewKind({ type: 'web', name: 'site', mime: '' })).toBe('web');
  });

  it('builds the folder tree from the flat answer, parents first', () => {
    const folder = (id: string, parentId: string | null): MaterialFolder => ({
      id,
      name: id,
      parentId,
      depth: 1,
      deptId: null,
      ownerId: 'o',
      ownerName: 'o',
      materialCount: 0,
      hasPermission: true,
      createdAt: '',
    });
    const tree = buildFolderTree([folder('a', null), folder('b', 'a'), folder('c', 'b'), folder('d', null)]);
    expect(tree.map((n) => n.id)).toEqual(['a', 'd']);
    expect(tree[0].children[0].children[0].id).toBe('c');
  });
});
