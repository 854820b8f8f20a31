import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A small e-signature provider speaking the protocol of docs/operations.md "E-signature
 * provider" (POST /documents, GET /documents/<ref>, bearer token), for the contract tests:
 * it keeps the documents it was sent, lets the test sign or reject one, and can answer 500
 * (`failNext`) or never answer (`hang`) to exercise the sync's failures.
 */
export interface ProviderDocument {
  ref: string;
  id: string;
  title: string;
  pdf: Buffer;
  signer: { name: string; phone?: string };
  state: 'pending' | 'signed' | 'rejected';
  signedAt?: string;
  signerName?: string;
  signedPdf?: Buffer;
}

export class EsignTestServer {
  readonly documents = new Map<string, ProviderDocument>();
  /** Calls seen: 'POST /documents', 'GET /documents/<ref>'. */
  readonly calls: string[] = [];
  /** Answer 500 to this many next calls. */
  failNext = 0;
  /** Never answer (the client's timeout must end the call). */
  hang = false;
  private server: Server | null = null;
  private readonly hanging = new Set<ServerResponse>();
  private seq = 0;

  constructor(readonly token: string) {}

  get url(): string {
    const address = this.server?.address() as AddressInfo;
    return `http://127.0.0.1:${address.port}`;
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    return this;
  }

  async stop(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.hanging.clear();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    this.server = null;
  }

  /** The document sent for a contract id. */
  byContract(id: string): ProviderDocument | undefined {
    return [...this.documents.values()].find((d) => d.id === id);
  }

  sign(ref: string, signerName: string, signedPdf: Buffer, signedAt = new Date()): void {
    const doc = this.documents.get(ref);
    if (!doc) throw new Error(`no document ${ref}`);
    Object.assign(doc, { state: 'signed', signerName, signedPdf, signedAt: signedAt.toISOString() });
  }

  reject(ref: string): void {
    const doc = this.documents.get(ref);
    if (!doc) throw new Error(`no document ${ref}`);
    doc.state = 'rejected';
  }

  private json(res: ServerResponse, status: number, body: unknown): void {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const path = (req.url ?? '').split('?')[0];
    this.calls.push(`${req.method} ${path}`);
    if (this.hang) {
      this.hanging.add(res);
      return;
    }
    if (this.failNext > 0) {
      this.failNext--;
      return this.json(res, 500, { error: 'provider unavailable' });
    }
    if (req.headers.authorization !== `Bearer ${this.token}`) return this.json(res, 401, { error: 'unauthorized' });
    if (req.method === 'POST' && path === '/documents') {
      let body: { id?: unknown; title?: unknown; pdfBase64?: unknown; signer?: { name?: unknown; phone?: unknown } };
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        return this.json(res, 400, { error: 'invalid JSON' });
      }
      if (typeof body.id !== 'string' || typeof body.pdfBase64 !== 'string' || typeof body.signer?.name !== 'string')
        return this.json(res, 400, { error: 'id, pdfBase64 and signer.name are required' });
      // One document per contract id (a second POST of the same id is the same document).
      const existing = this.byContract(body.id);
      if (existing && existing.state !== 'rejected') return this.json(res, 200, { ref: existing.ref });
      const ref = `doc-${++this.seq}`;
      this.documents.set(ref, {
        ref,
        id: body.id,
        title: String(body.title ?? ''),
        pdf: Buffer.from(body.pdfBase64, 'base64'),
        signer: {
          name: body.signer.name,
          ...(typeof body.signer.phone === 'string' ? { phone: body.signer.phone } : {}),
        },
        state: 'pending',
      });
      return this.json(res, 200, { ref });
    }
    const m = /^\/documents\/([^/]+)$/.exec(path);
    if (req.method === 'GET' && m) {
      const doc = this.documents.get(decodeURIComponent(m[1]));
      if (!doc) return this.json(res, 404, { error: 'no such document' });
      return this.json(res, 200, {
        state: doc.state,
        ...(doc.state === 'signed'
          ? { signedAt: doc.signedAt, signerName: doc.signerName, signedPdfBase64: doc.signedPdf?.toString('base64') }
          : {}),
      });
    }
    return this.json(res, 404, { error: 'not found' });
  }
}
