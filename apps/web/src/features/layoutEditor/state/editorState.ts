/**
 * The layout editor's state (issue 11, "The layout editor"): a pure reducer over the layout
 * document of `@marquee/layout`, with an undo/redo history of immutable snapshots.
 *
 * Every action that changes the document pushes the previous {doc, page, selection} on the
 * undo stack (structural sharing keeps a snapshot cheap: an edit copies one page's component
 * array, not the document); selecting, switching pages and copying change no document and are
 * not history. An action the rules refuse leaves the document as it was and sets `notice` (a
 * key of the package's message table, e.g. 'rule.minPages'), which the editor shows.
 *
 * Continuous gestures (drag, resize, rotate) are applied to the DOM while they run and reach
 * the reducer once, at their end, as one `transform` action: one undo step per gesture.
 */
import {
  allComponents,
  type ComponentType,
  canDeletePage,
  createComponent,
  createPage,
  isAutoJumpButton,
  isLiveComponent,
  LAYOUT_LIMITS,
  type LayoutComponent,
  type LayoutDocument,
  type LayoutMessageId,
  newLayoutId,
} from '@marquee/layout';

/** A page of the document (the package's `LayoutPage` name is also its renderer component). */
type LayoutPage = LayoutDocument['pages'][number];

/** How many document changes can be undone. */
export const HISTORY_LIMIT = 200;

/** Where the editor is: the document, the page shown and the selected component. */
export interface EditorSnapshot {
  doc: LayoutDocument;
  pageId: string;
  selectedId: string | null;
}

export interface EditorNotice {
  key: LayoutMessageId;
  /** Increases on every notice, so the same message twice is shown twice. */
  seq: number;
}

export interface EditorState extends EditorSnapshot {
  past: EditorSnapshot[];
  future: EditorSnapshot[];
  /** What Ctrl+C copied (a deep copy, pasted with new ids). */
  clipboard: LayoutComponent | null;
  /** The document as last loaded or saved: the editor has unsaved changes while `doc` is another. */
  savedDoc: LayoutDocument;
  notice: EditorNotice | null;
}

/** Geometry of one component in layout pixels. */
export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
  rotation: number;
}

export type ZOrderMove = 'front' | 'back' | 'forward' | 'backward';

/** What a component type can do beyond position and size. */
export type ComponentFeature = 'rotate' | 'materials' | 'text' | 'action';

/**
 * Features by type. Rotation: players draw video, live streams and web views on surfaces that
 * cannot be rotated, so those types are not rotated (spec section 8: 'component does not
 * support this feature').
 */
const NOT_ROTATABLE: readonly ComponentType[] = ['video', 'liveStream', 'webPage', 'browser', 'html'];
const TEXT_TYPES: readonly ComponentType[] = ['text', 'weather', 'clock', 'button', 'countdown', 'shares'];

export function supports(type: ComponentType, feature: ComponentFeature): boolean {
  switch (feature) {
    case 'rotate':
      return !NOT_ROTATABLE.includes(type);
    case 'materials':
      return type === 'picture' || type === 'video' || type === 'music';
    case 'text':
      return TEXT_TYPES.includes(type);
    case 'action':
      return type === 'button';
  }
}

export type EditorAction =
  | { type: 'load'; doc: LayoutDocument }
  | { type: 'markSaved'; doc: LayoutDocument }
  | { type: 'setSize'; width: number; height: number }
  | { type: 'selectPage'; pageId: string }
  | { type: 'select'; id: string | null }
  | { type: 'add'; componentType: ComponentType; x?: number; y?: number }
  | { type: 'transform'; id: string; box: Partial<Box> }
  | { type: 'rotate'; id?: string; rotation: number }
  | { type: 'nudge'; dx: number; dy: number }
  | { type: 'delete'; id?: string }
  | { type: 'duplicate'; id?: string }
  | { type: 'zOrder'; id?: string; move: ZOrderMove }
  | { type: 'setLocked'; id: string; locked: boolean }
  | { type: 'setHidden'; id: string; hidden: boolean }
  | { type: 'updateBase'; id: string; patch: Partial<Pick<LayoutComponent, 'name' | 'timing' | 'rtbSlot'>> }
  | { type: 'updateProps'; id: string; patch: Record<string, unknown> }
  | { type: 'copy' }
  | { type: 'paste' }
  | { type: 'addPage' }
  | { type: 'duplicatePage'; pageId?: string }
  | { type: 'movePage'; from: number; to: number }
  | { type: 'deletePage'; pageId?: string }
  | { type: 'updatePage'; pageId?: string; patch: Partial<Pick<LayoutPage, 'name' | 'duration' | 'background'>> }
  | { type: 'undo' }
  | { type: 'redo' };

