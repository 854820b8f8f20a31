import { type ComponentOf, createComponent, createEmptyLayout, createPage, type ShareQuote } from '@marquee/layout';
import { describe, expect, it } from 'vitest';
import { quotesAt, SHARES_STALE_MS, shareSymbols } from '../src/logic/shares';

const shares = (symbols: string[]) => {
  const c = createComponent('shares', { x: 0, y: 0 }) as ComponentOf<'shares'>;
  return { ...c, props: { ...c.props, symbols } };
};

/** The symbols a layout's share-price components ask for (docs/device-protocol.md 2.7.7). */
describe('shareSymbols', () => {
  it('lists each symbol once, upper-cased, in order; nothing for a layout without the component', () => {
    const doc = createEmptyLayout();
    const second = createPage();
    doc.pages[0].components.push(shares(['600519.SH', 'aapl']), createComponent('text', { x: 0, y: 0 }));
    second.components.push(shares(['AAPL', '0700.hk']));
    doc.pages.push(second);
    expect(shareSymbols(doc)).toEqual(['600519.SH', 'AAPL', '0700.HK']);
    expect(shareSymbols(createEmptyLayout())).toEqual([]);
  });

  it('asks for at most 20 symbols', () => {
    const doc = createEmptyLayout();
    doc.pages[0].components.push(shares(Array.from({ length: 15 }, (_, i) => `A${i}`)));
    doc.pages[0].components.push(shares(Array.from({ length: 15 }, (_, i) => `B${i}`)));
    expect(shareSymbols(doc)).toHaveLength(20);
  });
});

describe('quotesAt', () => {
  const time = '2026-11-28T07:00:00.000Z';
  const quote: ShareQuote = {
    symbol: 'AAPL',
    name: 'Apple',
    price: 189.5,
    change: -1.2,
    changePercent: -0.63,
    currency: 'USD',
    time,
    stale: false,
  };

  it('keeps the last quotes fresh within 15 minutes of their price, then marks them stale', () => {
    const at = Date.parse(time);
    const last = { AAPL: quote, TSLA: null };
    expect(quotesAt(last, at + SHARES_STALE_MS)).toEqual({ AAPL: quote, TSLA: null });
    expect(quotesAt(last, at + SHARES_STALE_MS + 1)?.AAPL?.stale).toBe(true);
    // the server's own stale mark stays
    expect(quotesAt({ AAPL: { ...quote, stale: true } }, at)?.AAPL?.stale).toBe(true);
  });

  it('has nothing before the first answer', () => {
    expect(quotesAt(undefined, Date.now())).toBeUndefined();
  });
});
