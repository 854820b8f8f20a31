import { checkLayoutRules, createComponent, createEmptyLayout, type LayoutDocument } from '@marquee/layout';
import { describe, expect, it } from 'vitest';
import {
  byZ,
  currentPage,
  type EditorAction,
  type EditorState,
  editorReducer,
  HISTORY_LIMIT,
  initEditorState,
  isDirty,
  selectedComponent,
} from '../src/features/layoutEditor/state/editorState';

function run(state: EditorState, ...actions: EditorAction[]): EditorState {
  return actions.reduce(editorReducer, state);
}

function fresh(): EditorState {
  return initEditorState(createEmptyLayout({ width: 1920, height: 1080 }));
}

function comps(s: EditorState) {
  return currentPage(s).components;
}

describe('layout editor state: components', () => {
  it('adds a component centred on the drop point, selected, on top', () => {
    let s = run(fresh(), { type: 'add', componentType: 'text', x: 500, y: 300 });
    const text = selectedComponent(s);
    expect(text?.type).toBe('text');
    expect(text?.x).toBe(500 - text!.w / 2);
    expect(text?.y).toBe(300 - text!.h / 2);
    s = run(s, { type: 'add', componentType: 'clock' });
    expect(comps(s)).toHaveLength(2);
    expect(selectedComponent(s)?.type).toBe('clock');
    expect(selectedComponent(s)!.z).toBeGreaterThan(text!.z);
    expect(isDirty(s)).toBe(true);
  });

  it('keeps a dropped component on the canvas', () => {
    const s = run(fresh(), { type: 'add', componentType: 'qrCode', x: 5000, y: -300 });
    const qr = selectedComponent(s)!;
    expect(qr.x).toBe(1920 - qr.w);
    expect(qr.y).toBe(0);
  });

  it('moves, resizes and rotates with one undo step per transform', () => {
    let s = run(fresh(), { type: 'add', componentType: 'text' });
    const id = s.selectedId!;
    s = run(s, { type: 'transform', id, box: { x: 10, y: 20 } });
    s = run(s, { type: 'transform', id, box: { w: 300, h: 50 } });
    s = run(s, { type: 'transform', id, box: { rotation: 370 } });
    expect(selectedComponent(s)).toMatchObject({ x: 10, y: 20, w: 300, h: 50, rotation: 10 });
    s = run(s, { type: 'undo' });
    expect(selectedComponent(s)).toMatchObject({ w: 300, rotation: 0 });
    s = run(s, { type: 'undo' }, { type: 'undo' });
    expect(selectedComponent(s)?.x).not.toBe(10);
    s = run(s, { type: 'redo' }, { type: 'redo' }, { type: 'redo' });
    expect(selectedComponent(s)).toMatchObject({ x: 10, y: 20, w: 300, h: 50, rotation: 10 });
  });

  it('a transform that changes nothing is not a step', () => {
    let s = run(fresh(), { type: 'add', componentType: 'text' });
    const c = selectedComponent(s)!;
    const before = s.past.length;
    s = run(s, { type: 'transform', id: c.id, box: { x: c.x, y: c.y } });
    expect(s.past.length).toBe(before);
  });

  it("refuses to rotate what cannot rotate: 'component does not support this feature'", () => {
    let s = run(fresh(), { type: 'add', componentType: 'video' });
    s = run(s, { type: 'rotate', rotation: 45 });
    expect(s.notice?.key).toBe('editor.unsupported');
    expect(selectedComponent(s)?.rotation).toBe(0);
  });

  it("actions on the selection without one: 'select a component first'", () => {
    for (const action of [
      { type: 'nudge', dx: 1, dy: 0 },
      { type: 'delete' },
      { type: 'duplicate' },
      { type: 'zOrder', move: 'front' },
      { type: 'copy' },
      { type: 'rotate', rotation: 10 },
    ] as EditorAction[]) {
      const s = run(fresh(), action);
      expect(s.notice?.key, action.type).toBe('editor.selectComponent');
      expect(s.past).toHaveLength(0);
    }
  });

  it('nudges, but not a locked component; a locked one is not moved or deleted', () => {
    let s = run(fresh(), { type: 'add', componentType: 'text' }, { type: 'transform', id: '', box: {} });
    const id = s.selectedId!;
    const x0 = selectedComponent(s)!.x;
    s = run(s, { type: 'nudge', dx: 10, dy: -1 });
    expect(selectedComponent(s)!.x).toBe(x0 + 10);
    s = run(s, { type: 'setLocked', id, locked: true }, { type: 'nudge', dx: 10, dy: 0 }, { type: 'delete' });
    expect(selectedComponent(s)!.x).toBe(x0 + 10);
    s = run(s, { type: 'transform', id, box: { x: 0 } });
    expect(selectedComponent(s)!.x).toBe(x0 + 10);
    s = run(s, { type: 'setLocked', id, locked: false }, { type: 'delete' });
    expect(comps(s)).toHaveLength(0);
    expect(s.selectedId).toBeNull();
    s = run(s, { type: 'undo' });
    expect(comps(s)).toHaveLength(1);
    expect(s.selectedId).toBe(id);
  });

  it('hides and shows', () => {
    let s = run(fresh(), { type: 'add', componentType: 'clock' });
    const id = s.selectedId!;
    s = run(s, { type: 'setHidden', id, hidden: true });
    expect(selectedComponent(s)?.hidden).toBe(true);
    s = run(s, { type: 'undo' });
    expect(selectedComponent(s)?.hidden).toBe(false);
  });

  it('duplicates with a new id, offset, on top', () => {
    let s = run(fresh(), { type: 'add', componentType: 'text' });
    const original = selectedComponent(s)!;
    s = run(s, { type: 'duplicate' });
    const copy = selectedComponent(s)!;
    expect(copy.id).not.toBe(original.id);
    expect(copy).toMatchObject({ x: original.x + 20, y: original.y + 20, type: 'text' });
    expect(copy.z).toBeGreaterThan(original.z);
    expect(checkLayoutRules(s.doc)).toEqual([]);
  });

  it('changes the z-order: front, back, forward, backward', () => {
    let s = run(
      fresh(),
      { type: 'add', componentType: 'text' },
      { type: 'add', componentType: 'clock' },
      { type: 'add', componentType: 'qrCode' },
    );
    const [a, b, c] = byZ(comps(s)).map((x) => x.id);
    const order = () => byZ(comps(s)).map((x) => x.id);
    s = run(s, { type: 'zOrder', id: a, move: 'front' });
    expect(order()).toEqual([b, c, a]);
    s = run(s, { type: 'zOrder', id: a, move: 'backward' });
    expect(order()).toEqual([b, a, c]);
    s = run(s, { type: 'zOrder', id: c, move: 'back' });
    expect(order()).toEqual([c, b, a]);
    s = run(s, { type: 'zOrder', id: c, move: 'forward' });
    expect(order()).toEqual([b, c, a]);
    const steps = s.past.length;
    s = run(s, { type: 'zOrder', id: a, move: 'front' });
    expect(s.past.length).toBe(steps);
  });

  it('edits properties and refuses a property the type does not have', () => {
    let s = run(fresh(), { type: 'add', componentType: 'text' });
    const id = s.selectedId!;
    s = run(s, { type: 'updateProps', id, patch: { content: 'Hello', fontSize: 48 } });
    expect(selectedComponent(s)).toMatchObject({ props: { content: 'Hello', fontSize: 48 } });
    s = run(s, { type: 'updateProps', id, patch: { materials: [] } });
    expect(s.notice?.key).toBe('editor.unsupported');
    s = run(s, { type: 'updateBase', id, patch: { name: 'Title', rtbSlot: true } });
    expect(selectedComponent(s)).toMatchObject({ name: 'Title', rtbSlot: true });
  });

  it('copies and pastes with new ids, beside the original', () => {
    let s = run(fresh(), { type: 'add', componentType: 'qrCode' });
    const original = selectedComponent(s)!;
    s = run(s, { type: 'copy' });
    expect(s.past).toHaveLength(1);
    s = run(s, { type: 'paste' }, { type: 'paste' });
    const all = comps(s);
    expect(all).toHaveLength(3);
    expect(new Set(all.map((c) => c.id)).size).toBe(3);
    expect(selectedComponent(s)!.x).toBe(original.x + 40);
    // Pasted on another page, it keeps the original's place.
    s = run(s, { type: 'addPage' }, { type: 'paste' });
    expect(selectedComponent(s)).toMatchObject({ x: original.x, y: original.y });
    expect(checkLayoutRules(s.doc)).toEqual([]);
  });
});

