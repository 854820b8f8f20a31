import type { DeviceManifest, ManifestFile, ManifestItem } from '@marquee/protocol';
import { useCallback, useEffect, useRef, useState } from 'react';
import { t } from './i18n';
import { LayoutStage, layoutOf } from './LayoutStage';
import { itemMs, type RtbTurn, rtbTurnOf } from './logic/ads';
import { player } from './runtime';

interface Slot {
  item: ManifestItem;
  file: ManifestFile;
  url: string;
}

/** Every (item, material) in playing order, with the cached file's object URL. */
async function resolveSlots(manifest: DeviceManifest, items: ManifestItem[]): Promise<Slot[]> {
  const files = new Map(manifest.files.map((f) => [f.materialId, f]));
  const slots: Slot[] = [];
  for (const item of items) {
    for (const materialId of item.materialIds) {
      const file = files.get(materialId);
      if (!file) continue;
      const url = await player.content.urlOf(file.sha256);
      if (url) slots.push({ item, file, url });
    }
  }
  return slots;
}

/**
 * Plays the items: each material full screen in turn (an image for the item's duration, a
 * video or audio to its end), writing a proof-of-play event when each one ends (completed) or
 * is cut off (interrupted: a new manifest, a schedule change, the page closing).
 */
export function Stage({
  manifest,
  items,
  serverNow = player.clock.now(),
}: {
  manifest: DeviceManifest;
  items: ManifestItem[];
  /** The server's clock when the items were chosen (an RTB turn's instants are on it). */
  serverNow?: number;
}) {
  // An RTB slot's turn (logic/ads.ts chose it): keyed by the turn, not the manifest, so a new
  // manifest arriving mid-turn (a new decision) does not restart it.
  const turn = items.length === 1 ? rtbTurnOf(items[0], serverNow) : null;
  if (turn) return <RtbStage key={turn.key} manifest={manifest} item={items[0]} turn={turn} />;
  // Ads (items with a role) play in turn, each once through (logic/ads.ts chose them).
  if (items.some((item) => item.role)) {
    return (
      <AdSequence key={`${manifest.version}|${items.map((i) => i.id).join(',')}`} manifest={manifest} items={items} />
    );
  }
  // A layout item plays with the shared renderer; items without a document play as a playlist.
  const layoutItem = items.find((item) => layoutOf(item));
  const doc = layoutItem ? layoutOf(layoutItem) : null;
  if (layoutItem && doc) {
    return <LayoutStage key={`${manifest.version}:${layoutItem.id}`} manifest={manifest} item={layoutItem} doc={doc} />;
  }
  return <Playlist manifest={manifest} items={items} />;
}

/**
 * The ads in turn: a layout ad with the layout renderer for its pages' time, a material ad as a
 * full-screen sequence of its materials; each start counts for the ad's plays of the day.
 */
function AdSequence({ manifest, items }: { manifest: DeviceManifest; items: ManifestItem[] }) {
  const [turn, setTurn] = useState(0);
  const item = items[turn % items.length];
  const doc = layoutOf(item);
  const next = useCallback(() => setTurn((n) => n + 1), []);
  const latest = useRef({ manifest, item });
  latest.current = { manifest, item };
  useEffect(() => {
    // Each turn (even the same ad again) is a new play.
    if (turn < 0) return;
    const { manifest: m, item: current } = latest.current;
    if (current.adId) player.adPlays.add(current.adId, new Date());
    if (!layoutOf(current)) return;
    const timer = setTimeout(next, itemMs(current, new Map(m.files.map((f) => [f.materialId, f]))));
    return () => clearTimeout(timer);
  }, [turn, next]);
  if (doc) return <LayoutStage key={`${turn}:${item.id}`} manifest={manifest} item={item} doc={doc} />;
  return <Playlist key={`${turn}:${item.id}`} manifest={manifest} items={[item]} onDone={next} />;
}

/** Stays on the last material (an RTB turn's content that ended before the turn did). */
const hold = () => {};

/**
 * An RTB slot's turn (docs/device-protocol.md 2.7.2): the item's content from the turn's start
 * (or from now, joining late) to the turn's end, once through: an image stays until the end, a
 * video plays from its start and is cut at the end if longer (the last material stays on screen
 * if the content is shorter). What is on screen at the turn's end counts as completed: the
 * server bills a decided turn on a completed play of its ad that started inside it. The App
 * switches back to the loop at its next second.
 */
function RtbStage({ manifest, item, turn }: { manifest: DeviceManifest; item: ManifestItem; turn: RtbTurn }) {
  // The turn's end on the local clock (the timers'), and the manifest and item it started with.
  const [shown] = useState(() => ({ manifest, item, endsAt: turn.end - player.clock.offset }));
  useEffect(() => {
    if (shown.item.adId) player.adPlays.add(shown.item.adId, new Date());
  }, [shown]);
  const doc = layoutOf(shown.item);
  if (doc) return <LayoutStage manifest={shown.manifest} item={shown.item} doc={doc} endsAt={shown.endsAt} />;
  return <Playlist manifest={shown.manifest} items={[shown.item]} onDone={hold} endsAt={shown.endsAt} />;
}

