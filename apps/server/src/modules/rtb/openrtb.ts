import { OPENOOH_VENUE_TAXONOMY, RTB_CPM_MAX_FEN } from '@marquee/protocol';
import { z } from 'zod';

/**
 * OpenRTB 2.6 as Marquee speaks it to external DSPs (issue 29; docs/operations.md "Connecting a
 * DSP"): one bid request per screen and decision run, with an impression per turn of its slots
 * being decided (`imp.id` is the turn's auction id; at most MAX_IMPS_PER_REQUEST), the DOOH object (venue type in the OpenOOH taxonomy, publisher = the operator), the
 * impression's `qty` (impressions per play) and `dt` (when it plays, ms), prices in CNY per
 * thousand impressions, second-price auction (`at: 2`). The answer is read strictly: anything
 * that is not a well-formed bid for this request's impression is refused (and logged).
 */

const positive = z.number().finite().positive();

/** Impressions (turns) in one bid request at most: a screen's turns of a run, in chunks. */
export const MAX_IMPS_PER_REQUEST = 32;

/** The part of a 2.6 bid request we send (field names and types as the specification's). */
export const bidRequestSchema = z
  .object({
    id: z.string().min(1),
    imp: z
      .array(
        z.object({
          id: z.string().min(1),
          tagid: z.string().optional(),
          bidfloor: z.number().nonnegative(),
          bidfloorcur: z.literal('CNY'),
          /** DOOH: impressions per play, and who measured it (1 measurement vendor, 2 publisher, 3 exchange). */
          qty: z.object({
            multiplier: positive,
            sourcetype: z.number().int().min(0).max(3),
            vendor: z.string().optional(),
          }),
          /** When the impression plays, ms since the epoch. */
          dt: z.number().int().positive(),
          /** Seconds the decision stands (until the turn ends). */
          exp: z.number().int().positive(),
          banner: z.object({ w: z.number().int(), h: z.number().int(), mimes: z.array(z.string()) }),
          video: z.object({
            w: z.number().int(),
            h: z.number().int(),
            mimes: z.array(z.string()),
            minduration: z.number().int(),
            maxduration: z.number().int(),
          }),
          secure: z.number().int().min(0).max(1),
        }),
      )
      .min(1)
      .max(MAX_IMPS_PER_REQUEST),
    dooh: z.object({
      id: z.string(),
      name: z.string(),
      venuetype: z.array(z.string()).min(1),
      venuetypetax: z.number().int(),
      publisher: z.object({ id: z.string(), name: z.string() }),
    }),
    device: z.object({
      geo: z.object({ lat: z.number(), lon: z.number(), type: z.number().int() }).optional(),
    }),
    at: z.literal(2),
    tmax: z.number().int().positive(),
    cur: z.array(z.literal('CNY')),
    wseat: z.array(z.string()).optional(),
  })
  .strict();
export type BidRequest = z.infer<typeof bidRequestSchema>;

/** A 2.6 bid response, as much of it as a bid needs; unknown fields are allowed (extensions). */
export const bidResponseSchema = z.object({
  id: z.string().min(1),
  seatbid: z
    .array(
      z.object({
        seat: z.string().optional(),
        bid: z.array(
          z.object({
            id: z.string().min(1),
            impid: z.string().min(1),
            price: z.number().finite().nonnegative(),
            adid: z.string().optional(),
            nurl: z.string().optional(),
            burl: z.string().optional(),
            lurl: z.string().optional(),
            adm: z.string().optional(),
            crid: z.string().min(1).max(128).optional(),
            w: z.number().int().optional(),
            h: z.number().int().optional(),
          }),
        ),
      }),
    )
    .optional(),
  cur: z.string().optional(),
  nbr: z.number().int().optional(),
});

/** One turn of a slot on the screen: an impression of the request, its auction's id as `imp.id`. */
export interface ImpFacts {
  auctionId: string;
  slot: { id: string; number: string; width: number; height: number; durationSec: number; venueType: string };
  turnAt: number;
  floorCpm: number;
  qtyMilli: number;
  qtySource: 'audience' | 'multiplier';
}

export interface RequestFacts {
  /** The bid request's id (the `${AUCTION_ID}` of its notices). */
  requestId: string;
  device: { id: string; name: string; lat: number | null; lng: number | null };
  publisher: { id: string; name: string };
  /** The screen's turns (1 to MAX_IMPS_PER_REQUEST), all of the same venue type. */
  imps: readonly ImpFacts[];
  tmaxMs: number;
  seat: string;
  now: number;
}