describe('layout editor state: section 5 rules', () => {
  it('at most 6 live components in the layout (add, duplicate, paste, page duplicate)', () => {
    let s = fresh();
    for (let i = 0; i < 6; i++) s = run(s, { type: 'add', componentType: 'liveStream' });
    expect(s.notice).toBeNull();
    const steps = s.past.length;
    s = run(s, { type: 'add', componentType: 'liveStream' });
    expect(s.notice?.key).toBe('rule.maxLiveComponents');
    s = run(s, { type: 'duplicate' });
    expect(s.notice?.key).toBe('rule.maxLiveComponents');
    s = run(s, { type: 'copy' }, { type: 'paste' });
    expect(s.notice?.key).toBe('rule.maxLiveComponents');
    s = run(s, { type: 'duplicatePage' });
    expect(s.notice?.key).toBe('rule.maxLiveComponents');
    expect(s.past.length).toBe(steps);
    expect(s.notice?.seq).toBe(4);
  });

  it('only one auto-jump button; copies of it do not jump by themselves', () => {
    let s = run(fresh(), { type: 'add', componentType: 'button' });
    const first = s.selectedId!;
    s = run(s, { type: 'updateProps', id: first, patch: { autoJump: 5 } });
    expect(s.notice).toBeNull();
    s = run(s, { type: 'add', componentType: 'button' });
    const second = s.selectedId!;
    s = run(s, { type: 'updateProps', id: second, patch: { autoJump: 3 } });
    expect(s.notice?.key).toBe('rule.oneAutoJump');
    s = run(s, { type: 'select', id: first }, { type: 'duplicate' });
    expect(selectedComponent(s)).toMatchObject({ type: 'button', props: { autoJump: null } });
    s = run(s, { type: 'duplicatePage' });
    expect(checkLayoutRules(s.doc)).toEqual([]);
    // The first button may still change its own delay.
    s = run(
      s,
      { type: 'selectPage', pageId: s.doc.pages[0].id },
      { type: 'updateProps', id: first, patch: { autoJump: 8 } },
    );
    expect(s.notice?.key).toBe('rule.oneAutoJump');
    expect(currentPage(s).components.find((c) => c.id === first)).toMatchObject({ props: { autoJump: 8 } });
  });

  it('too many components on a page', () => {
    const doc = createEmptyLayout();
    doc.pages[0].components = Array.from({ length: 500 }, (_, i) => createComponent('text', { z: i }));
    const s = run(initEditorState(doc), { type: 'add', componentType: 'text' });
    expect(s.notice?.key).toBe('rule.maxComponents');
  });
});

