import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local DSP speaking OpenRTB 2.6 over HTTP for the RTB tests and the bench (issue 29). Each
 * path is one behaviour: `/bid` answers a bid at `price` CNY CPM on every impression with a creative (`/creative.png`
 * served here) and win, loss and billing notice URLs (recorded in `notices`); `/late` answers
 * the same after `lateMs`; `/garbage` answers something that is not a bid response; `/silent`
 * never answers; `/nobid` answers 204. `requests` records every bid request received.
 */
export class DspTestServer {
  private server: Server | null = null;
  readonly requests: { path: string; body: Record<string, unknown> }[] = [];
  readonly notices: string[] = [];
  price = 20;
  lateMs = 400;
  /** Delay of `/bid` (the bench's "answers in 20 ms"). */
  bidDelayMs = 0;
  crid = 'creative-1';
  base = '';

  constructor(private readonly png: Buffer) {}

  async start(): Promise<string> {
    this.server = createServer((req, res) => void this.handle(req, res));
    this.server.keepAliveTimeout = 30_000;
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    const { port } = this.server.address() as AddressInfo;
    this.base = `http://127.0.0.1:${port}`;
    return this.base;
  }

  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method === 'GET') {
      if (path === '/creative.png') {
        res.writeHead(200, { 'content-type': 'image/png', 'content-length': this.png.length });
        res.end(this.png);
        return;
      }
      this.notices.push(req.url ?? '');
      res.writeHead(200).end();
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    let body: Record<string, unknown> = {};
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
    } catch {
      // recorded as empty
    }
    this.requests.push({ path, body });
    const imps = Array.isArray(body.imp) ? (body.imp as { id: string }[]) : [];
    const n = this.requests.length;
    const answer = () =>
      JSON.stringify({
        id: body.id,
        cur: 'CNY',
        seatbid: [
          {
            seat: 'seat-1',
            bid: imps.map((imp, i) => ({
              id: `bid-${n}-${i}`,
              impid: imp.id,
              price: this.price,
              crid: this.crid,
              adm: `${this.base}/creative.png`,
              nurl: `${this.base}/win?auction=\${AUCTION_IMP_ID}&price=\${AUCTION_PRICE}&request=\${AUCTION_ID}`,
              lurl: `${this.base}/loss?auction=\${AUCTION_IMP_ID}&reason=\${AUCTION_LOSS}&request=\${AUCTION_ID}`,
              burl: `${this.base}/bill?auction=\${AUCTION_IMP_ID}&price=\${AUCTION_PRICE}&request=\${AUCTION_ID}`,
            })),
          },
        ],
      });
    if (path === '/bid') {
      if (this.bidDelayMs > 0) await new Promise((r) => setTimeout(r, this.bidDelayMs));
      res.writeHead(200, { 'content-type': 'application/json' }).end(answer());
    } else if (path === '/late') {
      setTimeout(() => {
        if (!res.destroyed) res.writeHead(200, { 'content-type': 'application/json' }).end(answer());
      }, this.lateMs);
    } else if (path === '/garbage') {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"seatbid": "lots of money"');
    } else if (path === '/nobid') {
      res.writeHead(204).end();
    }
    // '/silent': never answers.
  }
}
