import { beforeEach, describe, expect, it } from 'vitest';
import { isCachedView, pathAfterClose, useTabs, type VisitedView } from '../../src/shell/tabs/store';

function view(path: string, meta: Partial<VisitedView['meta']> = {}, search = ''): VisitedView {
  return {
    path,
    fullPath: `${path}${search}`,
    query: Object.fromEntries(new URLSearchParams(search)),
    params: {},
    name: meta.key ?? path,
    meta: { title: path.slice(1) || 'home', key: path, ...meta },
  };
}

const home = view('/', { affix: true, title: 'home' });
const device = view('/device');
const audit = view('/advert/audit');
const edit = view('/advert/edit', { isCache: false });

const s = () => useTabs.getState();
const paths = () => s().visitedViews.map((v) => v.path);

beforeEach(() => s().reset());

describe('tabs store', () => {
  it('adds a view once per path and caches it by name', () => {
    s().addView(home);
    s().addView(device);
    s().addView(device);
    expect(paths()).toEqual(['/', '/device']);
    expect(s().cachedViews).toEqual(['/', '/device']);
  });

  it('never caches a view whose route is not cached', () => {
    s().addView(edit);
    s().addCachedView(edit);
    expect(paths()).toEqual(['/advert/edit']);
    expect(s().cachedViews).toEqual([]);
    expect(isCachedView(edit)).toBe(false);
    expect(isCachedView(device)).toBe(true);
  });

  it('updates the query of an open tab instead of opening another', () => {
    s().addView(device);
    s().updateVisitedView(view('/device', {}, '?page=2'));
    expect(s().visitedViews).toHaveLength(1);
    expect(s().visitedViews[0].fullPath).toBe('/device?page=2');
    expect(s().visitedViews[0].query).toEqual({ page: '2' });
  });

  it('closes one view, from the tabs and from the cache', () => {
    for (const v of [home, device, audit]) s().addView(v);
    const left = s().delView(device);
    expect(left.visitedViews.map((v) => v.path)).toEqual(['/', '/advert/audit']);
    expect(left.cachedViews).toEqual(['/', '/advert/audit']);
  });

  it('close all keeps the affix tabs', () => {
    for (const v of [home, device, audit, edit]) s().addView(v);
    const left = s().delAllViews();
    expect(left.visitedViews.map((v) => v.path)).toEqual(['/']);
    expect(left.cachedViews).toEqual(['/']);
  });

  it('close others keeps the view and the affix tabs', () => {
    for (const v of [home, device, audit, edit]) s().addView(v);
    const left = s().delOthersViews(audit);
    expect(left.visitedViews.map((v) => v.path)).toEqual(['/', '/advert/audit']);
    expect(left.cachedViews).toEqual(['/', '/advert/audit']);
  });

  it('closing the active tab picks the last remaining tab, else the index page, else /', () => {
    for (const v of [home, device, audit]) s().addView(v);
    expect(pathAfterClose(s().delView(audit).visitedViews)).toBe('/device');
    s().reset();
    s().addView(device);
    expect(pathAfterClose(s().delView(device).visitedViews, '/dashboard')).toBe('/dashboard');
    expect(pathAfterClose([])).toBe('/');
  });

  it('refresh bumps a per-view counter that closing forgets', () => {
    s().addView(device);
    s().refreshView(device);
    s().refreshView(device);
    expect(s().refreshKeys['/device']).toBe(2);
    s().delView(device);
    expect(s().refreshKeys['/device']).toBeUndefined();
  });

  it('keeps the isAutoLeave flag and leave tips', () => {
    expect(s().isAutoLeave).toBe(false);
    s().setAutoLeave(true);
    expect(s().isAutoLeave).toBe(true);
    s().addView(edit);
    s().setLeaveTip('/advert/edit', true);
    expect(s().leaveTips['/advert/edit']).toBe(true);
    s().setLeaveTip('/advert/edit', false);
    expect(s().leaveTips['/advert/edit']).toBeUndefined();
    s().setLeaveTip('/advert/edit', true);
    s().delView(edit);
    expect(s().leaveTips['/advert/edit']).toBeUndefined();
  });
});