describe('layout editor state: pages', () => {
  it("adds, duplicates, reorders and deletes pages; 'a layout must keep one page'", () => {
    let s = fresh();
    const first = s.pageId;
    s = run(s, { type: 'deletePage' });
    expect(s.notice?.key).toBe('rule.minPages');
    expect(s.doc.pages).toHaveLength(1);

    s = run(s, { type: 'add', componentType: 'text' }, { type: 'addPage' });
    expect(s.doc.pages).toHaveLength(2);
    const second = s.pageId;
    expect(second).not.toBe(first);
    expect(comps(s)).toHaveLength(0);

    s = run(s, { type: 'selectPage', pageId: first }, { type: 'duplicatePage' });
    expect(s.doc.pages.map((p) => p.id)).toEqual([first, s.pageId, second]);
    expect(comps(s)).toHaveLength(1);
    expect(comps(s)[0].id).not.toBe(s.doc.pages[0].components[0].id);

    s = run(s, { type: 'movePage', from: 2, to: 0 });
    expect(s.doc.pages[0].id).toBe(second);

    s = run(s, { type: 'updatePage', patch: { duration: 30, name: 'B' } });
    expect(currentPage(s)).toMatchObject({ duration: 30, name: 'B' });

    s = run(s, { type: 'deletePage', pageId: second }, { type: 'deletePage' });
    expect(s.doc.pages.map((p) => p.id)).toEqual([first]);
    s = run(s, { type: 'deletePage' });
    expect(s.notice?.key).toBe('rule.minPages');
    expect(checkLayoutRules(s.doc)).toEqual([]);
  });

  it('deleting a page a button jumps to makes the button jump nowhere', () => {
    let s = run(fresh(), { type: 'addPage' });
    const target = s.pageId;
    s = run(s, { type: 'selectPage', pageId: s.doc.pages[0].id }, { type: 'add', componentType: 'button' });
    const button = s.selectedId!;
    s = run(s, { type: 'updateProps', id: button, patch: { action: { kind: 'jumpPage', pageId: target } } });
    s = run(s, { type: 'deletePage', pageId: target });
    expect(selectedComponent(s)).toMatchObject({ props: { action: { kind: 'none' } } });
    expect(checkLayoutRules(s.doc)).toEqual([]);
    s = run(s, { type: 'undo' });
    expect(s.doc.pages).toHaveLength(2);
    expect(selectedComponent(s)).toMatchObject({ props: { action: { kind: 'jumpPage', pageId: target } } });
  });

  it('undo restores the page that was shown; selecting is not a step', () => {
    let s = run(fresh(), { type: 'addPage' });
    const added = s.pageId;
    s = run(s, { type: 'selectPage', pageId: s.doc.pages[0].id });
    expect(s.past).toHaveLength(1);
    s = run(s, { type: 'undo' });
    expect(s.doc.pages).toHaveLength(1);
    s = run(s, { type: 'redo' });
    expect(s.doc.pages.map((p) => p.id)).toContain(added);
  });
});

