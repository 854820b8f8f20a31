import { type LayoutDocument, LayoutPage, type RenderMaterial } from '@marquee/layout';
import type { DeviceManifest, ManifestItem, ManifestWall } from '@marquee/protocol';
import { type ReactNode, useEffect, useMemo, useRef, useState } from 'react';
import { locale } from './i18n';
import { layoutOf, pageMaterials, useRenderMaterials, useShares, useViewport, useWeather } from './LayoutStage';
import { type WallEntry, wallEntries, wallGeometry, wallSlotAt } from './logic/wall';
import { player } from './runtime';

/**
 * A tile of a video wall (docs/device-protocol.md 2.7.3): the items play on the wall's
 * timeline from the shared clock (logic/wall.ts), each entry drawn at the wall's size and cut
 * to this tile's part. The switch to the next entry is a timeout to its end on the shared
 * clock, computed again at every switch (so a corrected clock or a late timer does not add up).
 * `data-wall-slot` on the stage names the step shown (`loop:index`, the same on every tile),
 * `data-wall-start` its start on the shared clock.
 */
export function WallStage({
  manifest,
  items,
  wall,
}: {
  manifest: DeviceManifest;
  items: ManifestItem[];
  wall: ManifestWall;
}) {
  const viewport = useViewport();
  const materials = useRenderMaterials(manifest);
  // The App renders every second with a new items array: the timeline changes only with them.
  const itemsKey = items.map((i) => i.id).join(',');
  const latest = useRef(items);
  latest.current = items;
  // biome-ignore lint/correctness/useExhaustiveDependencies: itemsKey stands for the items
  const entries = useMemo(
    () => wallEntries(latest.current, new Map(manifest.files.map((f) => [f.materialId, f]))),
    [manifest, itemsKey],
  );
  const [slot, setSlot] = useState(() => wallSlotAt(entries, player.clock.now(), wall.anchor));

  // A new clock estimate: read the slot again (a tile that started on its own clock jumps into line).
  useEffect(
    () => player.clock.subscribe(() => setSlot(wallSlotAt(entries, player.clock.now(), wall.anchor))),
    [entries, wall.anchor],
  );

  useEffect(() => {
    const now = player.clock.now();
    const current = wallSlotAt(entries, now, wall.anchor);
    if (!current) return;
    if (!slot || current.loop !== slot.loop || current.index !== slot.index) {
      setSlot(current);
      return;
    }
    // 1 ms past the boundary, so the new slot is read on the far side of it.
    const timer = setTimeout(
      () => setSlot(wallSlotAt(entries, player.clock.now(), wall.anchor)),
      Math.max(0, current.endsAt - now + 1),
    );
    return () => clearTimeout(timer);
  }, [slot, entries, wall.anchor]);

  const entry = slot ? entries[slot.index] : undefined;
  const stepKey = slot ? `${slot.loop}:${slot.index}` : '';
  if (!materials || !entry || !slot) return <div id="stage" className="stage" data-testid="stage" />;
  return (
    <div
      id="stage"
      className="stage wall-stage"
      data-testid="stage"
      data-wall-slot={stepKey}
      // For measuring (bench/wall-sync.ts): the step's start on the shared clock and the clock's estimate.
      data-wall-start={slot.startsAt}
      data-clock-offset={Math.round(player.clock.offset)}
      data-clock-rtt={player.clock.rtt ?? ''}
    >
      <WallEntryView
        key={stepKey}
        entry={entry}
        materials={materials}
        wall={wall}
        tile={viewport}
        offsetMs={Math.max(0, player.clock.now() - slot.startsAt)}
      />
    </div>
  );
}

