import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { expect as baseExpect, openAs, test } from '../fixtures/session.js';

/** Uploads, probing and a loaded shared machine: every wait of this spec is longer than the default. */
const expect = baseExpect.configure({ timeout: 30_000 });

/** CRC-32 of PNG chunks. */
const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}
/**
 * An RGB PNG of noise (so it compresses badly: a few hundred KB, and the upload's progress
 * has time to show) whose content is new on every run (never a duplicate the first time).
 */
function noisePng(width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // RGB
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y++) rows.push(Buffer.concat([Buffer.from([0]), randomBytes(width * 3)]));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
/** A one-page PDF written by hand (objects, xref table with exact offsets, trailer). */
function minimalPdf(text: string): Buffer {
  const stream = `BT /F1 24 Tf 72 720 Td (${text}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) out += `${String(o).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

const VIDEO = readFileSync(join(import.meta.dirname, '../fixtures/media/clip.mp4'));

test('the material library: a folder, uploads with progress, thumbnails, duration, previews, duplicate and forged file', async ({
  page,
}) => {
  test.setTimeout(300_000); // uploads and server-side probing on a shared machine
  const suffix = randomUUID().slice(0, 6);
  const folder = `E2E 素材 ${suffix}`;
  const image = noisePng(400, 300);

  await openAs(page, 'entadmin', '/advert/material');
  await expect(page.getByTestId('material-page')).toBeVisible({ timeout: 30_000 });

  // A folder must be chosen before upload (spec section 5).
  await page.getByTestId('material-upload').click();
  await expect(page.getByText('请先选择文件夹再上传').first()).toBeVisible();

  // Create a folder and open it.
  await page.getByTestId('folder-add-root').click();
  await page.getByTestId('folder-dialog-name').fill(folder);
  await page.getByTestId('folder-dialog-submit').click();
  await expect(page.getByTestId(`folder-node-${folder}`)).toBeVisible();
  await page.getByTestId(`folder-node-${folder}`).click();
  // The page has drawn the folder (a navigation renders in a transition: the URL changes first).
  await expect(page).toHaveURL(/folderId=/);
  await expect(page.getByTestId('material-folder-title')).toHaveText(folder);
  await expect(page.getByTestId('material-empty')).toBeVisible();

  // Upload an image, a video and a PDF; the uploads go slowly enough to show their progress.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 20,
    downloadThroughput: -1,
    uploadThroughput: 256 * 1024,
  });
  await page.getByTestId('material-upload').click();
  const dialog = page.getByTestId('upload-dialog');
  await expect(dialog).toBeVisible();
  await dialog.getByTestId('upload-input').setInputFiles([
    { name: `photo-${suffix}.png`, mimeType: 'image/png', buffer: image },
    { name: `clip-${suffix}.mp4`, mimeType: 'video/mp4', buffer: VIDEO },
    { name: `report-${suffix}.pdf`, mimeType: 'application/pdf', buffer: minimalPdf(`Marquee ${suffix}`) },
  ]);
  await expect(dialog.getByTestId(`upload-picked-photo-${suffix}.png`)).toBeVisible();
  await page.getByTestId('upload-start').click();
  await expect(dialog.getByTestId(`upload-progress-photo-${suffix}.png`)).toBeVisible();
  await expect(dialog.getByTestId('upload-done')).toHaveCount(3, { timeout: 60_000 });
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: -1,
  });
  await page.getByTestId('upload-close').click();

  // The grid: the image's thumbnail, the video's poster frame and duration badge.
  await expect(page.getByTestId(`material-thumb-photo-${suffix}`)).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId(`material-thumb-clip-${suffix}`)).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId(`material-duration-clip-${suffix}`)).toHaveText('0:03');
  await expect(page.getByTestId(`material-card-report-${suffix}`)).toBeVisible();

  // Preview each.
  await page.getByTestId(`material-open-photo-${suffix}`).click();
  await expect(page.getByTestId('preview-image')).toBeVisible();
  await expect
    .poll(() => page.getByTestId('preview-image').evaluate((img: HTMLImageElement) => img.naturalWidth))
    .toBe(400);
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('preview-image')).toBeHidden();

  // Keyboard: Enter opens the preview.
  await page.getByTestId(`material-open-clip-${suffix}`).focus();
  await page.keyboard.press('Enter');
  const video = page.getByTestId('preview-video');
  await expect(video).toBeVisible();
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState)).toBeGreaterThan(0);
  await page.keyboard.press('Escape');

  await page.getByTestId(`material-open-report-${suffix}`).click();
  await expect(page.getByTestId('preview-pdf')).toBeVisible();
  await page.keyboard.press('Escape');

  // The same image again: uploaded, with the duplicate warning.
  await page.getByTestId('material-upload').click();
  await dialog
    .getByTestId('upload-input')
    .setInputFiles([{ name: `photo-again-${suffix}.png`, mimeType: 'image/png', buffer: image }]);
  await page.getByTestId('upload-start').click();
  await expect(dialog.getByTestId('upload-duplicate')).toBeVisible({ timeout: 30_000 });
  await expect(dialog.getByTestId('upload-duplicate')).toContainText('素材重复');

  // A text file named .png: refused by its content, 'file format error'.
  await dialog
    .getByTestId('upload-input')
    .setInputFiles([
      { name: `forged-${suffix}.png`, mimeType: 'image/png', buffer: Buffer.from('this is not an image\n'.repeat(50)) },
    ]);
  await page.getByTestId('upload-start').click();
  await expect(dialog.getByTestId('upload-error')).toContainText('文件格式错误', { timeout: 30_000 });
  await page.getByTestId('upload-close').click();
  await expect(page.getByTestId(`material-card-forged-${suffix}`)).toHaveCount(0);

  // The table view lists them with their sizes.
  await page.getByTestId('material-view').getByText('列表').click();
  await expect(page.getByTestId(`material-row-photo-${suffix}`)).toBeVisible();
  await expect(page.getByTestId('storage-usage-text')).toContainText('已用');
});