export function initEditorState(doc: LayoutDocument): EditorState {
  return {
    doc,
    pageId: doc.pages[0]?.id ?? '',
    selectedId: null,
    past: [],
    future: [],
    clipboard: null,
    savedDoc: doc,
    notice: null,
  };
}

// --- reading ----------------------------------------------------------------------------

export function isDirty(s: Pick<EditorState, 'doc' | 'savedDoc'>): boolean {
  return s.doc !== s.savedDoc;
}

export function currentPage(s: Pick<EditorSnapshot, 'doc' | 'pageId'>): LayoutPage {
  return s.doc.pages.find((p) => p.id === s.pageId) ?? s.doc.pages[0];
}

export function selectedComponent(s: EditorSnapshot): LayoutComponent | null {
  if (!s.selectedId) return null;
  return currentPage(s).components.find((c) => c.id === s.selectedId) ?? null;
}

/** The page's components bottom to top (the order they are drawn in). */
export function byZ(components: readonly LayoutComponent[]): LayoutComponent[] {
  return [...components].sort((a, b) => a.z - b.z);
}

// --- writing helpers ----------------------------------------------------------------------

function notice(s: EditorState, key: LayoutMessageId): EditorState {
  return { ...s, notice: { key, seq: (s.notice?.seq ?? 0) + 1 } };
}

/** Commits a new document (and where the editor is after it) as one undoable step. */
function commit(s: EditorState, next: Partial<EditorSnapshot> & { doc: LayoutDocument }): EditorState {
  const before: EditorSnapshot = { doc: s.doc, pageId: s.pageId, selectedId: s.selectedId };
  const past = s.past.length >= HISTORY_LIMIT ? s.past.slice(s.past.length - HISTORY_LIMIT + 1) : s.past.slice();
  past.push(before);
  return {
    ...s,
    doc: next.doc,
    pageId: next.pageId ?? s.pageId,
    selectedId: next.selectedId === undefined ? s.selectedId : next.selectedId,
    past,
    future: [],
  };
}

function replacePage(doc: LayoutDocument, page: LayoutPage): LayoutDocument {
  return { ...doc, pages: doc.pages.map((p) => (p.id === page.id ? page : p)) };
}

function withComponents(page: LayoutPage, components: LayoutComponent[]): LayoutPage {
  return { ...page, components };
}

function maxZ(components: readonly LayoutComponent[]): number {
  return components.reduce((m, c) => Math.max(m, c.z), -1);
}

/** A copy with new ids (component) that keeps the rules: a copy of an auto-jump button does not jump by itself. */
function cloneComponent(c: LayoutComponent, keepsAutoJump: boolean): LayoutComponent {
  const copy = structuredClone(c) as LayoutComponent;
  copy.id = newLayoutId('c');
  if (copy.type === 'button' && !keepsAutoJump) copy.props = { ...copy.props, autoJump: null };
  return copy;
}

function countTotal(doc: LayoutDocument): number {
  return doc.pages.reduce((n, p) => n + p.components.length, 0);
}

/** The limits a set of new components would break: the message, or null when they fit. */
function checkAdding(
  doc: LayoutDocument,
  page: LayoutPage | null,
  added: readonly LayoutComponent[],
): LayoutMessageId | null {
  if (page && page.components.length + added.length > LAYOUT_LIMITS.maxComponentsPerPage) return 'rule.maxComponents';
  if (countTotal(doc) + added.length > LAYOUT_LIMITS.maxComponentsTotal) return 'rule.maxComponents';
  const live = added.filter(isLiveComponent).length;
  if (
    live > 0 &&
    allComponents(doc).filter((e) => isLiveComponent(e.component)).length + live > LAYOUT_LIMITS.maxLiveComponents
  ) {
    return 'rule.maxLiveComponents';
  }
  return null;
}

