import { ErrorCode, type UploadSignature } from '@marquee/protocol';

/** How a storage answered a direct upload: ok, or the error code it stands for. */
export type UploadAnswer = { ok: true; payload?: unknown } | { ok: false; code: number };

/** S3 error codes (XML `<Code>`) as the codes the console has messages for. */
const S3_CODES: Record<string, number> = {
  EntityTooLarge: ErrorCode.FILE_TOO_LARGE,
  EntityTooSmall: ErrorCode.UPLOAD_FILE_TOO_SMALL,
  InvalidPolicyDocument: ErrorCode.UPLOAD_POLICY_INVALID,
  SignatureDoesNotMatch: ErrorCode.UPLOAD_POLICY_INVALID,
  InvalidAccessKeyId: ErrorCode.UPLOAD_POLICY_INVALID,
};

/**
 * Reads a storage's answer to a direct upload: the local `POST /upload` answers the envelope
 * (`code` 0 is success, spec section 7 'Upload to storage'), an S3 bucket an empty 200/204 or
 * an XML error (`<Code>`; an expired policy is AccessDenied with "expired" in the message).
 */
export function readUploadAnswer(status: number, body: string): UploadAnswer {
  const text = body.trim();
  if (text.startsWith('{')) {
    try {
      const envelope = JSON.parse(text) as { code?: unknown; payload?: unknown };
      if (typeof envelope.code === 'number') {
        return envelope.code === 0 ? { ok: true, payload: envelope.payload } : { ok: false, code: envelope.code };
      }
    } catch {
      // not JSON: judged by the status below
    }
  }
  if (status >= 200 && status < 300) return { ok: true };
  const s3 = /<Code>([^<]+)<\/Code>/.exec(text)?.[1];
  if (s3 === 'AccessDenied' && /expired/i.test(text)) return { ok: false, code: ErrorCode.UPLOAD_POLICY_EXPIRED };
  if (s3 === 'AccessDenied') return { ok: false, code: ErrorCode.UPLOAD_POLICY_INVALID };
  return { ok: false, code: (s3 && S3_CODES[s3]) || ErrorCode.UPLOAD_FAILED };
}

/** The form of a direct upload: the signature's fields in order, `Content-Type` when absent, then `file`. */
export function uploadForm(signature: UploadSignature, file: Blob & { name?: string }): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(signature.fields)) form.append(name, value);
  if (!Object.keys(signature.fields).some((k) => k.toLowerCase() === 'content-type')) {
    form.append('Content-Type', file.type || 'application/octet-stream');
  }
  form.append('file', file, file.name ?? 'file');
  return form;
}

/** A running upload: its answer, and how to stop it. */
export interface PostedUpload {
  answer: Promise<UploadAnswer>;
  abort(): void;
}

/**
 * POSTs `file` with XMLHttpRequest (upload progress events, abort) to the signature's URL.
 * A network failure answers UPLOAD_FAILED; an abort rejects with an AbortError.
 */
export function postUpload(
  signature: UploadSignature,
  file: Blob & { name?: string },
  onProgress: (loaded: number) => void,
  language?: string,
): PostedUpload {
  const xhr = new XMLHttpRequest();
  const answer = new Promise<UploadAnswer>((resolve, reject) => {
    xhr.open('POST', signature.url);
    // The local store answers its messages in the console's language.
    if (language && signature.url.startsWith('/')) xhr.setRequestHeader('Accept-Language', language);
    xhr.upload.onprogress = (event) => onProgress(event.loaded);
    xhr.onload = () => resolve(readUploadAnswer(xhr.status, xhr.responseText ?? ''));
    xhr.onerror = () => resolve({ ok: false, code: ErrorCode.UPLOAD_FAILED });
    xhr.onabort = () => reject(new DOMException('upload cancelled', 'AbortError'));
    xhr.send(uploadForm(signature, file));
  });
  return { answer, abort: () => xhr.abort() };
}
