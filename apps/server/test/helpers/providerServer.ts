import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the local provider received. */
export interface ProviderRequest {
  path: string;
  url: URL;
  authorization: string | undefined;
}

/**
 * A local stand-in for an outside data provider (the weather and share-price services): a real
 * HTTP server on 127.0.0.1 answering JSON from `answer`, recording every request. `status`
 * other than 200 makes it fail (an outage); `answer` returning undefined answers 404.
 */
export interface ProviderServer {
  /** http://127.0.0.1:<port> */
  base: string;
  requests: ProviderRequest[];
  status: number;
  /** Forget the requests and answer 200 again (afterEach). */
  reset(): void;
  close(): Promise<void>;
}

export async function startProviderServer(
  answer: (url: URL, req: IncomingMessage) => unknown,
): Promise<ProviderServer> {
  const state = { status: 200 };
  const requests: ProviderRequest[] = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://provider.test');
    requests.push({ path: req.url ?? '', url, authorization: req.headers.authorization });
    if (state.status !== 200) {
      res.writeHead(state.status).end();
      return;
    }
    const body = answer(url, req);
    if (body === undefined) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    requests,
    get status() {
      return state.status;
    },
    set status(v: number) {
      state.status = v;
    },
    reset() {
      requests.length = 0;
      state.status = 200;
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