function hasAutoJump(doc: LayoutDocument, exceptId?: string): boolean {
  return allComponents(doc).some((e) => e.component.id !== exceptId && isAutoJumpButton(e.component));
}

/** True for a dark colour (#rrggbb[aa]): relative luminance under one half. */
export function isDark(color: string): boolean {
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})/i.exec(color);
  if (!m) return false;
  const [r, g, b] = [m[1], m[2], m[3]].map((h) => Number.parseInt(h, 16) / 255);
  return 0.2126 * r + 0.7152 * g + 0.0722 * b < 0.5;
}

/** A new component's text is drawn light on a dark page (the types default to black text). */
function readableOn(c: LayoutComponent, background: string): LayoutComponent {
  const props = c.props as Record<string, unknown>;
  if (c.type === 'button' || c.type === 'qrCode' || typeof props.color !== 'string') return c;
  if (isDark(background) && isDark(props.color))
    return { ...c, props: { ...props, color: '#ffffff' } } as LayoutComponent;
  return c;
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}

/** Finds the target component on the current page: the given id or the selection. */
function target(s: EditorState, id: string | undefined): LayoutComponent | null {
  const wanted = id ?? s.selectedId;
  if (!wanted) return null;
  return currentPage(s).components.find((c) => c.id === wanted) ?? null;
}

function updateComponent(s: EditorState, id: string, fn: (c: LayoutComponent) => LayoutComponent): EditorState {
  const page = currentPage(s);
  let changed = false;
  const components = page.components.map((c) => {
    if (c.id !== id) return c;
    const next = fn(c);
    if (next !== c) changed = true;
    return next;
  });
  if (!changed) return s;
  return commit(s, { doc: replacePage(s.doc, withComponents(page, components)) });
}

/** Adds a copy on top of the page, unlocked, and selects it (refused past the limits). */
function placeCopy(s: EditorState, page: LayoutPage, copy: LayoutComponent): EditorState {
  copy.z = maxZ(page.components) + 1;
  copy.locked = false;
  const refused = checkAdding(s.doc, page, [copy]);
  if (refused) return notice(s, refused);
  return commit(s, {
    doc: replacePage(s.doc, withComponents(page, [...page.components, copy])),
    selectedId: copy.id,
  });
}

// --- the reducer ----------------------------------------------------------------------------

