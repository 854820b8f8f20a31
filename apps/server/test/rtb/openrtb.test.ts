import { describe, expect, it } from 'vitest';
import { answerFor, type DspAnswer } from '../../src/modules/rtb/dspClient.js';
import {
  bidRequestSchema,
  buildBidRequest,
  expandMacros,
  MAX_IMPS_PER_REQUEST,
  parseBidResponse,
  type RequestFacts,
} from '../../src/modules/rtb/openrtb.js';

/** The OpenRTB 2.6 shapes Marquee sends and accepts (issue 29; docs/operations.md "DSPs"). */

const slot = {
  id: 's1',
  number: '123456789',
  width: 1920,
  height: 1080,
  durationSec: 15,
  venueType: 'transit.bus_shelters',
};
const imp = {
  auctionId: 'auction-1',
  slot,
  turnAt: 1_800_000_060_000,
  floorCpm: 1_250,
  qtyMilli: 2_500,
  qtySource: 'audience' as const,
};
const turn: RequestFacts = {
  requestId: 'request-1',
  device: { id: 'd1', name: 'Bus stop 12', lat: 31.23, lng: 121.47 },
  publisher: { id: 'ent-1', name: 'Demo Media' },
  imps: [imp],
  tmaxMs: 120,
  seat: 'seat-9',
  now: 1_800_000_000_000,
};
const request1 = { id: 'request-1', impIds: new Set(['auction-1', 'auction-2']) };

const response = (bid: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    id: 'request-1',
    cur: 'CNY',
    seatbid: [
      {
        seat: 'seat-9',
        bid: [{ id: 'b1', impid: 'auction-1', price: 30, crid: 'c1', adm: 'https://cdn.example.com/a.png', ...bid }],
      },
    ],
    ...extra,
  });

describe('the OpenRTB 2.6 bid request', () => {
  it('is a DOOH impression per turn with qty, dt, the floor in CNY CPM and second price', () => {
    const request = buildBidRequest(turn);
    expect(bidRequestSchema.safeParse(request).success).toBe(true);
    expect(request).toMatchObject({
      id: 'request-1',
      at: 2,
      tmax: 120,
      cur: ['CNY'],
      wseat: ['seat-9'],
      imp: [
        {
          id: 'auction-1',
          tagid: '123456789',
          bidfloor: 12.5,
          bidfloorcur: 'CNY',
          qty: { multiplier: 2.5, sourcetype: 2 },
          dt: imp.turnAt,
          exp: 75,
          video: { maxduration: 15 },
        },
      ],
      dooh: {
        id: 'd1',
        name: 'Bus stop 12',
        venuetype: ['transit.bus_shelters'],
        venuetypetax: 4,
        publisher: { id: 'ent-1', name: 'Demo Media' },
      },
      device: { geo: { lat: 31.23, lon: 121.47 } },
    });
    // The DOOH object replaces site and app (mutually exclusive in 2.6).
    expect(request).not.toHaveProperty('site');
    expect(request).not.toHaveProperty('app');
  });

  it("carries a screen's turns as its impressions, each with its own id, time and floor", () => {
    const later = { ...imp, auctionId: 'auction-2', turnAt: imp.turnAt + 15_000, floorCpm: 2_000 };
    const request = buildBidRequest({ ...turn, imps: [imp, later] });
    expect(bidRequestSchema.safeParse(request).success).toBe(true);
    expect(request.imp.map((i) => [i.id, i.dt, i.bidfloor, i.exp])).toEqual([
      ['auction-1', imp.turnAt, 12.5, 75],
      ['auction-2', imp.turnAt + 15_000, 20, 90],
    ]);
    // No request without an impression, none with more than the chunk.
    expect(bidRequestSchema.safeParse({ ...request, imp: [] }).success).toBe(false);
    const many = Array.from({ length: MAX_IMPS_PER_REQUEST + 1 }, (_, i) => ({ ...imp, auctionId: `a${i}` }));
    expect(bidRequestSchema.safeParse(buildBidRequest({ ...turn, imps: many })).success).toBe(false);
  });

  it('leaves out what it does not know: a screen without position, a DSP without seat, the multiplier source', () => {
    const request = buildBidRequest({
      ...turn,
      device: { ...turn.device, lat: null, lng: null },
      seat: '',
      imps: [{ ...imp, qtySource: 'multiplier' }],
    });
    expect(bidRequestSchema.safeParse(request).success).toBe(true);
    expect(request.device).toEqual({});
    expect(request).not.toHaveProperty('wseat');
    expect(request.imp[0].qty.sourcetype).toBe(3);
  });
});