/** One entry drawn over the wall, seen through this tile; its proof of play when it goes. */
function WallEntryView({
  entry,
  materials,
  wall,
  tile,
  offsetMs,
}: {
  entry: WallEntry;
  materials: Record<string, RenderMaterial>;
  wall: ManifestWall;
  tile: { width: number; height: number };
  /** How far into the entry the wall already is (a tile that joins late seeks its video). */
  offsetMs: number;
}) {
  const doc = entry.page !== null ? layoutOf(entry.item) : null;
  const g = wallGeometry(wall, tile.width, tile.height, doc?.width, doc?.height);
  const videoRef = useRef<HTMLVideoElement>(null);
  const joinedAt = useRef(offsetMs);

  useEffect(() => {
    const started = Date.now();
    const shown =
      entry.page !== null && doc
        ? pageMaterials(doc, entry.page)
        : entry.materialId
          ? [{ componentId: null, materialId: entry.materialId }]
          : [];
    const onHide = () => record('interrupted');
    let done = false;
    function record(outcome: 'completed' | 'interrupted') {
      if (done) return;
      done = true;
      const durationMs = Date.now() - started;
      for (const m of shown) {
        void player.recordPlay({
          id: crypto.randomUUID(),
          materialId: m.materialId,
          layoutId: entry.item.layoutId,
          componentId: m.componentId,
          adId: entry.item.adId,
          start: started,
          durationMs,
          // Completed: it stayed to its end (a tile that joined late shows the rest only).
          outcome: outcome === 'completed' && durationMs + 500 >= entry.ms ? 'completed' : 'interrupted',
        });
      }
    }
    window.addEventListener('pagehide', onHide);
    return () => {
      window.removeEventListener('pagehide', onHide);
      // Unmounted at the switch (the wall moved on) or cut off (a new manifest, the page closing).
      record(Date.now() - started + 500 >= entry.ms ? 'completed' : 'interrupted');
    };
  }, [entry, doc]);

  useEffect(() => {
    const video = videoRef.current;
    if (!video) return;
    video.volume = player.view.volume / 100;
    if (joinedAt.current > 500) video.currentTime = joinedAt.current / 1000;
    void video.play().catch(() => {
      video.muted = true;
      void video.play().catch(() => {});
    });
  }, []);

  let content: ReactNode = null;
  if (doc && entry.page !== null) {
    content = (
      <div
        style={{
          position: 'absolute',
          left: g.content.left,
          top: g.content.top,
          width: doc.width,
          height: doc.height,
          transform: `scale(${g.content.scaleX}, ${g.content.scaleY})`,
          transformOrigin: '0 0',
        }}
      >
        <WallLayoutPage doc={doc} page={entry.page} materials={materials} />
      </div>
    );
  } else if (entry.materialId) {
    const material = materials[entry.materialId];
    const fit = wall.scaling ? 'fill' : 'contain';
    if (material && (material.type === 'video' || material.type === 'audio')) {
      content = (
        <video
          ref={videoRef}
          className="media"
          style={{ objectFit: fit }}
          src={material.url}
          playsInline
          data-material={entry.materialId}
        />
      );
    } else if (material) {
      content = (
        <img className="media" style={{ objectFit: fit }} src={material.url} alt="" data-material={entry.materialId} />
      );
    }
  }
  return (
    <div
      className="wall"
      style={{
        position: 'absolute',
        left: g.offsetX,
        top: g.offsetY,
        width: g.wallWidth,
        height: g.wallHeight,
        overflow: 'hidden',
      }}
    >
      <div
        className="wall-frame"
        style={{
          position: 'absolute',
          left: g.frame.left,
          top: g.frame.top,
          width: g.frame.width,
          height: g.frame.height,
          overflow: 'hidden',
          transform: g.frame.rotation ? `rotate(${g.frame.rotation}deg)` : undefined,
        }}
      >
        {content}
      </div>
    </div>
  );
}

/** A wall's page with its weather readings and share quotes (docs/device-protocol.md 2.7.6, 2.7.7). */
function WallLayoutPage({
  doc,
  page,
  materials,
}: {
  doc: LayoutDocument;
  page: number;
  materials: Record<string, RenderMaterial>;
}) {
  const weather = useWeather(doc);
  const shares = useShares(doc);
  return (
    <LayoutPage
      doc={doc}
      page={page}
      materials={materials}
      scale={1}
      locale={locale}
      weather={weather}
      shares={shares}
      playing
    />
  );
}
