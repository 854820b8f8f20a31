import { emptyPosterDocument, posterDocumentSchema } from '@marquee/protocol';
import { describe, expect, it } from 'vitest';
import {
  type EditorState,
  editorReducer,
  HISTORY_LIMIT,
  initialEditorState,
  newNode,
} from '../../src/features/posters/editorState';
import { snapBox } from '../../src/features/posters/snapping';

const poster = { width: 800, height: 600 };
const defaults = { text: 'Text', qr: 'https://example.com' };

function withNodes(...types: Parameters<typeof newNode>[0][]): EditorState {
  return types.reduce(
    (s, type) => editorReducer(s, { type: 'add', node: newNode(type, poster, defaults) }),
    initialEditorState(emptyPosterDocument()),
  );
}

describe('poster editor state', () => {
  it('adds nodes on top, selects them, and keeps z in drawing order', () => {
    const s = withNodes('rect', 'text', 'qr');
    expect(s.doc.nodes.map((n) => [n.type, n.z])).toEqual([
      ['rect', 0],
      ['text', 1],
      ['qr', 2],
    ]);
    expect(s.selectedId).toBe(s.doc.nodes[2].id);
    expect(posterDocumentSchema.safeParse(s.doc).success).toBe(true);
  });

  it('undoes and redoes every change, and a new change clears the redo steps', () => {
    let s = withNodes('rect');
    const id = s.doc.nodes[0].id;
    s = editorReducer(s, { type: 'update', id, patch: { x: 10 } });
    s = editorReducer(s, { type: 'remove', id });
    expect(s.doc.nodes).toHaveLength(0);
    s = editorReducer(s, { type: 'undo' });
    expect(s.doc.nodes[0].x).toBe(10);
    s = editorReducer(s, { type: 'undo' });
    s = editorReducer(s, { type: 'undo' });
    expect(s.doc.nodes).toHaveLength(0);
    expect(editorReducer(s, { type: 'undo' })).toBe(s);
    s = editorReducer(s, { type: 'redo' });
    s = editorReducer(s, { type: 'redo' });
    expect(s.doc.nodes[0].x).toBe(10);
    s = editorReducer(s, { type: 'update', id, patch: { y: 5 } });
    expect(s.future).toEqual([]);
  });

  it('coalesces a run of nudges or typing into one step, but not across selections', () => {
    let s = withNodes('text');
    const id = s.doc.nodes[0].id;
    const x0 = s.doc.nodes[0].x;
    const steps = s.past.length;
    for (let i = 0; i < 5; i++) s = editorReducer(s, { type: 'nudge', dx: 1, dy: 0 });
    expect(s.doc.nodes[0].x).toBe(x0 + 5);
    expect(s.past.length).toBe(steps + 1);
    s = editorReducer(s, { type: 'update', id, patch: { text: 'H' }, coalesce: 'text' });
    s = editorReducer(s, { type: 'update', id, patch: { text: 'Hi' }, coalesce: 'text' });
    expect(s.past.length).toBe(steps + 2);
    s = editorReducer(s, { type: 'undo' });
    expect(s.doc.nodes[0].text).toBe('Text');
  });

  it('does not nudge a locked node', () => {
    let s = withNodes('rect');
    s = editorReducer(s, { type: 'update', id: s.doc.nodes[0].id, patch: { locked: true } });
    expect(editorReducer(s, { type: 'nudge', dx: 1, dy: 1 })).toBe(s);
  });

  it('reorders layers up, down, to the top and to the bottom', () => {
    let s = withNodes('rect', 'ellipse', 'text');
    const [a, b, c] = s.doc.nodes.map((n) => n.id);
    const order = (st: EditorState) => [...st.doc.nodes].sort((x, y) => x.z - y.z).map((n) => n.id);
    s = editorReducer(s, { type: 'reorder', id: a, to: 'top' });
    expect(order(s)).toEqual([b, c, a]);
    s = editorReducer(s, { type: 'reorder', id: a, to: 'down' });
    expect(order(s)).toEqual([b, a, c]);
    s = editorReducer(s, { type: 'reorder', id: c, to: 'bottom' });
    expect(order(s)).toEqual([c, b, a]);
    expect(editorReducer(s, { type: 'reorder', id: c, to: 'down' })).toBe(s);
  });

  it('copies and pastes with an offset and a new id, without the field marker', () => {
    let s = withNodes('text');
    const id = s.doc.nodes[0].id;
    s = editorReducer(s, { type: 'update', id, patch: { field: { key: 'title', label: 'Title' } } });
    s = editorReducer(s, { type: 'copy' });
    s = editorReducer(s, { type: 'paste', id: 'p1' });
    s = editorReducer(s, { type: 'paste', id: 'p2' });
    const [orig, p1, p2] = s.doc.nodes;
    expect(p1).toMatchObject({ id: 'p1', x: orig.x + 20, y: orig.y + 20, field: null });
    expect(p2).toMatchObject({ id: 'p2', x: orig.x + 40 });
    expect(s.selectedId).toBe('p2');
    expect(posterDocumentSchema.safeParse(s.doc).success).toBe(true);
  });

  it(`keeps at most ${HISTORY_LIMIT} steps`, () => {
    let s = withNodes('rect');
    const id = s.doc.nodes[0].id;
    for (let i = 0; i < HISTORY_LIMIT + 20; i++) s = editorReducer(s, { type: 'update', id, patch: { x: i } });
    expect(s.past.length).toBe(HISTORY_LIMIT);
  });

  it('marks changes dirty until saved; a load starts a fresh history', () => {
    let s = withNodes('rect');
    expect(s.dirty).toBe(true);
    s = editorReducer(s, { type: 'saved' });
    expect(s.dirty).toBe(false);
    s = editorReducer(s, { type: 'load', doc: emptyPosterDocument() });
    expect(s.past).toEqual([]);
  });
});

describe('snapping', () => {
  it('snaps edges and centres to the poster and to other nodes within the threshold', () => {
    const r = snapBox({ x: 397, y: 10, w: 10, h: 10 }, [], { width: 800, height: 600 }, 5);
    // The box's centre (402) goes to the poster's centre (400).
    expect(r).toEqual({ x: 395, y: 10, guides: [{ axis: 'v', at: 400 }] });
    const other = { x: 100, y: 200, w: 50, h: 50 };
    const s = snapBox({ x: 152, y: 247, w: 20, h: 20 }, [other], { width: 800, height: 600 }, 5);
    expect(s.x).toBe(150);
    expect(s.y).toBe(250);
    expect(snapBox({ x: 300, y: 100, w: 20, h: 20 }, [other], { width: 800, height: 600 }, 5).guides).toEqual([]);
  });
});
