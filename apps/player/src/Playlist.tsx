import type { DeviceManifest, ManifestFile, ManifestItem } from '@marquee/protocol';
import { useCallback, useEffect, useRef, useState } from 'react';
import { t } from './i18n';
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

/** Where a playlist plays inside a layout: a component sold as an RTB slot (its plays carry both). */
export interface RegionPlace {
  layoutId: string;
  componentId: string;
}

export function Playlist({
  manifest,
  items,
  onDone,
  endsAt,
  place,
}: {
  manifest: DeviceManifest;
  items: ManifestItem[];
  /** Called when the last material ended (instead of starting over). */
  onDone?: () => void;
  /** An RTB turn's end (local ms): the material on screen then is cut there, completed, and nothing follows. */
  endsAt?: number;
  /** Played in a layout's RTB region rather than full screen. */
  place?: RegionPlace;
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

  if (!slots) return place ? null : <div id="stage" className="stage" />;
  if (slots.length === 0) {
    if (place) return null;
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
  const media = (
    <Media
      key={`${index}:${slot.file.materialId}`}
      slot={slot}
      onEnd={onEnd}
      endsAt={endsAt}
      last={index % slots.length === slots.length - 1}
      place={place}
    />
  );
  if (place) return media;
  return (
    <div id="stage" className="stage" data-testid="stage">
      {media}
    </div>
  );
}

function Media({
  slot,
  onEnd,
  endsAt,
  last,
  place,
}: {
  slot: Slot;
  onEnd: () => void;
  place?: RegionPlace;
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
        layoutId: place?.layoutId ?? slot.item.layoutId,
        componentId: place?.componentId ?? null,
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
  }, [slot, onEnd, endsAt, last, place]);

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
