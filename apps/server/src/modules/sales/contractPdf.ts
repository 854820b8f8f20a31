import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { wallClock, zoneOffsetMinutes } from '@marquee/protocol';
import fontkit from '@pdf-lib/fontkit';
import { PDFDocument, type PDFFont, type PDFPage, rgb } from 'pdf-lib';

/**
 * The contract documents of the airtime market (issue 28): a bilingual PDF (each heading in
 * Chinese with its English line beneath), page numbers, and the signature page appended when
 * it is signed inside the product. Text is set in Noto Sans SC (the npm package
 * @expo-google-fonts/noto-sans-sc ships the whole TTF; read once from disk, never fetched),
 * embedded as a subset of the glyphs the document uses, so a contract weighs kilobytes.
 */

const require = createRequire(import.meta.url);
const FONT_FILES = {
  regular: '@expo-google-fonts/noto-sans-sc/400Regular/NotoSansSC_400Regular.ttf',
  bold: '@expo-google-fonts/noto-sans-sc/700Bold/NotoSansSC_700Bold.ttf',
} as const;

let fontBytes: Promise<{ regular: Buffer; bold: Buffer }> | null = null;

/** The two weights' bytes, read once per process. */
export function contractFonts(): Promise<{ regular: Buffer; bold: Buffer }> {
  fontBytes ??= Promise.all([readFile(require.resolve(FONT_FILES.regular)), readFile(require.resolve(FONT_FILES.bold))])
    .then(([regular, bold]) => ({ regular, bold }))
    .catch((error) => {
      fontBytes = null;
      throw error;
    });
  return fontBytes;
}

/** Chinese text with its English line. */
export interface Bilingual {
  zh: string;
  en: string;
}

export type ContractSection =
  | { kind: 'fields'; heading: Bilingual; fields: { label: Bilingual; value: string }[] }
  | {
      kind: 'table';
      heading: Bilingual;
      /** Column headings and relative widths. */
      columns: { label: Bilingual; width: number; align?: 'left' | 'right' }[];
      rows: string[][];
      /** Lines under the table (totals). */
      footer?: { label: Bilingual; value: string }[];
    }
  | { kind: 'text'; heading: Bilingual; paragraphs: Bilingual[] };

export interface ContractDocument {
  no: string;
  title: Bilingual;
  /** When it was drawn up (the PDF's dates). */
  createdAt: Date;
  /** The selling enterprise's zone: the document's times, and the days and hours it names. */
  zone: string;
  sections: ContractSection[];
}

const A4: [number, number] = [595.28, 841.89];
const MARGIN = 50;
const BODY = 10;
const SMALL = 8;
const INK = rgb(0.1, 0.1, 0.1);
const GREY = rgb(0.4, 0.4, 0.4);
const RULE = rgb(0.75, 0.75, 0.75);

/**
 * Date and time on the wall clock of `zone` with its offset then, as the contract's parties
 * read it: `2026-11-28 17:30:00 (UTC+8)`, `(UTC+5:45)`.
 */
export function partyTime(at: Date, zone: string): string {
  const w = wallClock(at, zone);
  const hms = [Math.floor(w.minute / 60), w.minute % 60, w.second].map((n) => String(n).padStart(2, '0')).join(':');
  const off = zoneOffsetMinutes(at.getTime(), zone);
  const abs = Math.abs(off);
  const offset = `${off < 0 ? '-' : '+'}${Math.floor(abs / 60)}${abs % 60 ? `:${String(abs % 60).padStart(2, '0')}` : ''}`;
  return `${w.day} ${hms} (UTC${offset})`;
}

/** Splits `text` into lines no wider than `width` (CJK breaks anywhere; Latin at spaces when it can). */
export function wrapText(text: string, font: PDFFont, size: number, width: number): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split('\n')) {
    let line = '';
    const tokens = paragraph.match(/[\u0021-\u007e\u00a0-\u024f]+|\s+|./gsu) ?? [];
    for (const token of tokens) {
      const next = line + token;
      if (font.widthOfTextAtSize(next, size) <= width) {
        line = next;
        continue;
      }
      if (line.trim()) lines.push(line.trimEnd());
      line = token.trimStart();
      // A token wider than the line (a long number, an URL): cut it by characters.
      while (font.widthOfTextAtSize(line, size) > width) {
        let cut = line.length - 1;
        while (cut > 1 && font.widthOfTextAtSize(line.slice(0, cut), size) > width) cut--;
        lines.push(line.slice(0, cut));
        line = line.slice(cut);
      }
    }
    lines.push(line.trimEnd());
  }
  return lines;
}

class Writer {
  page!: PDFPage;
  y = 0;
  readonly width = A4[0] - 2 * MARGIN;

