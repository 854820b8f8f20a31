import { describe, expect, it } from 'vitest';
import {
  appendSignaturePage,
  type ContractDocument,
  partyTime,
  renderContractPdf,
} from '../../src/modules/sales/contractPdf.js';
import { hoursText, sha256Hex, yuan } from '../../src/modules/sales/contracts.js';
import { pdfText } from './h4-pdfText.js';

const doc: ContractDocument = {
  no: 'C20261128000123',
  createdAt: new Date('2026-11-28T08:00:00Z'),
  zone: 'Asia/Shanghai',
  title: { zh: '广告位投放合同', en: 'Airtime Purchase Contract' },
  sections: [
    {
      kind: 'fields',
      heading: { zh: '一、合同双方', en: '1. Parties' },
      fields: [
        { label: { zh: '甲方（媒体运营方）', en: 'Party A (media operator)' }, value: '上海星幕传媒有限公司' },
        { label: { zh: '乙方（广告主）', en: 'Party B (advertiser)' }, value: '杭州鲜果饮品店 (adv_fruit)' },
      ],
    },
    {
      kind: 'table',
      heading: { zh: '三、投放明细与金额', en: '3. Sub-orders and amounts' },
      columns: [
        { label: { zh: '广告位', en: 'Slot' }, width: 16 },
        { label: { zh: '屏幕数', en: 'Screens' }, width: 7, align: 'right' },
        { label: { zh: '金额', en: 'Amount' }, width: 12, align: 'right' },
      ],
      // Enough rows for several pages: the heading repeats and the pages are numbered.
      rows: Array.from({ length: 120 }, (_, i) => [
        `地铁站大屏 ${i + 1} 号（CPT, 15s）`,
        String(i + 2),
        yuan((i + 1) * 123_456),
      ]),
      footer: [{ label: { zh: '合同金额', en: 'Contract amount' }, value: yuan(987_654_321) }],
    },
  ],
};

describe('contract PDF', () => {
  it('renders the Chinese text, each heading with its English line, and numbers its pages', async () => {
    const started = performance.now();
    const pdf = await renderContractPdf(doc);
    const ms = performance.now() - started;
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const pages = await pdfText(pdf);
    expect(pages.length).toBeGreaterThan(1);
    const all = pages.join('\n');
    expect(all).not.toContain('\uFFFD');
    for (const s of [
      '广告位投放合同',
      'Airtime Purchase Contract',
      '一、合同双方',
      '1. Parties',
      '甲方（媒体运营方）',
      '上海星幕传媒有限公司',
      '杭州鲜果饮品店 (adv_fruit)',
      '地铁站大屏 120 号（CPT, 15s）',
      '¥9,876,543.21',
      'C20261128000123',
    ])
      expect(all).toContain(s);
    for (const [i, text] of pages.entries())
      expect(text).toContain(`第 ${i + 1} 页，共 ${pages.length} 页 / Page ${i + 1} of ${pages.length}`);
    // The fonts are subsets: kilobytes, not the 10 MB TTF.
    expect(pdf.length).toBeLessThan(200_000);
    console.info(`contract PDF: ${pages.length} pages, ${pdf.length} bytes, rendered in ${ms.toFixed(0)} ms`);
  });

  it('appends a signature page and keeps the signed pages unchanged', async () => {
    const pdf = await renderContractPdf({ ...doc, sections: doc.sections.slice(0, 1) });
    const signed = await appendSignaturePage(pdf, {
      no: doc.no,
      signerName: '王小明',
      signerLogin: 'adv_fruit',
      advertiserName: '杭州鲜果饮品店',
      signedAt: new Date('2026-11-28T09:30:00Z'),
      zone: 'Asia/Shanghai',
      sha256: sha256Hex(pdf),
      bytes: pdf.length,
    });
    const before = await pdfText(pdf);
    const after = await pdfText(signed);
    expect(after.length).toBe(before.length + 1);
    expect(after.slice(0, before.length)).toEqual(before);
    const last = after[after.length - 1];
    for (const s of ['签署页', 'Signature page', '王小明 (adv_fruit)', '杭州鲜果饮品店', '2026-11-28 17:30:00 (UTC+8)'])
      expect(last).toContain(s);
    expect(last.replace(/\s/g, '')).toContain(sha256Hex(pdf));
  });

  it('formats money and hours for the document', () => {
    expect(yuan(0)).toBe('¥0.00');
    expect(yuan(123_456_789)).toBe('¥1,234,567.89');
    expect(hoursText(0xffffff)).toBe('00:00–24:00');
    expect(hoursText((1 << 8) | (1 << 9) | (1 << 18))).toBe('08:00–10:00, 18:00–19:00');
  });

  it("writes a time on the selling enterprise's wall clock with its offset then", () => {
    const at = new Date('2026-11-28T09:30:05Z');
    expect(partyTime(at, 'Asia/Shanghai')).toBe('2026-11-28 17:30:05 (UTC+8)');
    expect(partyTime(at, 'Asia/Kathmandu')).toBe('2026-11-28 15:15:05 (UTC+5:45)');
    expect(partyTime(at, 'America/New_York')).toBe('2026-11-28 04:30:05 (UTC-5)');
    expect(partyTime(new Date('2026-07-01T03:00:00Z'), 'America/New_York')).toBe('2026-06-30 23:00:00 (UTC-4)');
  });
});
