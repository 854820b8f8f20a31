import {
  type DeviceManifest,
  type ManifestItem,
  pickRtbRegionItem,
  type RtbRegion,
  type RtbTurn,
  rtbTurnOf,
} from '@marquee/protocol';
import { useEffect, useState } from 'react';
import { scheduleAllows } from './logic/schedule';
import { Playlist } from './Playlist';
import { player } from './runtime';

/** Stays on the last material until the turn's end. */
const hold = () => {};

/**
 * A layout's component sold as an RTB slot (docs/device-protocol.md 2.7.2), drawn over that
 * component while its layout is on screen: in each of the slot's turns the decided winner, else
 * the slot's fallback (pickRtbRegionItem, on the server's clock, re-read every second); between
 * turns nothing, so the component's own content shows. Each material shown writes a play with
 * the host layout and the component (the server proves the region's turn with it); the layout
 * leaving the screen mid-turn cuts it (interrupted).
 */
export function RtbRegionBox({ manifest, region }: { manifest: DeviceManifest; region: RtbRegion }) {
  const [, tick] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => tick((n) => n + 1), 1000);
    return () => clearInterval(timer);
  }, []);
  const serverNow = player.clock.now();
  const local = new Date();
  // Days and hours of an ad are the device zone's wall clock; the turn's window is on the server's clock.
  const items = manifest.items.filter(
    (i) => i.role === 'rtb' && scheduleAllows({ ...i.schedule, from: null, until: null }, local, manifest.timeZone),
  );
  const item = pickRtbRegionItem(items, region, serverNow);
  const turn = item ? rtbTurnOf(item, serverNow) : null;
  if (!item || !turn) return null;
  return (
    <div
      className="rtb-region"
      data-testid="rtb-region"
      data-component-id={region.componentId}
      data-ad={item.adId ?? ''}
    >
      <RegionTurn key={turn.key} manifest={manifest} item={item} turn={turn} region={region} />
    </div>
  );
}

function RegionTurn({
  manifest,
  item,
  turn,
  region,
}: {
  manifest: DeviceManifest;
  item: ManifestItem;
  turn: RtbTurn;
  region: RtbRegion;
}) {
  // The turn's end on the local clock, and what it started with: a new manifest mid-turn does not restart it.
  const [shown] = useState(() => ({
    manifest,
    item,
    endsAt: turn.end - player.clock.offset,
    place: { layoutId: region.layoutId, componentId: region.componentId },
  }));
  useEffect(() => {
    if (shown.item.adId) player.adPlays.add(shown.item.adId, new Date());
  }, [shown]);
  return (
    <Playlist manifest={shown.manifest} items={[shown.item]} onDone={hold} endsAt={shown.endsAt} place={shown.place} />
  );
}
