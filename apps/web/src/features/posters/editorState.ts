import type { PosterDocument, PosterNode, PosterNodeType } from '@marquee/protocol';

/**
 * The poster editor's state as a pure reducer with history: every change of the document is
 * one undoable step (typing into a property or nudging with the arrows coalesces into one
 * step per run); selection and the clipboard are not history. The canvas and panels only
 * dispatch actions, so undo/redo covers everything they can do.
 */
export interface EditorState {
  doc: PosterDocument;
  selectedId: string | null;
  past: PosterDocument[];
  future: PosterDocument[];
  /** The key of the last coalescing change: a change with the same key extends that step. */
  coalesce: string | null;
  clipboard: PosterNode | null;
  /** Changes since the last save (or load). */
  dirty: boolean;
}

/** Steps kept for undo. */
export const HISTORY_LIMIT = 200;
/** How far a paste lands from the copied node. */
export const PASTE_OFFSET = 20;

export type EditorAction =
  | { type: 'load'; doc: PosterDocument }
  | { type: 'saved' }
  | { type: 'add'; node: Omit<PosterNode, 'z'> }
  | { type: 'update'; id: string; patch: Partial<Omit<PosterNode, 'id' | 'z'>>; coalesce?: string }
  | { type: 'remove'; id: string }
  | { type: 'select'; id: string | null }
  | { type: 'reorder'; id: string; to: 'up' | 'down' | 'top' | 'bottom' }
  | { type: 'nudge'; dx: number; dy: number }
  | { type: 'background'; color: string }
  | { type: 'copy' }
  | { type: 'paste'; id: string }
  | { type: 'undo' }
  | { type: 'redo' };

export function initialEditorState(doc: PosterDocument): EditorState {
  return { doc, selectedId: null, past: [], future: [], coalesce: null, clipboard: null, dirty: false };
}

/** Nodes in drawing order with z = their index. */
function renumber(nodes: PosterNode[]): PosterNode[] {
  return nodes.map((n, z) => (n.z === z ? n : { ...n, z }));
}

export const sortedNodes = (doc: PosterDocument): PosterNode[] => [...doc.nodes].sort((a, b) => a.z - b.z);

/** The state after a document change: one history step, unless it continues the last one. */
function commit(state: EditorState, doc: PosterDocument, coalesce: string | null = null): EditorState {
  if (doc === state.doc) return state;
  const extend = coalesce !== null && coalesce === state.coalesce;
  const past = extend ? state.past : [...state.past, state.doc].slice(-HISTORY_LIMIT);
  return { ...state, doc, past, future: [], coalesce, dirty: true };
}

function withNodes(state: EditorState, nodes: PosterNode[]): PosterDocument {
  return { ...state.doc, nodes: renumber(nodes) };
}

