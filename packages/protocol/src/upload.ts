import { z } from 'zod';

/**
 * The direct upload of spec section 3/7 ('Upload to storage'): the server signs a policy for
 * one exact object key (access-id, policy, key, signature, callback), the console POSTs a
 * multipart form with those fields followed by `file` straight to the storage (`url`): the
 * server's own `POST /upload` for local disk, the bucket (S3 POST policy) for S3 back ends.
 * The storage refuses a forged or expired policy, another key, a file outside the size range
 * or of a type the policy does not name, and writes nothing then.
 */
export const uploadSignatureSchema = z.object({
  /** Who signed: the S3 access key id, or the local signing key's id. */
  accessId: z.string(),
  /** The policy document, base64 (S3: the POST policy). */
  policy: z.string(),
  /** The policy's signature (S3: X-Amz-Signature). */
  signature: z.string(),
  /** The exact object key the policy allows. */
  key: z.string(),
  /** base64 JSON `{ name, body }` of the callback the local store runs after the upload, or ''. */
  callback: z.string(),
  /** Where the browser POSTs the multipart form (absolute for S3, a path of this server for local disk). */
  url: z.string(),
  /**
   * Every form field to send before `file`, in this order. When it has no `Content-Type`,
   * the client adds `Content-Type` = the file's type after them (S3 checks it against the policy).
   */
  fields: z.record(z.string(), z.string()),
  /** When the policy stops being accepted (ms since the epoch). */
  expiresAt: z.number(),
});
export type UploadSignature = z.infer<typeof uploadSignatureSchema>;

/** The answer of the local `POST /upload` on success (`{ code: 0, message, payload }`). */
export interface UploadResult {
  key: string;
  size: number;
  /** What the named callback returned, when it returned something. */
  callback?: unknown;
}

/** Whether `contentType` is one a policy's `contentTypes` allows (exact, or a prefix ending in '/'). */
export function contentTypeAllowed(contentType: string, allowed: readonly string[]): boolean {
  const type = contentType.split(';')[0].trim().toLowerCase();
  if (!type) return false;
  return allowed.some((a) => {
    const rule = a.toLowerCase();
    return rule.endsWith('/') ? type.startsWith(rule) && type.length > rule.length : type === rule;
  });
}
