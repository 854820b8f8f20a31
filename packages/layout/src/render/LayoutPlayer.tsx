/** @jsxRuntime automatic @jsxImportSource react */
/**
 * Plays a layout as a screen does: each page for its duration, then the next, looping; a
 * button's jump-to-page goes there at once and the cycle continues from that page.
 */
import { type CSSProperties, type ReactNode, useCallback, useEffect, useState } from 'react';
import type { ButtonAction, LayoutComponent, LayoutDocument } from '../schema.js';
import { LayoutPage } from './LayoutPage.js';
import type { MaterialLookup, SharesLookup, WeatherLookup } from './types.js';

export interface LayoutPlayerProps {
  doc: LayoutDocument;
  materials: MaterialLookup;
  scale?: number;
  locale?: string;
  weather?: WeatherLookup;
  shares?: SharesLookup;
  /** Start on this page index (default 0). */
  startPage?: number;
  /** Told each time a page opens. */
  onPageChange?: (index: number) => void;
  /** Open-URL buttons (default: a new window). */
  onOpenUrl?: (url: string) => void;
  /** False: stay still (paused preview). Default true. */
  playing?: boolean;
  /** Drawn over a component, inside its box (a player fills a layout's RTB region with it). */
  renderOverlay?: (component: LayoutComponent) => ReactNode;
  className?: string;
  style?: CSSProperties;
}

export function LayoutPlayer(props: LayoutPlayerProps) {
  const { doc, materials, scale, locale, weather, shares, onPageChange, onOpenUrl, playing = true } = props;
  const count = doc.pages.length;
  // `round` changes on every page change, so a page shown again (one-page layouts, jumps to the
  // current page) restarts its timing.
  const [state, setState] = useState({ index: Math.min(props.startPage ?? 0, Math.max(0, count - 1)), round: 0 });
  const index = count ? state.index % count : 0;
  const page = doc.pages[index];

  const go = useCallback((next: number) => setState((s) => ({ index: next, round: s.round + 1 })), []);

  useEffect(() => {
    onPageChange?.(index);
  }, [index, onPageChange]);

  useEffect(() => {
    if (!playing || !page || count <= 1) return;
    const timer = setTimeout(() => go((index + 1) % count), page.duration * 1000);
    return () => clearTimeout(timer);
  }, [playing, page, index, count, go]);

  const onAction = useCallback(
    (action: ButtonAction, _c: LayoutComponent) => {
      if (action.kind === 'jumpPage') {
        const target = doc.pages.findIndex((p) => p.id === action.pageId);
        if (target >= 0) go(target);
      } else if (action.kind === 'openUrl') {
        if (onOpenUrl) onOpenUrl(action.url);
        else if (typeof window !== 'undefined') window.open(action.url, '_blank', 'noopener,noreferrer');
      }
    },
    [doc.pages, go, onOpenUrl],
  );

  if (!page) return null;
  return (
    <LayoutPage
      key={`${page.id}:${state.round}`}
      doc={doc}
      page={index}
      materials={materials}
      scale={scale}
      locale={locale}
      weather={weather}
      shares={shares}
      playing={playing}
      onAction={onAction}
      renderOverlay={props.renderOverlay}
      className={props.className}
      style={props.style}
    />
  );
}