describe('layout editor state: history', () => {
  it('a new change clears redo; history is bounded; saving marks clean', () => {
    let s = run(
      fresh(),
      { type: 'add', componentType: 'text' },
      { type: 'add', componentType: 'clock' },
      { type: 'undo' },
    );
    expect(s.future).toHaveLength(1);
    s = run(s, { type: 'add', componentType: 'qrCode' });
    expect(s.future).toHaveLength(0);
    s = run(s, { type: 'markSaved', doc: s.doc });
    expect(isDirty(s)).toBe(false);
    s = run(s, { type: 'nudge', dx: 1, dy: 1 });
    expect(isDirty(s)).toBe(true);
    s = run(s, { type: 'undo' });
    expect(isDirty(s)).toBe(false);
    for (let i = 0; i < HISTORY_LIMIT + 20; i++) s = run(s, { type: 'nudge', dx: 1, dy: 0 });
    expect(s.past).toHaveLength(HISTORY_LIMIT);
  });

  it('keeps earlier snapshots unchanged (immutable)', () => {
    let s = run(fresh(), { type: 'add', componentType: 'text' });
    const snapshot: LayoutDocument = s.doc;
    const json = JSON.stringify(snapshot);
    s = run(
      s,
      { type: 'nudge', dx: 5, dy: 5 },
      { type: 'updateProps', id: s.selectedId!, patch: { content: 'x' } },
      { type: 'zOrder', move: 'back' },
      { type: 'addPage' },
      { type: 'deletePage' },
    );
    expect(JSON.stringify(snapshot)).toBe(json);
  });
});

describe('layout editor state: new components are readable', () => {
  it('text on the default black page is white; on a light page it stays black', () => {
    let s = run(fresh(), { type: 'add', componentType: 'text' });
    expect(selectedComponent(s)).toMatchObject({ props: { color: '#ffffff' } });
    s = run(s, { type: 'updatePage', patch: { background: { ...currentPage(s).background, color: '#f5f5f5' } } });
    s = run(s, { type: 'add', componentType: 'clock' });
    expect(selectedComponent(s)).toMatchObject({ props: { color: '#000000' } });
  });
});
