import { POSTER_FORMAT_TYPES, type PosterFieldValues, type PosterFormat, type PosterMade } from '@marquee/protocol';
import type Konva from 'konva';
import { call } from '../../api/client';
import { uploadToLibrary } from '../materials/uploads';

/** JPEG quality of an exported poster. */
const JPEG_QUALITY = 0.92;

/** A failure of drawing or uploading the image (the page says 'image generation failed'). */
export class PosterImageError extends Error {}

/**
 * Draws the poster at full resolution: the stage is drawn at scale 1 and the poster's size with
 * a pixel ratio of 1 (whatever the zoom and the screen's density), so the image is exactly
 * width x height. Editing layers (guides, transformer) are left out.
 */
export async function renderPoster(
  stage: Konva.Stage,
  size: { width: number; height: number },
  format: PosterFormat,
): Promise<Blob> {
  const saved = { scale: stage.scale(), width: stage.width(), height: stage.height() };
  const ui = stage.find('.mq-ui');
  let canvas: HTMLCanvasElement;
  try {
    for (const layer of ui) layer.hide();
    stage.scale({ x: 1, y: 1 });
    stage.size(size);
    canvas = stage.toCanvas({ x: 0, y: 0, width: size.width, height: size.height, pixelRatio: 1 });
  } catch (error) {
    // A picture from a host that does not allow CORS taints the canvas (SecurityError).
    throw new PosterImageError(String(error));
  } finally {
    stage.scale(saved.scale);
    stage.size({ width: saved.width, height: saved.height });
    for (const layer of ui) layer.show();
    stage.batchDraw();
  }
  return new Promise<Blob>((resolve, reject) => {
    try {
      canvas.toBlob(
        (blob) => (blob ? resolve(blob) : reject(new PosterImageError('no image'))),
        POSTER_FORMAT_TYPES[format],
        JPEG_QUALITY,
      );
    } catch (error) {
      reject(new PosterImageError(String(error)));
    }
  });
}

/**
 * Makes a poster: draws it, optionally puts a copy into the material library (a picture in the
 * chosen folder, through the library's own upload), asks for a signed upload of exactly that
 * image, POSTs it to the storage (the signed fields, then the file), and records the poster
 * with its field values and its library copy.
 */
export async function makePosterImage(
  stage: Konva.Stage,
  input: {
    templateId: string;
    width: number;
    height: number;
    format: PosterFormat;
    fields: PosterFieldValues;
    /** Also into the material library: the folder, the material's name, the console's language. */
    library?: { folderId: string; name: string; language: string };
  },
): Promise<PosterMade> {
  const blob = await renderPoster(stage, { width: input.width, height: input.height }, input.format);
  let materialId: string | undefined;
  if (input.library) {
    const file = new File([blob], `${input.library.name}.${input.format === 'png' ? 'png' : 'jpg'}`, {
      type: POSTER_FORMAT_TYPES[input.format],
    });
    materialId = (await uploadToLibrary(file, input.library.folderId, input.library.language)).material.id;
  }
  const sig = await call('posterImageApply', { templateId: input.templateId, format: input.format, size: blob.size });
  const form = new FormData();
  for (const [name, value] of Object.entries(sig.fields)) form.append(name, value);
  if (!Object.keys(sig.fields).some((k) => k.toLowerCase() === 'content-type')) {
    form.append('Content-Type', POSTER_FORMAT_TYPES[input.format]);
  }
  form.append('file', blob, `poster.${input.format === 'png' ? 'png' : 'jpg'}`);
  let res: Response;
  try {
    res = await fetch(sig.url, { method: 'POST', body: form, credentials: 'same-origin' });
  } catch (error) {
    throw new PosterImageError(String(error));
  }
  if (!res.ok) throw new PosterImageError(`upload answered ${res.status}`);
  return call('posterMake', { uploadId: sig.uploadId, fields: input.fields, ...(materialId ? { materialId } : {}) });
}
