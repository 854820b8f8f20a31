/**
 * Snapping of a dragged box to the poster and to the other nodes: its left, centre and right
 * edges to theirs (and top, middle, bottom), whichever is nearest within `threshold` poster
 * pixels per axis. Returns the snapped position and the guide lines to draw.
 */
export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface Guide {
  /** 'v': a vertical line at x = `at`; 'h': a horizontal line at y = `at`. */
  axis: 'v' | 'h';
  at: number;
}

const stops = (start: number, size: number) => [start, start + size / 2, start + size];

function nearest(moving: number[], targets: number[], threshold: number): { delta: number; at: number } | null {
  let best: { delta: number; at: number } | null = null;
  for (const m of moving) {
    for (const t of targets) {
      const delta = t - m;
      if (Math.abs(delta) <= threshold && (!best || Math.abs(delta) < Math.abs(best.delta))) best = { delta, at: t };
    }
  }
  return best;
}

export function snapBox(
  box: Box,
  others: readonly Box[],
  poster: { width: number; height: number },
  threshold: number,
): { x: number; y: number; guides: Guide[] } {
  const xs = [...stops(0, poster.width), ...others.flatMap((o) => stops(o.x, o.w))];
  const ys = [...stops(0, poster.height), ...others.flatMap((o) => stops(o.y, o.h))];
  const sx = nearest(stops(box.x, box.w), xs, threshold);
  const sy = nearest(stops(box.y, box.h), ys, threshold);
  const guides: Guide[] = [];
  if (sx) guides.push({ axis: 'v', at: sx.at });
  if (sy) guides.push({ axis: 'h', at: sy.at });
  return { x: box.x + (sx?.delta ?? 0), y: box.y + (sy?.delta ?? 0), guides };
}
