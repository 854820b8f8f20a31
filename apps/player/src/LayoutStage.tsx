import {
  fitScale,
  type LayoutDocument,
  LayoutPlayer,
  parseLayoutDocument,
  type RenderMaterial,
  type SharesLookup,
  type WeatherLookup,
} from '@marquee/layout';
import { type DeviceManifest, type ManifestItem, rtbRegionsOf } from '@marquee/protocol';
import { type ReactNode, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { locale } from './i18n';
import { quotesAt, SHARES_REFRESH_MS, shareSymbols } from './logic/shares';
import { WEATHER_REFRESH_MS, weatherCities } from './logic/weather';
import { RtbRegionBox } from './RtbRegion';
import { player } from './runtime';

/** The layout document of an item, or null when it has none or it is not a valid one. */
const parsedDocs = new WeakMap<object, LayoutDocument | null>();
export function layoutOf(item: ManifestItem): LayoutDocument | null {
  if (!item.document || typeof item.document !== 'object') return null;
  const known = parsedDocs.get(item.document);
  if (known !== undefined) return known;
  const parsed = parseLayoutDocument(item.document);
  const doc = parsed.success ? parsed.data : null;
  parsedDocs.set(item.document, doc);
  return doc;
}

/** The manifest's cached files as the layout renderer takes them (null while they are looked up). */
export function useRenderMaterials(manifest: DeviceManifest): Record<string, RenderMaterial> | null {
  const [materials, setMaterials] = useState<Record<string, RenderMaterial> | null>(null);
  useEffect(() => {
    let live = true;
    void (async () => {
      const out: Record<string, RenderMaterial> = {};
      for (const file of manifest.files) {
        const url = await player.content.urlOf(file.sha256);
        if (url)
          out[file.materialId] = {
            url,
            type: file.type,
            width: file.width,
            height: file.height,
            duration: file.duration,
          };
      }
      if (live) setMaterials(out);
    })();
    return () => {
      live = false;
    };
  }, [manifest]);
  return materials;
}

/**
 * The readings of a layout's weather components (docs/device-protocol.md 2.7.6): asked when the
 * layout starts and every WEATHER_REFRESH_MS while it plays; the last ones stay when the server
 * cannot be reached (none yet: the components say the data is unavailable).
 */
export function useWeather(doc: LayoutDocument): WeatherLookup | undefined {
  const key = weatherCities(doc).join('\n');
  const [readings, setReadings] = useState<WeatherLookup | undefined>(undefined);
  useEffect(() => {
    const cities = key ? key.split('\n') : [];
    if (cities.length === 0) return;
    let live = true;
    const ask = () =>
      void player.weather(cities).then((got) => {
        if (live && got) setReadings(got);
      });
    ask();
    const timer = setInterval(ask, WEATHER_REFRESH_MS);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, [key]);
  return readings;
}

/**
 * The quotes of a layout's share-price components (docs/device-protocol.md 2.7.7): asked when
 * the layout starts and every SHARES_REFRESH_MS while it plays; the last ones stay when the
 * server cannot be reached, each dropped once its price is older than 15 minutes (quotesAt).
 */
export function useShares(doc: LayoutDocument): SharesLookup | undefined {
  const key = shareSymbols(doc).join('\n');
  const [state, setState] = useState<{ last: SharesLookup | undefined; now: number }>({
    last: undefined,
    now: Date.now(),
  });
  useEffect(() => {
    const symbols = key ? key.split('\n') : [];
    if (symbols.length === 0) return;
    let live = true;
    const ask = () =>
      void player.shares(symbols).then((got) => {
        if (live) setState((s) => ({ last: got ?? s.last, now: Date.now() }));
      });
    ask();
    const timer = setInterval(ask, SHARES_REFRESH_MS);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, [key]);
  return useMemo(() => quotesAt(state.last, state.now), [state]);
}

export function useViewport() {
  const [size, setSize] = useState({ width: window.innerWidth, height: window.innerHeight });
  useEffect(() => {
    const onResize = () => setSize({ width: window.innerWidth, height: window.innerHeight });
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);
  return size;
}

/**
 * The material ids each component of a page plays (pictures, videos, music, the background);
 * not those of `skip` (a component sold as an RTB region: its own content is what shows between
 * the slot's turns, under the region's box, and claims no plays).
 */
export function pageMaterials(
  doc: LayoutDocument,
  index: number,
  skip?: ReadonlySet<string>,
): { componentId: string | null; materialId: string }[] {
  const page = doc.pages[index];
  if (!page) return [];
  const out: { componentId: string | null; materialId: string }[] = [];
  if (page.background.materialId) out.push({ componentId: null, materialId: page.background.materialId });
  for (const c of page.components) {
    if (skip?.has(c.id)) continue;
    if (c.type === 'picture' || c.type === 'video' || c.type === 'music') {
      for (const m of c.props.materials) out.push({ componentId: c.id, materialId: m.materialId });
    }
  }
  return out;
}

/**
 * Plays one layout item full screen with the shared renderer (scaled to the display,
 * letterboxed), its materials drawn from the cache. Proof of play: each page shown writes one
 * event per material on it (completed when the page ran its time, interrupted when cut off).
 * Its components sold as RTB regions on this device (the manifest's `rtb.region` items) show
 * the region's turns over them (RtbRegionBox).
 */
export function LayoutStage({
  manifest,
  item,
  doc,
  endsAt,
}: {
  manifest: DeviceManifest;
  item: ManifestItem;
  doc: LayoutDocument;
  /**
   * An RTB turn's end (local ms; docs/device-protocol.md 2.7.2): the page on screen then counts
   * as completed (the turn ran its course) and no new page play starts after it.
   */
  endsAt?: number;
}) {
  const viewport = useViewport();
  const materials = useRenderMaterials(manifest);
  const weather = useWeather(doc);
  const shares = useShares(doc);
  const shown = useRef<{ index: number; at: number } | null>(null);
  const over = useRef(false);
  // The RTB regions (by their ids, so an equal manifest fetched again changes nothing here).
  const regionKey = rtbRegionsOf(manifest.items, item.layoutId)
    .map((r) => r.componentId)
    .join('|');
  const regionIds = useMemo(() => new Set(regionKey ? regionKey.split('|') : []), [regionKey]);
  const latestManifest = useRef(manifest);
  latestManifest.current = manifest;
  const renderOverlay = useCallback(
    (c: { id: string }): ReactNode =>
      regionIds.has(c.id) && item.layoutId ? (
        <RtbRegionBox manifest={latestManifest.current} region={{ layoutId: item.layoutId, componentId: c.id }} />
      ) : null,
    [regionIds, item.layoutId],
  );

  const record = useCallback(
    (outcome: 'completed' | 'interrupted', turnEnded = false) => {
      const last = shown.current;
      if (!last) return;
      shown.current = null;
      const durationMs = Date.now() - last.at;
      const expected = turnEnded ? 0 : (doc.pages[last.index]?.duration ?? 0) * 1000;
      for (const m of pageMaterials(doc, last.index, regionIds)) {
        void player.recordPlay({
          id: crypto.randomUUID(),
          materialId: m.materialId,
          layoutId: item.layoutId,
          componentId: m.componentId,
          adId: item.adId,
          start: last.at,
          durationMs,
          outcome: outcome === 'completed' && durationMs + 500 >= expected ? 'completed' : 'interrupted',
        });
      }
    },
    [doc, item, regionIds],
  );

  // A page that stays (a one-page layout) counts one play per duration it stays on screen.
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const onPageChange = useCallback(
    (index: number) => {
      record('completed');
      if (timer.current) clearTimeout(timer.current);
      if (over.current) return;
      const start = () => {
        shown.current = { index, at: Date.now() };
        timer.current = setTimeout(
          () => {
            record('completed');
            start();
          },
          Math.max(1, doc.pages[index]?.duration ?? 10) * 1000 + 50,
        );
      };
      start();
    },
    [record, doc],
  );

  // An RTB turn's end: the page on screen is a completed play, and nothing follows it.
  useEffect(() => {
    if (endsAt === undefined) return;
    const cut = setTimeout(
      () => {
        over.current = true;
        if (timer.current) clearTimeout(timer.current);
        record('completed', true);
      },
      Math.max(0, endsAt - Date.now()),
    );
    return () => clearTimeout(cut);
  }, [endsAt, record]);

  useEffect(() => {
    const onHide = () => record('interrupted');
    window.addEventListener('pagehide', onHide);
    return () => {
      window.removeEventListener('pagehide', onHide);
      if (timer.current) clearTimeout(timer.current);
      record('interrupted');
    };
  }, [record]);

  if (!materials) return <div id="stage" className="stage" />;
  const scale = fitScale(doc, viewport.width, viewport.height);
  return (
    <div id="stage" className="stage layout-stage" data-testid="stage" data-layout={item.layoutId ?? ''}>
      <div
        style={{
          position: 'absolute',
          left: (viewport.width - doc.width * scale) / 2,
          top: (viewport.height - doc.height * scale) / 2,
        }}
      >
        <LayoutPlayer
          doc={doc}
          materials={materials}
          scale={scale}
          locale={locale}
          weather={weather}
          shares={shares}
          onPageChange={onPageChange}
          renderOverlay={regionIds.size > 0 ? renderOverlay : undefined}
        />
      </div>
    </div>
  );
}