  constructor(
    readonly pdf: PDFDocument,
    readonly font: PDFFont,
    readonly bold: PDFFont,
  ) {
    this.newPage();
  }

  newPage(): void {
    this.page = this.pdf.addPage(A4);
    this.y = A4[1] - MARGIN;
  }

  /** Makes room for `height`, starting a page when it does not fit. */
  need(height: number): void {
    if (this.y - height < MARGIN + 20) this.newPage();
  }

  text(text: string, opts: { size?: number; bold?: boolean; color?: typeof INK; x?: number; width?: number } = {}) {
    const size = opts.size ?? BODY;
    const font = opts.bold ? this.bold : this.font;
    const x = opts.x ?? MARGIN;
    for (const line of wrapText(text, font, size, opts.width ?? this.width - (x - MARGIN))) {
      this.need(size * 1.5);
      this.y -= size * 1.5;
      this.page.drawText(line, { x, y: this.y, size, font, color: opts.color ?? INK });
    }
  }

  heading(h: Bilingual): void {
    this.need(40);
    this.y -= 8;
    this.text(h.zh, { size: 12, bold: true });
    this.text(h.en, { size: SMALL, color: GREY });
    this.y -= 4;
  }

  rule(): void {
    this.page.drawLine({
      start: { x: MARGIN, y: this.y - 3 },
      end: { x: A4[0] - MARGIN, y: this.y - 3 },
      thickness: 0.5,
      color: RULE,
    });
    this.y -= 6;
  }

  fields(fields: { label: Bilingual; value: string }[]): void {
    const labelWidth = 150;
    for (const f of fields) {
      const valueLines = wrapText(f.value, this.font, BODY, this.width - labelWidth);
      const height = Math.max(2, valueLines.length) * BODY * 1.5 + 4;
      this.need(height);
      const top = this.y;
      this.page.drawText(f.label.zh, { x: MARGIN, y: top - BODY * 1.5, size: BODY, font: this.bold, color: INK });
      this.page.drawText(f.label.en, {
        x: MARGIN,
        y: top - BODY * 1.5 - SMALL * 1.4,
        size: SMALL,
        font: this.font,
        color: GREY,
      });
      valueLines.forEach((line, i) => {
        this.page.drawText(line, {
          x: MARGIN + labelWidth,
          y: top - BODY * 1.5 * (i + 1),
          size: BODY,
          font: this.font,
          color: INK,
        });
      });
      this.y = top - height;
    }
  }

  table(section: Extract<ContractSection, { kind: 'table' }>): void {
    const total = section.columns.reduce((a, c) => a + c.width, 0);
    const widths = section.columns.map((c) => (c.width / total) * this.width);
    const pad = 3;
    const head = () => {
      const lines = section.columns.map((c, i) => [
        ...wrapText(c.label.zh, this.bold, SMALL, widths[i] - 2 * pad),
        ...wrapText(c.label.en, this.font, SMALL - 1, widths[i] - 2 * pad),
      ]);
      const height = Math.max(...lines.map((l) => l.length)) * SMALL * 1.3 + 2 * pad;
      this.need(height + 20);
      const top = this.y;
      this.page.drawRectangle({ x: MARGIN, y: top - height, width: this.width, height, color: rgb(0.93, 0.93, 0.93) });
      let x = MARGIN;
      section.columns.forEach((c, i) => {
        const zhLines = wrapText(c.label.zh, this.bold, SMALL, widths[i] - 2 * pad);
        lines[i].forEach((line, j) => {
          const isZh = j < zhLines.length;
          this.page.drawText(line, {
            x: x + pad,
            y: top - pad - SMALL * 1.3 * (j + 1) + 2,
            size: isZh ? SMALL : SMALL - 1,
            font: isZh ? this.bold : this.font,
            color: isZh ? INK : GREY,
          });
        });
        x += widths[i];
      });
      this.y = top - height;
    };
    head();
    for (const row of section.rows) {
      const cells = row.map((cell, i) => wrapText(cell, this.font, SMALL, widths[i] - 2 * pad));
      const height = Math.max(1, ...cells.map((c) => c.length)) * SMALL * 1.3 + 2 * pad;
      if (this.y - height < MARGIN + 20) {
        this.newPage();
        head();
      }
      const top = this.y;
      let x = MARGIN;
      cells.forEach((lines, i) => {
        const right = section.columns[i].align === 'right';
        lines.forEach((line, j) => {
          const w = this.font.widthOfTextAtSize(line, SMALL);
          this.page.drawText(line, {
            x: right ? x + widths[i] - pad - w : x + pad,
            y: top - pad - SMALL * 1.3 * (j + 1) + 2,
            size: SMALL,
            font: this.font,
            color: INK,
          });
        });
        x += widths[i];
      });
      this.y = top - height;
      this.rule();
    }
    if (section.footer?.length) {
      this.y -= 4;
      this.fields(section.footer);
    }
  }
}

