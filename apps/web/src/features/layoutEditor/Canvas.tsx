import {
  type ComponentType,
  ComponentView,
  type LayoutComponent,
  type LayoutDocument,
  lookupMaterial,
  type MaterialLookup,
  type RenderContext,
} from '@marquee/layout';
import { memo, useCallback, useEffect, useLayoutEffect, useMemo, useRef } from 'react';
import { flushSync } from 'react-dom';
import type {
  default as MoveableClass,
  OnDrag,
  OnDragEnd,
  OnResize,
  OnResizeEnd,
  OnRotate,
  OnRotateEnd,
} from 'react-moveable';
import { useModule } from './lazyModule';
import { byZ, currentPage, type EditorState, supports } from './state/editorState';
import { type EditorDispatch, useAfterFirstPaint } from './useEditor';

/**
 * The selection's handles (react-moveable, most of the editor's code): a chunk of its own, asked
 * for once the page is drawn, so opening a layout does not wait for it (no component is
 * selected on open).
 */
const loadMoveable = () => import('react-moveable');

/** Grid step in layout pixels (the grid toggle draws it and snaps to it). */
export const GRID_SIZE = 20;
export const ZOOM_MIN = 0.05;
export const ZOOM_MAX = 4;
/** At most this many other components give snapping guides (the nearest to the selection). */
export const MAX_SNAP_ELEMENTS = 40;
/** The drag payload of a palette item. */
export const PALETTE_MIME = 'application/x-marquee-component';

/** Grid lines one screen pixel wide at any zoom. */
function gridStyle(zoom: number): React.CSSProperties {
  const line = `${Math.max(1, 1 / zoom).toFixed(2)}px`;
  const color = 'rgba(22, 119, 255, 0.35)';
  return {
    backgroundSize: `${GRID_SIZE}px ${GRID_SIZE}px`,
    backgroundImage: `linear-gradient(to right, ${color} ${line}, transparent ${line}), linear-gradient(to bottom, ${color} ${line}, transparent ${line})`,
  };
}

export function clampZoom(z: number): number {
  return Math.min(ZOOM_MAX, Math.max(ZOOM_MIN, Math.round(z * 1000) / 1000));
}

interface ItemProps {
  c: LayoutComponent;
  ctx: RenderContext;
  register: (id: string, el: HTMLDivElement | null) => void;
  onPointerDown: (id: string, event: React.PointerEvent<HTMLDivElement>) => void;
}

/** One component on the canvas: D's renderer draws it; the editor positions it and takes the pointer. */
const CanvasItem = memo(function CanvasItem({ c, ctx, register, onPointerDown }: ItemProps) {
  const ref = useCallback((el: HTMLDivElement | null) => register(c.id, el), [register, c.id]);
  return (
    <div
      ref={ref}
      className={`mq-le-item${c.hidden ? ' is-hidden' : ''}${c.locked ? ' is-locked' : ''}`}
      data-testid={`le-item-${c.type}`}
      data-id={c.id}
      onPointerDown={(e) => onPointerDown(c.id, e)}
      style={{
        left: c.x,
        top: c.y,
        width: c.w,
        height: c.h,
        zIndex: c.z,
        transform: `rotate(${c.rotation}deg)`,
      }}
    >
      <div className="mq-le-item-content">
        <ComponentView component={c} ctx={ctx} />
      </div>
    </div>
  );
});

export interface CanvasProps {
  state: EditorState;
  dispatch: EditorDispatch;
  zoom: number;
  onZoom: (zoom: number) => void;
  grid: boolean;
  materials: MaterialLookup;
  locale: string;
  viewportRef: React.RefObject<HTMLDivElement | null>;
  /** False while a dialog covers the canvas: no handles. */
  active: boolean;
}

