/** @jsxRuntime automatic @jsxImportSource react */
/**
 * One page of a layout, drawn at any scale: the same DOM in the editor canvas, the console
 * preview and the browser player. Components are absolutely positioned in layout pixels inside
 * a box scaled with a CSS transform, so text, borders and frames keep their proportions.
 */
import { type CSSProperties, type ReactNode, useMemo } from 'react';
import type { ButtonAction, LayoutComponent, LayoutDocument, LayoutPageData as Page } from '../schema.js';
import { ComponentView } from './components.js';
import { useElapsed } from './hooks.js';
import {
  lookupMaterial,
  type MaterialLookup,
  type RenderContext,
  type SharesLookup,
  type WeatherLookup,
} from './types.js';

/** Keyframes the views use (scrolling text, picture fade), emitted once per page root. */
const KEYFRAMES = `
@keyframes mq-scroll-left { from { transform: translateX(100%); } to { transform: translateX(-100%); } }
@keyframes mq-scroll-right { from { transform: translateX(-100%); } to { transform: translateX(100%); } }
@keyframes mq-scroll-up { from { transform: translateY(100%); } to { transform: translateY(-100%); } }
@keyframes mq-scroll-down { from { transform: translateY(-100%); } to { transform: translateY(100%); } }
@keyframes mq-fade-in { from { opacity: 0; } to { opacity: 1; } }
`;

export interface LayoutPageProps {
  doc: LayoutDocument;
  /** The page: its index in `doc.pages` or its id. */
  page: number | string;
  materials: MaterialLookup;
  /** CSS pixels per layout pixel (default 1). */
  scale?: number;
  /** Fixed time (ms) for clocks and countdowns (thumbnails, tests); omitted they tick. */
  now?: number;
  /** Playing: media plays, timing and auto-jump apply. Still (false, default): the editor's view. */
  playing?: boolean;
  /** zh-CN, en-US or ja (default: the browser's language, else zh-CN). */
  locale?: string;
  /** Weather readings from the server's provider, by city. */
  weather?: WeatherLookup;
  /** Share quotes from the server's provider, by upper-cased symbol. */
  shares?: SharesLookup;
  /** A button's action (jump to page, open a URL). */
  onAction?: (action: ButtonAction, component: LayoutComponent) => void;
  /** Drawn over each component (the editor's selection frame). */
  renderOverlay?: (component: LayoutComponent) => ReactNode;
  /** Show hidden components (faded) instead of leaving them out: the editor's choice. */
  showHidden?: boolean;
  /** Thumbnail mode: frames, videos and streams are not loaded (placeholders or posters instead). */
  lite?: boolean;
  className?: string;
  style?: CSSProperties;
}

export function resolvePage(doc: LayoutDocument, page: number | string): Page | undefined {
  return typeof page === 'number' ? doc.pages[page] : doc.pages.find((p) => p.id === page);
}

/** The scale that fits the layout inside a box (letterboxed). */
export function fitScale(doc: Pick<LayoutDocument, 'width' | 'height'>, boxWidth: number, boxHeight: number): number {
  if (boxWidth <= 0 || boxHeight <= 0) return 0;
  return Math.min(boxWidth / doc.width, boxHeight / doc.height);
}

export function defaultLocale(): string {
  const lang = typeof navigator !== 'undefined' ? navigator.language : '';
  if (lang.startsWith('en')) return 'en-US';
  if (lang.startsWith('ja')) return 'ja';
  return 'zh-CN';
}

function needsClock(page: Page | undefined): boolean {
  return !!page?.components.some((c) => c.timing.start > 0 || c.timing.end !== null);
}

export function LayoutPage(props: LayoutPageProps) {
  const {
    doc,
    materials,
    scale = 1,
    now,
    playing = false,
    weather,
    shares,
    onAction,
    renderOverlay,
    showHidden = false,
    lite = false,
  } = props;
  const page = resolvePage(doc, props.page);
  const locale = props.locale ?? defaultLocale();
  const elapsed = useElapsed(playing && needsClock(page));
  const ctx: RenderContext = useMemo(
    () => ({ materials, locale, now, playing, weather, shares, onAction, lite }),
    [materials, locale, now, playing, weather, shares, onAction, lite],
  );
  const components = useMemo(() => (page ? [...page.components].sort((a, b) => a.z - b.z) : []), [page]);
  const background = page?.background;
  const bgMaterial = background?.materialId ? lookupMaterial(materials, background.materialId) : undefined;
  return (
    <div
      className={props.className}
      data-layout-page={page?.id ?? ''}
      style={{
        position: 'relative',
        width: doc.width * scale,
        height: doc.height * scale,
        overflow: 'hidden',
        ...props.style,
      }}
    >
      <style>{KEYFRAMES}</style>
      <div
        style={{
          position: 'absolute',
          left: 0,
          top: 0,
          width: doc.width,
          height: doc.height,
          transform: `scale(${scale})`,
          transformOrigin: '0 0',
          background: background?.color ?? '#000',
          overflow: 'hidden',
        }}
      >
        {bgMaterial ? (
          <img
            src={bgMaterial.url}
            alt=""
            draggable={false}
            style={{
              position: 'absolute',
              inset: 0,
              width: '100%',
              height: '100%',
              objectFit: background?.fit ?? 'cover',
            }}
          />
        ) : null}
        {components.map((c) => {
          if (c.hidden && !showHidden) return null;
          if (playing && (elapsed < c.timing.start || (c.timing.end !== null && elapsed >= c.timing.end))) return null;
          return (
            <div
              key={c.id}
              data-component={c.type}
              data-component-id={c.id}
              style={{
                position: 'absolute',
                left: c.x,
                top: c.y,
                width: c.w,
                height: c.h,
                zIndex: c.z,
                transform: c.rotation ? `rotate(${c.rotation}deg)` : undefined,
                opacity: c.hidden ? 0.35 : undefined,
                overflow: 'hidden',
              }}
            >
              <ComponentView component={c} ctx={ctx} />
              {renderOverlay?.(c)}
            </div>
          );
        })}
      </div>
    </div>
  );
}
