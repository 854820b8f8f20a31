import type { EsignConfig } from '../../config.js';

/**
 * The e-signature provider of the airtime market's contracts (issue 28). A contract drawn up
 * with channel 'esign' is sent to it; the provider has the advertiser sign it and answers the
 * signed PDF. The protocol is a small JSON one over HTTP (docs/operations.md "E-signature
 * provider"):
 *
 *   POST <ESIGN_URL>/documents {id, title, pdfBase64, signer: {name, phone?}} -> {ref}
 *     (id is the contract's id: the provider treats a second POST of one id as the same document)
 *   GET  <ESIGN_URL>/documents/<ref> -> {state: 'pending'|'signed'|'rejected', signedAt?, signerName?, signedPdfBase64?}
 *
 * Both with `Authorization: Bearer <ESIGN_TOKEN>` when a token is set; each call is bounded by
 * ESIGN_TIMEOUT_MS. Any non-2xx answer, a malformed body or a timeout is an EsignError.
 */

export interface EsignDocument {
  id: string;
  no: string;
  title: string;
  pdf: Buffer;
  signer: { name: string; phone?: string };
}

export interface EsignStatus {
  state: 'pending' | 'signed' | 'rejected';
  signedAt?: Date;
  signerName?: string;
  signedPdf?: Buffer;
}

export interface EsignProvider {
  send(doc: EsignDocument): Promise<{ ref: string }>;
  status(ref: string): Promise<EsignStatus>;
}

/** A call to the provider that failed (its message goes to the contract's sync_error). */
export class EsignError extends Error {
  override name = 'EsignError';
}

const REF = /^[A-Za-z0-9._:-]{1,128}$/;

export class HttpEsignProvider implements EsignProvider {
  constructor(private readonly config: Pick<EsignConfig, 'url' | 'token' | 'timeoutMs'>) {}

  private async call(method: 'GET' | 'POST', path: string, body?: unknown): Promise<Record<string, unknown>> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (this.config.token) headers.authorization = `Bearer ${this.config.token}`;
    let response: Response;
    let text: string;
    try {
      // One deadline for the answer and its body (a provider may stall mid-body).
      const signal = AbortSignal.timeout(this.config.timeoutMs);
      response = await fetch(`${this.config.url}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal,
      });
      text = await response.text();
    } catch (error) {
      const name = (error as Error)?.name;
      if (name === 'TimeoutError' || name === 'AbortError')
        throw new EsignError(`${method} ${path}: no answer within ${this.config.timeoutMs} ms`);
      throw new EsignError(`${method} ${path}: ${(error as Error)?.message ?? String(error)}`);
    }
    if (!response.ok) throw new EsignError(`${method} ${path}: HTTP ${response.status} ${text.slice(0, 200)}`.trim());
    try {
      const parsed = JSON.parse(text) as unknown;
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
    } catch {
      // reported below
    }
    throw new EsignError(`${method} ${path}: the answer is not a JSON object`);
  }

  async send(doc: EsignDocument): Promise<{ ref: string }> {
    const answer = await this.call('POST', '/documents', {
      id: doc.id,
      no: doc.no,
      title: doc.title,
      pdfBase64: doc.pdf.toString('base64'),
      signer: doc.signer.phone ? { name: doc.signer.name, phone: doc.signer.phone } : { name: doc.signer.name },
    });
    const ref = answer.ref;
    if (typeof ref !== 'string' || !REF.test(ref)) throw new EsignError('POST /documents: the answer has no valid ref');
    return { ref };
  }

  async status(ref: string): Promise<EsignStatus> {
    if (!REF.test(ref)) throw new EsignError(`invalid ref ${JSON.stringify(ref)}`);
    const path = `/documents/${encodeURIComponent(ref)}`;
    const a = await this.call('GET', path);
    if (a.state === 'pending' || a.state === 'rejected') return { state: a.state };
    if (a.state !== 'signed') throw new EsignError(`GET ${path}: unknown state ${JSON.stringify(a.state)}`);
    if (typeof a.signedPdfBase64 !== 'string' || a.signedPdfBase64.length === 0)
      throw new EsignError(`GET ${path}: signed without signedPdfBase64`);
    const signedPdf = Buffer.from(a.signedPdfBase64, 'base64');
    if (signedPdf.subarray(0, 5).toString('latin1') !== '%PDF-')
      throw new EsignError(`GET ${path}: the signed file is not a PDF`);
    const signedAt = typeof a.signedAt === 'string' ? new Date(a.signedAt) : undefined;
    if (signedAt && Number.isNaN(signedAt.getTime())) throw new EsignError(`GET ${path}: invalid signedAt`);
    return {
      state: 'signed',
      signedPdf,
      signedAt,
      signerName: typeof a.signerName === 'string' ? a.signerName.slice(0, 200) : undefined,
    };
  }
}

/** The configured provider, or null when ESIGN_URL is not set. */
export function esignProvider(config: EsignConfig): EsignProvider | null {
  return config.url ? new HttpEsignProvider(config) : null;
}