/** The canvas: the current page at the zoom, the selection's handles (react-moveable) with snapping guides. */
export function Canvas({ state, dispatch, zoom, onZoom, grid, materials, locale, viewportRef, active }: CanvasProps) {
  const doc: LayoutDocument = state.doc;
  const page = currentPage(state);
  const items = useMemo(() => byZ(page.components), [page.components]);
  const elements = useRef(new Map<string, HTMLDivElement>());
  const stageRef = useRef<HTMLDivElement | null>(null);
  const moveableRef = useRef<MoveableClass | null>(null);
  // The handles' chunk loads after the first frame (at once when a component is selected first).
  const handlesWanted = useAfterFirstPaint();
  const Moveable = useModule(loadMoveable, handlesWanted || state.selectedId !== null).module?.default;
  const selected = items.find((c) => c.id === state.selectedId) ?? null;
  const ctx = useMemo<RenderContext>(() => ({ materials, locale, playing: false }), [materials, locale]);

  const register = useCallback((id: string, el: HTMLDivElement | null) => {
    if (el) elements.current.set(id, el);
    else elements.current.delete(id);
  }, []);

  // A ref, so the items' handler stays the same object and a selection re-renders no item.
  const selectedIdRef = useRef(state.selectedId);
  selectedIdRef.current = state.selectedId;
  const onItemPointerDown = useCallback(
    (id: string, event: React.PointerEvent<HTMLDivElement>) => {
      if (event.button !== 0) return;
      event.stopPropagation();
      if (id === selectedIdRef.current) return; // Moveable takes the drag of its target itself.
      const native = event.nativeEvent;
      flushSync(() => dispatch({ type: 'select', id }));
      // Select and drag in one gesture.
      moveableRef.current?.waitToChangeTarget().then(() => moveableRef.current?.dragStart(native));
    },
    [dispatch],
  );

  // Ctrl+wheel zooms (a non-passive listener, so the page does not zoom instead).
  const zoomRef = useRef(zoom);
  zoomRef.current = zoom;
  useEffect(() => {
    const el = viewportRef.current;
    if (!el) return;
    const onWheel = (event: WheelEvent) => {
      if (!event.ctrlKey && !event.metaKey) return;
      event.preventDefault();
      onZoom(clampZoom(zoomRef.current * (event.deltaY < 0 ? 1.1 : 1 / 1.1)));
    };
    el.addEventListener('wheel', onWheel, { passive: false });
    return () => el.removeEventListener('wheel', onWheel);
  }, [onZoom, viewportRef]);

  // Handles follow the document (undo, properties panel, nudges) and the zoom.
  useLayoutEffect(() => {
    moveableRef.current?.updateRect();
  });

  const onDrop = (event: React.DragEvent<HTMLDivElement>) => {
    const type = event.dataTransfer.getData(PALETTE_MIME) as ComponentType;
    if (!type || !stageRef.current) return;
    event.preventDefault();
    const rect = stageRef.current.getBoundingClientRect();
    dispatch({
      type: 'add',
      componentType: type,
      x: Math.round((event.clientX - rect.left) / zoom),
      y: Math.round((event.clientY - rect.top) / zoom),
    });
  };

  const target = active && selected && !selected.hidden ? (elements.current.get(selected.id) ?? null) : null;
  const guidelines = useMemo(() => {
    const out: HTMLElement[] = [];
    if (stageRef.current) out.push(stageRef.current);
    const sel = items.find((c) => c.id === state.selectedId);
    if (!sel) return out;
    // The nearest components snap (every one is measured on each frame of a drag: a page of
    // hundreds would cost more than a frame).
    const cx = sel.x + sel.w / 2;
    const cy = sel.y + sel.h / 2;
    const others = items
      .filter((c) => c.id !== sel.id && !c.hidden)
      .map((c) => ({ c, d: Math.hypot(c.x + c.w / 2 - cx, c.y + c.h / 2 - cy) }))
      .sort((a, b) => a.d - b.d)
      .slice(0, MAX_SNAP_ELEMENTS);
    for (const { c } of others) {
      const el = elements.current.get(c.id);
      if (el) out.push(el);
    }
    return out;
    // The elements of a page exist once it rendered; recomputed when the selection or page changes.
  }, [items, state.selectedId]);

  const locked = Boolean(selected?.locked);
  const canRotate = Boolean(selected && supports(selected.type, 'rotate'));
  const restore = (el: HTMLElement, c: LayoutComponent) => {
    el.style.left = `${c.x}px`;
    el.style.top = `${c.y}px`;
    el.style.width = `${c.w}px`;
    el.style.height = `${c.h}px`;
    el.style.transform = `rotate(${c.rotation}deg)`;
  };

  const bgMaterial = page.background.materialId ? lookupMaterial(materials, page.background.materialId) : undefined;
  const directions = { top: true, left: true, bottom: true, right: true, center: true, middle: true };

  return (
    <div
      className="mq-le-viewport"
      ref={viewportRef}
      data-testid="le-canvas"
      onPointerDown={(e) => {
        if (e.button === 0 && e.target === e.currentTarget) dispatch({ type: 'select', id: null });
      }}
      onDragOver={(e) => {
        if (e.dataTransfer.types.includes(PALETTE_MIME)) e.preventDefault();
      }}
      onDrop={onDrop}
    >
      <div
        className="mq-le-stage-box"
        style={{ width: doc.width * zoom, height: doc.height * zoom }}
        onPointerDown={(e) => {
          if (e.button === 0) dispatch({ type: 'select', id: null });
        }}
      >
        <div
          ref={stageRef}
          className="mq-le-stage"
          data-testid="le-stage"
          data-page={page.id}
          style={{
            width: doc.width,
            height: doc.height,
            transform: `scale(${zoom})`,
            background: page.background.color,
          }}
        >
          {bgMaterial ? (
            <img
              className="mq-le-bg"
              src={bgMaterial.url}
              alt=""
              draggable={false}
              style={{ objectFit: page.background.fit }}
            />
          ) : null}
          {items.map((c) => (
            <CanvasItem key={c.id} c={c} ctx={ctx} register={register} onPointerDown={onItemPointerDown} />
          ))}
          {grid ? <div className="mq-le-grid" style={gridStyle(zoom)} data-testid="le-grid" /> : null}
        </div>
      </div>
      {Moveable ? (
        <Moveable
          ref={moveableRef}
          target={target}
          flushSync={flushSync}
          draggable={!locked}
          resizable={!locked}
          rotatable={!locked && canRotate}
          origin={false}
          throttleDrag={0}
          throttleResize={0}
          throttleRotate={0}
          snappable
          snapThreshold={6}
          snapGridWidth={grid ? GRID_SIZE * zoom : 0}
          snapGridHeight={grid ? GRID_SIZE * zoom : 0}
          snapDirections={directions}
          elementSnapDirections={directions}
          elementGuidelines={guidelines}
          isDisplaySnapDigit={false}
          onDragStart={() => undefined}
          onDrag={(e: OnDrag) => {
            e.target.style.transform = e.transform;
          }}
          onDragEnd={(e: OnDragEnd) => {
            if (!selected || !e.lastEvent) return;
            const [tx, ty] = e.lastEvent.beforeTranslate as number[];
            restore(e.target as HTMLElement, selected);
            dispatch({ type: 'transform', id: selected.id, box: { x: selected.x + tx, y: selected.y + ty } });
          }}
          onResizeStart={(e) => {
            e.setOrigin(['%', '%']);
            if (e.dragStart) e.dragStart.set([0, 0]);
          }}
          onResize={(e: OnResize) => {
            e.target.style.width = `${e.width}px`;
            e.target.style.height = `${e.height}px`;
            e.target.style.transform = e.drag.transform;
          }}
          onResizeEnd={(e: OnResizeEnd) => {
            if (!selected || !e.lastEvent) return;
            const last = e.lastEvent as OnResize;
            const [tx, ty] = last.drag.beforeTranslate;
            restore(e.target as HTMLElement, selected);
            dispatch({
              type: 'transform',
              id: selected.id,
              box: { x: selected.x + tx, y: selected.y + ty, w: last.width, h: last.height },
            });
          }}
          onRotate={(e: OnRotate) => {
            e.target.style.transform = e.drag.transform;
          }}
          onRotateEnd={(e: OnRotateEnd) => {
            if (!selected || !e.lastEvent) return;
            const last = e.lastEvent as OnRotate;
            restore(e.target as HTMLElement, selected);
            dispatch({ type: 'transform', id: selected.id, box: { rotation: last.rotation } });
          }}
        />
      ) : null}
    </div>
  );
}
