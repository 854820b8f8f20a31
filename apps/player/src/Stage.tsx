import type { DeviceManifest, ManifestItem } from '@marquee/protocol';
import { useCallback, useEffect, useRef, useState } from 'react';
import { LayoutStage, layoutOf } from './LayoutStage';
import { itemMs, type RtbTurn, rtbTurnOf } from './logic/ads';
import { Playlist } from './Playlist';
import { player } from './runtime';

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
