import { watermarkPlacement } from '@marquee/layout';
import type { DeviceManifest } from '@marquee/protocol';
import { type CSSProperties, useEffect, useState } from 'react';
import { player } from './runtime';

/**
 * The manifest's watermark (docs/device-protocol.md 2.7.5), over everything the screen plays:
 * a text, or a picture from the cache (verified like every file), `sizePct` of the screen's
 * height tall, at its place, with its opacity. None in the manifest: nothing.
 */
export function Watermark({ manifest }: { manifest: DeviceManifest | null }) {
  const mark = manifest?.watermark;
  const file =
    mark?.kind === 'image' && mark.materialId
      ? manifest?.files.find((f) => f.materialId === mark.materialId)
      : undefined;
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    setUrl(null);
    if (file) void player.content.urlOf(file.sha256).then((u) => live && setUrl(u ?? null));
    return () => {
      live = false;
    };
  }, [file]);
  if (!mark) return null;
  const style: CSSProperties = { ...watermarkPlacement(mark.position, '2vh'), opacity: mark.opacity / 100 };
  if (mark.kind === 'text') {
    return (
      <div className="watermark" data-testid="watermark" style={{ ...style, fontSize: `${mark.sizePct}vh` }}>
        {mark.text}
      </div>
    );
  }
  if (!url) return null;
  return (
    <img
      className="watermark watermark-image"
      data-testid="watermark"
      src={url}
      alt=""
      style={{ ...style, height: `${mark.sizePct}vh` }}
    />
  );
}