export function editorReducer(s: EditorState, action: EditorAction): EditorState {
  switch (action.type) {
    case 'load':
      return { ...initEditorState(action.doc), notice: s.notice };

    case 'markSaved':
      return { ...s, savedDoc: action.doc };

    case 'setSize': {
      if (action.width === s.doc.width && action.height === s.doc.height) return s;
      return commit(s, { doc: { ...s.doc, width: action.width, height: action.height } });
    }

    case 'selectPage':
      if (!s.doc.pages.some((p) => p.id === action.pageId) || action.pageId === s.pageId) return s;
      return { ...s, pageId: action.pageId, selectedId: null };

    case 'select':
      if (action.id !== null && !currentPage(s).components.some((c) => c.id === action.id)) return s;
      return action.id === s.selectedId ? s : { ...s, selectedId: action.id };

    case 'add': {
      const page = currentPage(s);
      const component = createComponent(action.componentType, { z: maxZ(page.components) + 1 });
      // Centred on the drop point (or the canvas), kept on the canvas where it fits.
      const cx = action.x ?? s.doc.width / 2;
      const cy = action.y ?? s.doc.height / 2;
      const w = Math.min(component.w, s.doc.width);
      const h = Math.min(component.h, s.doc.height);
      const x = Math.round(Math.max(0, Math.min(s.doc.width - w, cx - w / 2)));
      const y = Math.round(Math.max(0, Math.min(s.doc.height - h, cy - h / 2)));
      const placed = readableOn({ ...component, x, y, w, h } as LayoutComponent, page.background.color);
      const refused = checkAdding(s.doc, page, [placed]);
      if (refused) return notice(s, refused);
      return commit(s, {
        doc: replacePage(s.doc, withComponents(page, [...page.components, placed])),
        selectedId: placed.id,
      });
    }

    case 'transform': {
      const c = target(s, action.id);
      if (!c || c.locked) return s;
      const box = action.box;
      if (box.rotation !== undefined && box.rotation !== c.rotation && !supports(c.type, 'rotate')) {
        return notice(s, 'editor.unsupported');
      }
      const next = {
        x: box.x === undefined ? c.x : round(box.x),
        y: box.y === undefined ? c.y : round(box.y),
        w: box.w === undefined ? c.w : Math.max(1, round(box.w)),
        h: box.h === undefined ? c.h : Math.max(1, round(box.h)),
        rotation: box.rotation === undefined ? c.rotation : normaliseRotation(box.rotation),
      };
      if (next.x === c.x && next.y === c.y && next.w === c.w && next.h === c.h && next.rotation === c.rotation)
        return s;
      return updateComponent(s, c.id, (old) => ({ ...old, ...next }) as LayoutComponent);
    }

    case 'rotate': {
      const c = target(s, action.id);
      if (!c) return notice(s, 'editor.selectComponent');
      if (!supports(c.type, 'rotate')) return notice(s, 'editor.unsupported');
      return editorReducer(s, { type: 'transform', id: c.id, box: { rotation: action.rotation } });
    }

    case 'nudge': {
      const c = target(s, undefined);
      if (!c) return notice(s, 'editor.selectComponent');
      if (c.locked) return s;
      return updateComponent(s, c.id, (old) => ({ ...old, x: round(old.x + action.dx), y: round(old.y + action.dy) }));
    }

    case 'delete': {
      const c = target(s, action.id);
      if (!c) return notice(s, 'editor.selectComponent');
      if (c.locked) return s;
      const page = currentPage(s);
      return commit(s, {
        doc: replacePage(
          s.doc,
          withComponents(
            page,
            page.components.filter((x) => x.id !== c.id),
          ),
        ),
        selectedId: null,
      });
    }

    case 'duplicate': {
      const c = target(s, action.id);
      if (!c) return notice(s, 'editor.selectComponent');
      const page = currentPage(s);
      const copy = cloneComponent(c, false);
      copy.x = round(c.x + 20);
      copy.y = round(c.y + 20);
      return placeCopy(s, page, copy);
    }

    case 'zOrder': {
      const c = target(s, action.id);
      if (!c) return notice(s, 'editor.selectComponent');
      const page = currentPage(s);
      const order = byZ(page.components);
      const at = order.findIndex((x) => x.id === c.id);
      const to =
        action.move === 'front'
          ? order.length - 1
          : action.move === 'back'
            ? 0
            : action.move === 'forward'
              ? Math.min(order.length - 1, at + 1)
              : Math.max(0, at - 1);
      if (to === at) return s;
      order.splice(at, 1);
      order.splice(to, 0, c);
      const components = order.map((x, i) => (x.z === i ? x : ({ ...x, z: i } as LayoutComponent)));
      return commit(s, { doc: replacePage(s.doc, withComponents(page, components)) });
    }

    case 'setLocked':
      return updateComponent(s, action.id, (c) => (c.locked === action.locked ? c : { ...c, locked: action.locked }));

    case 'setHidden':
      return updateComponent(s, action.id, (c) => (c.hidden === action.hidden ? c : { ...c, hidden: action.hidden }));

    case 'updateBase':
      return updateComponent(s, action.id, (c) => ({ ...c, ...action.patch }) as LayoutComponent);

    case 'updateProps': {
      const c = target(s, action.id);
      if (!c) return notice(s, 'editor.selectComponent');
      const props = c.props as Record<string, unknown>;
      for (const key of Object.keys(action.patch)) {
        if (!(key in props)) return notice(s, 'editor.unsupported');
      }
      if (c.type === 'button' && action.patch.autoJump != null && hasAutoJump(s.doc, c.id)) {
        return notice(s, 'rule.oneAutoJump');
      }
      return updateComponent(
        s,
        c.id,
        (old) => ({ ...old, props: { ...old.props, ...action.patch } }) as LayoutComponent,
      );
    }

    case 'copy': {
      const c = target(s, undefined);
      if (!c) return notice(s, 'editor.selectComponent');
      return { ...s, clipboard: structuredClone(c) as LayoutComponent };
    }

    case 'paste': {
      if (!s.clipboard) return s;
      const page = currentPage(s);
      const copy = cloneComponent(s.clipboard, !hasAutoJump(s.doc));
      // Pasted where a copy already lies (the page it was copied from), it lands beside it.
      for (
        let i = 0;
        i < 50 && page.components.some((x) => x.x === copy.x && x.y === copy.y && x.w === copy.w && x.h === copy.h);
        i++
      ) {
        copy.x = round(copy.x + 20);
        copy.y = round(copy.y + 20);
      }
      return placeCopy(s, page, copy);
    }

    case 'addPage': {
      if (s.doc.pages.length >= LAYOUT_LIMITS.maxPages) return notice(s, 'rule.maxComponents');
      const index = s.doc.pages.findIndex((p) => p.id === s.pageId);
      const page = createPage();
      const pages = [...s.doc.pages];
      pages.splice(index + 1, 0, page);
      return commit(s, { doc: { ...s.doc, pages }, pageId: page.id, selectedId: null });
    }

    case 'duplicatePage': {
      const source = s.doc.pages.find((p) => p.id === (action.pageId ?? s.pageId));
      if (!source) return s;
      if (s.doc.pages.length >= LAYOUT_LIMITS.maxPages) return notice(s, 'rule.maxComponents');
      const keepAutoJump = false;
      const copy: LayoutPage = {
        ...structuredClone(source),
        id: newLayoutId('p'),
        components: source.components.map((c) => cloneComponent(c, keepAutoJump)),
      };
      const refused = checkAdding(s.doc, null, copy.components);
      if (refused) return notice(s, refused);
      const pages = [...s.doc.pages];
      pages.splice(pages.indexOf(source) + 1, 0, copy);
      return commit(s, { doc: { ...s.doc, pages }, pageId: copy.id, selectedId: null });
    }

    case 'movePage': {
      const n = s.doc.pages.length;
      const { from, to } = action;
      if (from === to || from < 0 || to < 0 || from >= n || to >= n) return s;
      const pages = [...s.doc.pages];
      const [moved] = pages.splice(from, 1);
      pages.splice(to, 0, moved);
      return commit(s, { doc: { ...s.doc, pages } });
    }

    case 'deletePage': {
      const id = action.pageId ?? s.pageId;
      const index = s.doc.pages.findIndex((p) => p.id === id);
      if (index < 0) return s;
      if (!canDeletePage(s.doc)) return notice(s, 'rule.minPages');
      // Buttons that jumped to the deleted page no longer jump anywhere (the rule 'jumpTarget').
      const pages = s.doc.pages
        .filter((p) => p.id !== id)
        .map((p) =>
          p.components.some(
            (c) => c.type === 'button' && c.props.action.kind === 'jumpPage' && c.props.action.pageId === id,
          )
            ? withComponents(
                p,
                p.components.map((c) =>
                  c.type === 'button' && c.props.action.kind === 'jumpPage' && c.props.action.pageId === id
                    ? { ...c, props: { ...c.props, action: { kind: 'none' as const } } }
                    : c,
                ),
              )
            : p,
        );
      const nextPage = pages[Math.min(index, pages.length - 1)];
      return commit(s, {
        doc: { ...s.doc, pages },
        pageId: id === s.pageId ? nextPage.id : s.pageId,
        selectedId: id === s.pageId ? null : s.selectedId,
      });
    }

    case 'updatePage': {
      const page = s.doc.pages.find((p) => p.id === (action.pageId ?? s.pageId));
      if (!page) return s;
      return commit(s, { doc: replacePage(s.doc, { ...page, ...action.patch }) });
    }

    case 'undo': {
      const prev = s.past.at(-1);
      if (!prev) return s;
      const now: EditorSnapshot = { doc: s.doc, pageId: s.pageId, selectedId: s.selectedId };
      return { ...s, ...prev, past: s.past.slice(0, -1), future: [now, ...s.future] };
    }

    case 'redo': {
      const next = s.future[0];
      if (!next) return s;
      const now: EditorSnapshot = { doc: s.doc, pageId: s.pageId, selectedId: s.selectedId };
      return { ...s, ...next, past: [...s.past, now], future: s.future.slice(1) };
    }
  }
}

function normaliseRotation(deg: number): number {
  let r = round(deg % 360);
  if (r > 180) r -= 360;
  if (r <= -180) r += 360;
  return r;
}