function Playlist({
  manifest,
  items,
  onDone,
  endsAt,
}: {
  manifest: DeviceManifest;
  items: ManifestItem[];
  /** Called when the last material ended (instead of starting over). */
  onDone?: () => void;
  /** An RTB turn's end (local ms): the material on screen then is cut there, completed, and nothing follows. */
  endsAt?: number;
}) {
  const [slots, setSlots] = useState<Slot[] | null>(null);
  const [index, setIndex] = useState(0);
  const key = `${manifest.version}|${items.map((i) => i.id).join(',')}`;

  // The newest manifest and items; the effect runs when `key` (their identity) changes.
  const latest = useRef({ manifest, items });
  latest.current = { manifest, items };
  useEffect(() => {
    let live = true;
    if (!key) return;
    void resolveSlots(latest.current.manifest, latest.current.items).then((resolved) => {
      if (!live) return;
      setSlots(resolved);
      setIndex(0);
    });
    return () => {
      live = false;
    };
  }, [key]);

  // One callback for the whole playlist: the App re-renders every second, and a new callback
  // would restart (and cut off) the material on screen.
  const advance = useRef<() => void>(() => {});
  advance.current = () => {
    const count = Math.max(1, slots?.length ?? 1);
    if (onDone && index + 1 >= count) onDone();
    else setIndex((i) => (i + 1) % count);
  };
  const onEnd = useCallback(() => advance.current(), []);

  if (!slots) return <div id="stage" className="stage" />;
  if (slots.length === 0) {
    return (
      <div id="stage" className="screen light" data-testid="error">
        <div className="card">
          <h1>{t('contentError')}</h1>
          <p>{t('contentErrorHint', { reason: 'no playable material' })}</p>
        </div>
      </div>
    );
  }
  const slot = slots[index % slots.length];
  return (
    <div id="stage" className="stage" data-testid="stage">
      <Media
        key={`${index}:${slot.file.materialId}`}
        slot={slot}
        onEnd={onEnd}
        endsAt={endsAt}
        last={index % slots.length === slots.length - 1}
      />
    </div>
  );
}

function Media({
  slot,
  onEnd,
  endsAt,
  last,
}: {
  slot: Slot;
  onEnd: () => void;
  /** An RTB turn's end (local ms): cut there (completed: the turn ran its course), not followed by anything. */
  endsAt?: number;
  /** The playlist's last material: in an RTB turn an image stays until the turn's end. */
  last: boolean;
}) {
  const started = useRef(Date.now());
  const finished = useRef(false);
  const videoRef = useRef<HTMLVideoElement>(null);

  useEffect(() => {
    started.current = Date.now();
    finished.current = false;
    const record = (outcome: 'completed' | 'interrupted') => {
      if (finished.current) return;
      finished.current = true;
      void player.recordPlay({
        id: crypto.randomUUID(),
        materialId: slot.file.materialId,
        layoutId: slot.item.layoutId,
        componentId: null,
        adId: slot.item.adId,
        start: started.current,
        durationMs: Date.now() - started.current,
        outcome,
      });
    };
    let timer: ReturnType<typeof setTimeout> | null = null;
    let cut: ReturnType<typeof setTimeout> | null = null;
    const isTimed = slot.file.type !== 'video' && slot.file.type !== 'audio';
    const cutMs = endsAt === undefined ? Number.POSITIVE_INFINITY : Math.max(0, endsAt - Date.now());
    const ownMs = isTimed && !(endsAt !== undefined && last) ? slot.item.durationSec * 1000 : Number.POSITIVE_INFINITY;
    if (ownMs < cutMs) {
      timer = setTimeout(() => {
        record('completed');
        onEnd();
      }, ownMs);
    } else if (cutMs < Number.POSITIVE_INFINITY) {
      cut = setTimeout(() => {
        videoRef.current?.pause();
        record('completed');
      }, cutMs);
    }
    const video = videoRef.current;
    const onEnded = () => {
      record('completed');
      onEnd();
    };
    const onError = () => {
      record('interrupted');
      timer = setTimeout(onEnd, 1000);
    };
    video?.addEventListener('ended', onEnded);
    video?.addEventListener('error', onError);
    const onHide = () => record('interrupted');
    window.addEventListener('pagehide', onHide);
    return () => {
      if (timer) clearTimeout(timer);
      if (cut) clearTimeout(cut);
      video?.removeEventListener('ended', onEnded);
      video?.removeEventListener('error', onError);
      window.removeEventListener('pagehide', onHide);
      record('interrupted');
    };
  }, [slot, onEnd, endsAt, last]);

  useEffect(() => {
    const video = videoRef.current;
    if (!video) return;
    video.volume = player.view.volume / 100;
    void video.play().catch(() => {
      // Autoplay with sound refused: play muted.
      video.muted = true;
      void video.play().catch(() => {});
    });
  }, []);

  if (slot.file.type === 'video' || slot.file.type === 'audio') {
    return <video ref={videoRef} className="media" src={slot.url} playsInline data-material={slot.file.materialId} />;
  }
  return <img className="media" src={slot.url} alt="" data-material={slot.file.materialId} />;
}