describe('reading a bid response', () => {
  it('takes a well-formed bid: CNY CPM in fen, the creative and the notice URLs', () => {
    const parsed = parseBidResponse(
      request1,
      200,
      // biome-ignore lint/suspicious/noTemplateCurlyInString: an OpenRTB macro, not a template
      response({ nurl: 'https://dsp/win?p=${AUCTION_PRICE}', burl: 'https://dsp/bill', lurl: 'https://dsp/loss' }),
    );
    expect(parsed).toEqual({
      kind: 'bids',
      bids: [
        {
          impId: 'auction-1',
          bidId: 'b1',
          cpm: 3_000,
          crid: 'c1',
          mediaUrl: 'https://cdn.example.com/a.png',
          // biome-ignore lint/suspicious/noTemplateCurlyInString: an OpenRTB macro, not a template
          nurl: 'https://dsp/win?p=${AUCTION_PRICE}',
          burl: 'https://dsp/bill',
          lurl: 'https://dsp/loss',
          seat: 'seat-9',
        },
      ],
    });
  });

  it.each([
    ['HTTP 204', 204, ''],
    ['an empty body', 200, ''],
    ['no seatbid', 200, JSON.stringify({ id: 'request-1', nbr: 2 })],
    ['a zero price', 200, response({ price: 0 })],
  ])('reads %s as no bid', (_name, status, body) => {
    expect(parseBidResponse(request1, status, body)).toEqual({ kind: 'noBid' });
  });

  it.each([
    ['an HTTP error', 500, 'oops', 'HTTP 500'],
    ['not JSON', 200, '{"seatbid": [', 'not JSON'],
    ['a wrong shape', 200, JSON.stringify({ id: 'request-1', seatbid: 'lots' }), 'not a bid response'],
    ['another request id', 200, response({}, { id: 'other' }), 'id does not match'],
    ['another currency', 200, response({}, { cur: 'USD' }), 'currency USD'],
    ['another impression', 200, response({ impid: 'auction-9' }), 'unknown impression'],
    ['a price above 10000 CNY', 200, response({ price: 10_000.01 }), 'above 10000'],
    ['no creative id', 200, response({ crid: undefined }), 'without crid'],
    ['markup instead of a media URL', 200, response({ adm: '<div>ad</div>' }), 'not a media URL'],
    ['a negative price', 200, response({ price: -1 }), 'not a bid response'],
  ])('refuses %s', (_name, status, body, note) => {
    const parsed = parseBidResponse(request1, status, body);
    expect(parsed.kind).toBe('invalid');
    expect(parsed.kind === 'invalid' && parsed.note).toContain(note);
  });
});

describe("a request's answer split by impression", () => {
  it('gives each turn its own bids; a turn nobody bid on is no bid; a timeout is every turn’s', () => {
    const parsed = parseBidResponse(request1, 200, response({}));
    if (parsed.kind !== 'bids') throw new Error('expected bids');
    const answer: DspAnswer = { dspId: 'dsp-1', outcome: 'bids', bids: parsed.bids, ms: 20, note: null };
    expect(answerFor(answer, 'auction-1')).toMatchObject({ outcome: 'bids', bids: [{ impId: 'auction-1' }] });
    expect(answerFor(answer, 'auction-2')).toMatchObject({ outcome: 'noBid', bids: [] });
    const late: DspAnswer = { dspId: 'dsp-1', outcome: 'timeout', bids: [], ms: 120, note: 'no answer' };
    expect(answerFor(late, 'auction-2')).toBe(late);
  });
});

describe('notice macros', () => {
  it('expands the OpenRTB macros, the price as CNY CPM', () => {
    expect(
      expandMacros(
        // biome-ignore lint/suspicious/noTemplateCurlyInString: an OpenRTB macro, not a template
        'https://dsp/n?a=${AUCTION_ID}&b=${AUCTION_BID_ID}&i=${AUCTION_IMP_ID}&s=${AUCTION_SEAT_ID}&p=${AUCTION_PRICE}&c=${AUCTION_CURRENCY}&l=${AUCTION_LOSS}&x=${OTHER}',
        { requestId: 'r 1', impId: 'a1', bidId: 'b1', seat: 's', price: 1_001, loss: 101 },
      ),
      // biome-ignore lint/suspicious/noTemplateCurlyInString: an OpenRTB macro, not a template
    ).toBe('https://dsp/n?a=r%201&b=b1&i=a1&s=s&p=10.01&c=CNY&l=101&x=${OTHER}');
  });
});