export function editorReducer(state: EditorState, action: EditorAction): EditorState {
  const nodes = sortedNodes(state.doc);
  const selected = nodes.find((n) => n.id === state.selectedId);
  switch (action.type) {
    case 'load':
      return { ...initialEditorState(action.doc), clipboard: state.clipboard };
    case 'saved':
      return { ...state, dirty: false, coalesce: null };
    case 'add': {
      const node = { ...action.node, z: nodes.length } as PosterNode;
      return { ...commit(state, withNodes(state, [...nodes, node])), selectedId: node.id };
    }
    case 'update': {
      const at = nodes.findIndex((n) => n.id === action.id);
      if (at < 0) return state;
      const next = [...nodes];
      next[at] = { ...next[at], ...action.patch };
      return commit(state, withNodes(state, next), action.coalesce ? `${action.coalesce}:${action.id}` : null);
    }
    case 'remove': {
      if (!nodes.some((n) => n.id === action.id)) return state;
      const next = commit(
        state,
        withNodes(
          state,
          nodes.filter((n) => n.id !== action.id),
        ),
      );
      return { ...next, selectedId: state.selectedId === action.id ? null : state.selectedId };
    }
    case 'select':
      return state.selectedId === action.id ? state : { ...state, selectedId: action.id, coalesce: null };
    case 'reorder': {
      const at = nodes.findIndex((n) => n.id === action.id);
      if (at < 0) return state;
      const to =
        action.to === 'top'
          ? nodes.length - 1
          : action.to === 'bottom'
            ? 0
            : Math.min(nodes.length - 1, Math.max(0, at + (action.to === 'up' ? 1 : -1)));
      if (to === at) return state;
      const next = [...nodes];
      const [node] = next.splice(at, 1);
      next.splice(to, 0, node);
      return commit(state, withNodes(state, next));
    }
    case 'nudge': {
      if (!selected || selected.locked) return state;
      return editorReducer(state, {
        type: 'update',
        id: selected.id,
        patch: { x: selected.x + action.dx, y: selected.y + action.dy },
        coalesce: 'nudge',
      });
    }
    case 'background':
      return state.doc.background === action.color
        ? state
        : commit(state, { ...state.doc, background: action.color }, 'background');
    case 'copy':
      return selected ? { ...state, clipboard: selected } : state;
    case 'paste': {
      if (!state.clipboard) return state;
      const source = state.clipboard;
      // A pasted field would repeat the copied node's key: the copy starts as a plain node.
      const node = { ...source, id: action.id, x: source.x + PASTE_OFFSET, y: source.y + PASTE_OFFSET, field: null };
      const next = editorReducer(state, { type: 'add', node });
      return { ...next, clipboard: node };
    }
    case 'undo': {
      const prev = state.past.at(-1);
      if (!prev) return state;
      return {
        ...state,
        doc: prev,
        past: state.past.slice(0, -1),
        future: [state.doc, ...state.future],
        coalesce: null,
        dirty: true,
        selectedId: prev.nodes.some((n) => n.id === state.selectedId) ? state.selectedId : null,
      };
    }
    case 'redo': {
      const [next, ...rest] = state.future;
      if (!next) return state;
      return {
        ...state,
        doc: next,
        past: [...state.past, state.doc],
        future: rest,
        coalesce: null,
        dirty: true,
        selectedId: next.nodes.some((n) => n.id === state.selectedId) ? state.selectedId : null,
      };
    }
  }
}

let counter = 0;
/** A node id unique within a document. */
export function newNodeId(): string {
  counter += 1;
  return `n${Date.now().toString(36)}${counter.toString(36)}`;
}

/** A new node of a type, centred in a poster of the given size, with defaults that read well. */
export function newNode(
  type: PosterNodeType,
  poster: { width: number; height: number },
  defaults: { text: string; qr: string },
): Omit<PosterNode, 'z'> {
  const side = Math.round(Math.min(poster.width, poster.height) / 4);
  const base = {
    id: newNodeId(),
    type,
    name: '',
    rotation: 0,
    locked: false,
    hidden: false,
    field: null,
  };
  const box = (w: number, h: number) => ({
    x: Math.round((poster.width - w) / 2),
    y: Math.round((poster.height - h) / 2),
    w,
    h,
  });
  switch (type) {
    case 'text': {
      const fontSize = Math.max(12, Math.round(poster.height / 16));
      return {
        ...base,
        ...box(Math.round(poster.width / 2), Math.round(fontSize * 1.4)),
        text: defaults.text,
        style: { fontSize, fill: '#1f1f1f', align: 'center', fontStyle: 'normal', lineHeight: 1.2 },
      };
    }
    case 'image':
      return { ...base, ...box(side * 2, side * 2), src: '', materialId: null, style: { fit: 'cover' } };
    case 'rect':
      return { ...base, ...box(side * 2, side), style: { fill: '#1677ff', cornerRadius: 0 } };
    case 'ellipse':
      return { ...base, ...box(side, side), style: { fill: '#faad14' } };
    case 'line':
      return { ...base, ...box(side * 2, 0), style: { stroke: '#1f1f1f', strokeWidth: 4 } };
    case 'qr':
      return { ...base, ...box(side, side), text: defaults.qr, style: { fill: '#000000', background: '#ffffff' } };
  }
}