function setDates(pdf: PDFDocument, at: Date, title: string): void {
  pdf.setTitle(title);
  pdf.setCreator('Marquee');
  pdf.setProducer('Marquee');
  pdf.setCreationDate(at);
  pdf.setModificationDate(at);
}

async function newDocument(): Promise<{ pdf: PDFDocument; font: PDFFont; bold: PDFFont }> {
  const fonts = await contractFonts();
  const pdf = await PDFDocument.create();
  pdf.registerFontkit(fontkit);
  const font = await pdf.embedFont(fonts.regular, { subset: true });
  const bold = await pdf.embedFont(fonts.bold, { subset: true });
  return { pdf, font, bold };
}

function numberPages(pdf: PDFDocument, font: PDFFont, no: string): void {
  const pages = pdf.getPages();
  pages.forEach((page, i) => {
    const label = `${no}    第 ${i + 1} 页，共 ${pages.length} 页 / Page ${i + 1} of ${pages.length}`;
    const w = font.widthOfTextAtSize(label, SMALL);
    page.drawText(label, { x: (A4[0] - w) / 2, y: MARGIN - 20, size: SMALL, font, color: GREY });
  });
}

/** Renders a contract: title, number, its sections, page numbers. */
export async function renderContractPdf(doc: ContractDocument): Promise<Buffer> {
  const { pdf, font, bold } = await newDocument();
  setDates(pdf, doc.createdAt, `${doc.title.zh} ${doc.no}`);
  const w = new Writer(pdf, font, bold);
  w.text(doc.title.zh, { size: 18, bold: true });
  w.text(doc.title.en, { size: 11, color: GREY });
  w.y -= 6;
  w.text(`合同编号 Contract No.: ${doc.no}`, { size: BODY });
  w.text(`签订日期 Date: ${partyTime(doc.createdAt, doc.zone)}`, { size: BODY });
  w.rule();
  for (const section of doc.sections) {
    w.heading(section.heading);
    if (section.kind === 'fields') w.fields(section.fields);
    else if (section.kind === 'table') w.table(section);
    else
      for (const p of section.paragraphs) {
        w.text(p.zh);
        w.text(p.en, { size: SMALL, color: GREY });
        w.y -= 4;
      }
  }
  numberPages(pdf, font, doc.no);
  return Buffer.from(await pdf.save());
}

export interface SignatureInfo {
  no: string;
  /** Who signed (name, and the account's login name). */
  signerName: string;
  signerLogin: string;
  /** Whom for: the advertiser (the signer may be staff signing on its behalf). */
  advertiserName: string;
  signedAt: Date;
  /** The selling enterprise's zone (the time's wall clock). */
  zone: string;
  /** SHA-256 (hex) of the document that was signed. */
  sha256: string;
  bytes: number;
}

/** The signed document: the original's pages unchanged, then a signature page (who, when, the hash). */
export async function appendSignaturePage(original: Buffer, sig: SignatureInfo): Promise<Buffer> {
  const fonts = await contractFonts();
  const pdf = await PDFDocument.load(original, { updateMetadata: false });
  pdf.registerFontkit(fontkit);
  const font = await pdf.embedFont(fonts.regular, { subset: true });
  const bold = await pdf.embedFont(fonts.bold, { subset: true });
  pdf.setModificationDate(sig.signedAt);
  const w = new Writer(pdf, font, bold);
  w.text('签署页', { size: 16, bold: true });
  w.text('Signature page', { size: 11, color: GREY });
  w.rule();
  w.fields([
    { label: { zh: '合同编号', en: 'Contract No.' }, value: sig.no },
    { label: { zh: '签署方', en: 'Signing party' }, value: sig.advertiserName },
    { label: { zh: '签署人', en: 'Signed by' }, value: `${sig.signerName} (${sig.signerLogin})` },
    { label: { zh: '签署时间', en: 'Signed at' }, value: partyTime(sig.signedAt, sig.zone) },
    { label: { zh: '文件摘要 SHA-256', en: 'Document SHA-256' }, value: sig.sha256 },
    { label: { zh: '文件大小', en: 'Document size' }, value: `${sig.bytes} B` },
  ]);
  w.y -= 8;
  w.text('签署人已阅读并确认上述摘要所对应的合同文本（本页之前的各页），签署后合同不可更改。', { size: BODY });
  w.text(
    'The signer read and confirmed the contract text the digest above identifies (the pages before this one); once signed, the contract cannot change.',
    { size: SMALL, color: GREY },
  );
  return Buffer.from(await pdf.save());
}
