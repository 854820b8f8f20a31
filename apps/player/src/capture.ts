import { MAX_SCREENSHOT_BYTES } from '@marquee/protocol';

/**
 * Captures what `root` shows into a PNG (or JPEG when the PNG is over the upload limit): the
 * page is painted onto a canvas element by element — backgrounds, images, video frames,
 * canvases and text — at their on-screen boxes. Media come from same-origin object URLs, so
 * the canvas stays readable.
 */
export async function captureScreen(root: HTMLElement, maxWidth = 1920): Promise<Blob> {
  const box = root.getBoundingClientRect();
  const scale = Math.min(1, maxWidth / Math.max(1, box.width));
  const canvas = document.createElement('canvas');
  canvas.width = Math.max(1, Math.round(box.width * scale));
  canvas.height = Math.max(1, Math.round(box.height * scale));
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('no 2d context');
  ctx.scale(scale, scale);
  ctx.fillStyle = '#000';
  ctx.fillRect(0, 0, box.width, box.height);

  const paint = (element: Element) => {
    const style = getComputedStyle(element);
    if (style.display === 'none' || style.visibility === 'hidden' || Number(style.opacity) === 0) return;
    const r = element.getBoundingClientRect();
    const x = r.left - box.left;
    const y = r.top - box.top;
    ctx.save();
    ctx.globalAlpha = Number(style.opacity);
    const bg = style.backgroundColor;
    if (bg && bg !== 'rgba(0, 0, 0, 0)' && bg !== 'transparent') {
      ctx.fillStyle = bg;
      ctx.fillRect(x, y, r.width, r.height);
    }
    try {
      if (element instanceof HTMLImageElement && element.complete && element.naturalWidth > 0) {
        ctx.drawImage(element, x, y, r.width, r.height);
      } else if (element instanceof HTMLVideoElement && element.readyState >= 2) {
        ctx.drawImage(element, x, y, r.width, r.height);
      } else if (element instanceof HTMLCanvasElement) {
        ctx.drawImage(element, x, y, r.width, r.height);
      }
    } catch {
      // A cross-origin or broken medium: its box stays as painted.
    }
    for (const child of element.childNodes) {
      if (child.nodeType === Node.TEXT_NODE && child.textContent?.trim()) {
        const range = document.createRange();
        range.selectNodeContents(child);
        const tr = range.getBoundingClientRect();
        ctx.fillStyle = style.color;
        ctx.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
        ctx.textBaseline = 'top';
        ctx.fillText(child.textContent.trim(), tr.left - box.left, tr.top - box.top, tr.width + 1);
      } else if (child instanceof Element) {
        paint(child);
      }
    }
    ctx.restore();
  };
  for (const child of root.children) paint(child);

  const encode = (type: string, quality?: number) =>
    new Promise<Blob>((resolve, reject) =>
      canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('encode failed'))), type, quality),
    );
  const png = await encode('image/png');
  if (png.size <= MAX_SCREENSHOT_BYTES) return png;
  return encode('image/jpeg', 0.8);
}
