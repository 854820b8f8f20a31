import type { CSSProperties } from 'react';

export type WatermarkPlace = 'topLeft' | 'topRight' | 'bottomLeft' | 'bottomRight' | 'center';

/**
 * Where a screen's watermark stands (docs/device-protocol.md 2.7.5), as absolute or fixed
 * positioning: a corner, `inset` in from its two edges, or the centre. The player passes
 * `2vh`; the console's preview the same share of its preview's height.
 */
export function watermarkPlacement(position: WatermarkPlace, inset: string): CSSProperties {
  switch (position) {
    case 'topLeft':
      return { top: inset, left: inset };
    case 'topRight':
      return { top: inset, right: inset };
    case 'bottomLeft':
      return { bottom: inset, left: inset };
    case 'center':
      return { top: '50%', left: '50%', transform: 'translate(-50%, -50%)' };
    default:
      return { bottom: inset, right: inset };
  }
}