/** The bid request of a screen's turns. */
export function buildBidRequest(r: RequestFacts): BidRequest {
  const request: BidRequest = {
    id: r.requestId,
    imp: r.imps.map((t) => ({
      id: t.auctionId,
      tagid: t.slot.number,
      bidfloor: t.floorCpm / 100,
      bidfloorcur: 'CNY',
      qty: { multiplier: t.qtyMilli / 1000, sourcetype: t.qtySource === 'audience' ? 2 : 3 },
      dt: t.turnAt,
      exp: Math.max(1, Math.ceil((t.turnAt + t.slot.durationSec * 1000 - r.now) / 1000)),
      banner: { w: t.slot.width, h: t.slot.height, mimes: ['image/jpeg', 'image/png', 'image/webp'] },
      video: {
        w: t.slot.width,
        h: t.slot.height,
        mimes: ['video/mp4', 'video/webm'],
        minduration: 1,
        maxduration: t.slot.durationSec,
      },
      secure: 0,
    })),
    dooh: {
      id: r.device.id,
      name: r.device.name,
      venuetype: [...new Set(r.imps.map((t) => t.slot.venueType))],
      venuetypetax: OPENOOH_VENUE_TAXONOMY,
      publisher: { id: r.publisher.id, name: r.publisher.name },
    },
    device:
      r.device.lat !== null && r.device.lng !== null ? { geo: { lat: r.device.lat, lon: r.device.lng, type: 3 } } : {},
    at: 2,
    tmax: r.tmaxMs,
    cur: ['CNY'],
  };
  if (r.seat) request.wseat = [r.seat];
  return request;
}

/** A DSP's bid for one of our impressions, checked. */
export interface DspBid {
  /** The impression (the turn's auction id) it bids for. */
  impId: string;
  bidId: string;
  /** Fen per thousand impressions. */
  cpm: number;
  crid: string;
  /** The creative's media (an http(s) image or video URL: DOOH screens play files, not markup). */
  mediaUrl: string;
  nurl: string | null;
  burl: string | null;
  lurl: string | null;
  seat: string;
}

export type ParsedAnswer = { kind: 'noBid' } | { kind: 'bids'; bids: DspBid[] } | { kind: 'invalid'; note: string };

const isHttpUrl = (u: string | undefined) => !!u && /^https?:\/\/\S+$/.test(u) && u.length <= 2000;

/**
 * Reads a DSP's answer to `request` (its id and its impressions' ids): HTTP 204 or an empty
 * seatbid (or `nbr`) is no bid; a body that is not a bid response for this request, a currency
 * other than CNY, a bid for an impression the request did not offer, a price above the spec's RTB maximum, or a bid without a creative id and a media
 * URL (adm as a URL, or nurl-less) is invalid, with the reason.
 */
export function parseBidResponse(
  request: { id: string; impIds: ReadonlySet<string> },
  status: number,
  body: string,
): ParsedAnswer {
  if (status === 204 || (status === 200 && body.trim() === '')) return { kind: 'noBid' };
  if (status !== 200) return { kind: 'invalid', note: `HTTP ${status}` };
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return { kind: 'invalid', note: 'not JSON' };
  }
  const parsed = bidResponseSchema.safeParse(json);
  if (!parsed.success)
    return { kind: 'invalid', note: `not a bid response: ${parsed.error.issues[0]?.path.join('.') || 'body'}` };
  const r = parsed.data;
  if (r.id !== request.id) return { kind: 'invalid', note: 'id does not match the request' };
  if (r.cur && r.cur !== 'CNY') return { kind: 'invalid', note: `currency ${r.cur}` };
  const bids: DspBid[] = [];
  for (const seat of r.seatbid ?? []) {
    for (const b of seat.bid) {
      if (!request.impIds.has(b.impid)) return { kind: 'invalid', note: `bid for unknown impression ${b.impid}` };
      const cpm = Math.round(b.price * 100);
      if (cpm > RTB_CPM_MAX_FEN) return { kind: 'invalid', note: 'price above 10000 CNY' };
      if (!b.crid) return { kind: 'invalid', note: 'bid without crid' };
      if (!isHttpUrl(b.adm)) return { kind: 'invalid', note: 'adm is not a media URL' };
      if (cpm <= 0) continue;
      bids.push({
        impId: b.impid,
        bidId: b.id,
        cpm,
        crid: b.crid,
        mediaUrl: b.adm as string,
        nurl: isHttpUrl(b.nurl) ? (b.nurl as string) : null,
        burl: isHttpUrl(b.burl) ? (b.burl as string) : null,
        lurl: isHttpUrl(b.lurl) ? (b.lurl as string) : null,
        seat: seat.seat ?? '',
      });
    }
  }
  return bids.length === 0 ? { kind: 'noBid' } : { kind: 'bids', bids };
}

/** OpenRTB loss reason codes we send in `${AUCTION_LOSS}` (specification 2.6, list 5.25 of AdCOM). */
export const LOSS = {
  belowFloor: 100,
  outbid: 101,
  invalid: 3,
  creativePending: 201,
  creativeRefused: 202,
} as const;

/** Substitutes the OpenRTB macros of a notice URL. */
export function expandMacros(
  url: string,
  v: { requestId: string; impId: string; bidId: string; seat: string; price?: number; loss?: number },
): string {
  const enc = encodeURIComponent;
  const values: Record<string, string> = {
    AUCTION_ID: enc(v.requestId),
    AUCTION_BID_ID: enc(v.bidId),
    AUCTION_IMP_ID: enc(v.impId),
    AUCTION_SEAT_ID: enc(v.seat),
    AUCTION_CURRENCY: 'CNY',
    AUCTION_PRICE: v.price === undefined ? '' : (v.price / 100).toFixed(2),
    AUCTION_LOSS: v.loss === undefined ? '' : String(v.loss),
  };
  return url.replace(/\$\{(AUCTION_[A-Z_]+)\}/g, (macro, name: string) => values[name] ?? macro);
}
