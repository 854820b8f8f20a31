import { decodePDFRawStream, PDFArray, PDFDict, PDFDocument, PDFName, PDFRawStream, PDFRef } from 'pdf-lib';

/**
 * The text of a PDF pdf-lib drew with embedded (Identity-H) fonts: each page's content
 * streams' hex strings (`<...> Tj`) mapped back to Unicode through the font's ToUnicode CMap.
 * A real extraction, so a glyph missing from the font or a wrong CMap shows as missing text.
 */
export async function pdfText(bytes: Uint8Array): Promise<string[]> {
  const pdf = await PDFDocument.load(bytes);
  const decode = (obj: unknown): string => {
    const stream = obj instanceof PDFRef ? pdf.context.lookup(obj) : obj;
    if (!(stream instanceof PDFRawStream)) return '';
    return Buffer.from(decodePDFRawStream(stream).decode()).toString('latin1');
  };
  return pdf.getPages().map((page) => {
    const fonts = new Map<string, Map<number, string>>();
    const fontDict = page.node.Resources()?.lookup(PDFName.of('Font'), PDFDict);
    for (const [name, ref] of fontDict?.entries() ?? []) {
      const font = pdf.context.lookup(ref, PDFDict);
      const cmap = new Map<number, string>();
      const text = decode(font.get(PDFName.of('ToUnicode')));
      for (const block of text.matchAll(/beginbfchar([\s\S]*?)endbfchar/g))
        for (const m of block[1].matchAll(/<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>/g))
          cmap.set(parseInt(m[1], 16), Buffer.from(m[2], 'hex').swap16().toString('utf16le'));
      for (const block of text.matchAll(/beginbfrange([\s\S]*?)endbfrange/g))
        for (const m of block[1].matchAll(/<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>/g)) {
          const [lo, hi, first] = [parseInt(m[1], 16), parseInt(m[2], 16), parseInt(m[3], 16)];
          for (let g = lo; g <= hi; g++) cmap.set(g, String.fromCodePoint(first + g - lo));
        }
      fonts.set(name.asString(), cmap);
    }
    const contents = page.node.get(PDFName.of('Contents'));
    const resolved = contents instanceof PDFRef ? pdf.context.lookup(contents) : contents;
    const parts = resolved instanceof PDFArray ? resolved.asArray() : [contents];
    const ops = parts.map(decode).join('\n');
    const lines: string[] = [];
    let cmap: Map<number, string> | undefined;
    for (const m of ops.matchAll(/(\/[^\s/]+)\s+[\d.]+\s+Tf|<([0-9a-fA-F]*)>\s*Tj/g)) {
      if (m[1]) {
        cmap = fonts.get(m[1]);
        continue;
      }
      let line = '';
      for (let i = 0; i < m[2].length; i += 4) line += cmap?.get(parseInt(m[2].slice(i, i + 4), 16)) ?? '\uFFFD';
      lines.push(line);
    }
    return lines.join('\n');
  });
}
