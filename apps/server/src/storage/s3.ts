import { createHmac } from 'node:crypto';
import type { Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { S3Config } from '../config.js';
import { byteLimit } from './local.js';
import type { UploadPolicyRequest, UploadSignature } from './policy.js';
import { type ByteRange, checkKey, type FileStorage, type PutOptions, type StoredObject } from './storage.js';

/**
 * A put streams in parts of this size (S3's minimum is 5 MiB, except the last): at most one
 * part is held in memory per upload, whatever the file's size.
 */
export const S3_PART_BYTES = 8 * 1024 * 1024;

const isMissing = (error: unknown) => {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NotFound' || e?.name === 'NoSuchKey' || e?.$metadata?.httpStatusCode === 404;
};

const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data).digest();

/** `20261123T080000Z` and `20261123` of a time (SigV4). */
function amzDates(ms: number): { amzDate: string; day: string } {
  const amzDate = new Date(ms)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
  return { amzDate, day: amzDate.slice(0, 8) };
}

/** The SigV4 signature of an S3 POST policy (base64 text) for `day` and `region`. */
export function signPostPolicy(secretKey: string, day: string, region: string, policy: string): string {
  const key = hmac(hmac(hmac(hmac(`AWS4${secretKey}`, day), region), 's3'), 'aws4_request');
  return createHmac('sha256', key).update(policy).digest('hex');
}

/** The POST policy's content-type condition: one exact type, or the widest common prefix. */
function contentTypeCondition(req: UploadPolicyRequest): { exact?: string; prefix?: string } {
  if (req.contentType) return { exact: req.contentType };
  if (req.contentTypes.length === 1) {
    const only = req.contentTypes[0];
    return only.endsWith('/') ? { prefix: only } : { exact: only };
  }
  // S3 has no "one of": the common prefix up to a '/', checked again by content on verify.
  let prefix = req.contentTypes[0];
  for (const t of req.contentTypes) while (!t.startsWith(prefix)) prefix = prefix.slice(0, -1);
  return { prefix: prefix.includes('/') ? prefix.slice(0, prefix.indexOf('/') + 1) : '' };
}

/**
 * An S3-compatible store (AWS S3, MinIO, Ceph, OSS in S3 mode): one bucket, keys as they are.
 * Puts stream in parts (multipart upload above one part, aborted on failure, so an object
 * appears whole or not at all); direct uploads are S3 POST policies the bucket checks itself.
 */
export class S3Storage implements FileStorage {
  readonly kind = 's3';
  readonly client: S3Client;
  /** Presigns for browsers: the public endpoint when it differs. */
  private readonly publicClient: S3Client;

  constructor(private readonly config: S3Config) {
    const options = (endpoint: string) =>
      new S3Client({
        region: config.region,
        endpoint: endpoint || undefined,
        forcePathStyle: config.forcePathStyle,
        credentials: { accessKeyId: config.accessKey, secretAccessKey: config.secretKey },
        // Checksums only where S3 requires them: MinIO, Ceph and older stores reject the rest.
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
      });
    this.client = options(config.endpoint);
    this.publicClient = config.publicEndpoint ? options(config.publicEndpoint) : this.client;
  }

  private get bucket() {
    return this.config.bucket;
  }

  async put(key: string, body: Readable, options: PutOptions): Promise<StoredObject> {
    checkKey(key);
    const counted = { bytes: 0 };
    const limited = body.pipe(byteLimit(options.maxBytes ?? Number.MAX_SAFE_INTEGER, counted));
    body.on('error', (error) => limited.destroy(error));
    const base = { Bucket: this.bucket, Key: key };
    let uploadId: string | undefined;
    const parts: { ETag: string | undefined; PartNumber: number }[] = [];
    const sendPart = async (data: Buffer) => {
      const PartNumber = parts.length + 1;
      const answer = await this.client.send(
        new UploadPartCommand({ ...base, UploadId: uploadId, PartNumber, Body: data, ContentLength: data.length }),
      );
      parts.push({ ETag: answer.ETag, PartNumber });
    };
    let chunks: Buffer[] = [];
    let buffered = 0;
    try {
      for await (const chunk of limited as AsyncIterable<Buffer>) {
        chunks.push(chunk);
        buffered += chunk.length;
        if (buffered >= S3_PART_BYTES) {
          if (!uploadId) {
            const created = await this.client.send(
              new CreateMultipartUploadCommand({ ...base, ContentType: options.contentType }),
            );
            uploadId = created.UploadId;
          }
          const data = Buffer.concat(chunks);
          chunks = [];
          buffered = 0;
          await sendPart(data);
        }
      }
      const rest = Buffer.concat(chunks);
      chunks = [];
      if (!uploadId) {
        await this.client.send(
          new PutObjectCommand({ ...base, Body: rest, ContentLength: rest.length, ContentType: options.contentType }),
        );
      } else {
        if (rest.length > 0) await sendPart(rest);
        await this.client.send(
          new CompleteMultipartUploadCommand({ ...base, UploadId: uploadId, MultipartUpload: { Parts: parts } }),
        );
      }
    } catch (error) {
      limited.destroy();
      body.resume?.();
      if (uploadId) {
        await this.client.send(new AbortMultipartUploadCommand({ ...base, UploadId: uploadId })).catch(() => {});
      }
      throw error;
    }
    return { key, size: counted.bytes, contentType: options.contentType };
  }

  async stat(key: string): Promise<StoredObject | null> {
    checkKey(key);
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return { key, size: head.ContentLength ?? 0, contentType: head.ContentType ?? 'application/octet-stream' };
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async get(key: string, range?: ByteRange): Promise<{ object: StoredObject; body: Readable } | null> {
    checkKey(key);
    try {
      const answer = await this.client.send(
        new GetObjectCommand({
          Bucket: this.bucket,
          Key: key,
          Range: range ? `bytes=${range.start}-${range.end}` : undefined,
        }),
      );
      const total = /\/(\d+)$/.exec(answer.ContentRange ?? '')?.[1];
      const object = {
        key,
        size: total ? Number(total) : (answer.ContentLength ?? 0),
        contentType: answer.ContentType ?? 'application/octet-stream',
      };
      return { object, body: answer.Body as Readable };
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async exists(key: string): Promise<boolean> {
    return (await this.stat(key)) !== null;
  }

  async delete(key: string): Promise<void> {
    checkKey(key);
    try {
      await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
    } catch (error) {
      if (!isMissing(error)) throw error;
    }
  }

  /** A presigned GET of the object straight from the bucket (Files.directUrl). */
  presignGet(key: string, ttlSec: number): Promise<string> {
    checkKey(key);
    return getSignedUrl(this.publicClient, new GetObjectCommand({ Bucket: this.bucket, Key: key }), {
      expiresIn: ttlSec,
    });
  }

  /** Where browsers POST to the bucket (path style `<endpoint>/<bucket>`, else `<bucket>.<host>`). */
  postUrl(): string {
    const endpoint =
      this.config.publicEndpoint || this.config.endpoint || `https://s3.${this.config.region}.amazonaws.com`;
    if (this.config.forcePathStyle) return `${endpoint}/${this.bucket}`;
    const url = new URL(endpoint);
    return `${url.protocol}//${this.bucket}.${url.host}`;
  }

  /**
   * An S3 POST policy (SigV4) for exactly `req.key`: bucket, key, content-length-range,
   * content type, success status 200 and the SigV4 fields, signed with the secret key. The
   * callback is not sent to the bucket (S3 refuses fields its policy does not name): the
   * verify call runs it (Files.runCallback).
   */
  createPost(req: UploadPolicyRequest, times: { now: number; expiresAt: number }, callback: string): UploadSignature {
    const { amzDate, day } = amzDates(times.now);
    const credential = `${this.config.accessKey}/${day}/${this.config.region}/s3/aws4_request`;
    const type = contentTypeCondition(req);
    const fields: Record<string, string> = { key: req.key };
    if (type.exact) fields['Content-Type'] = type.exact;
    fields.success_action_status = '200';
    fields['x-amz-algorithm'] = 'AWS4-HMAC-SHA256';
    fields['x-amz-credential'] = credential;
    fields['x-amz-date'] = amzDate;
    const conditions: unknown[] = [
      { bucket: this.bucket },
      { key: req.key },
      ['content-length-range', req.minBytes, req.maxBytes],
      type.exact !== undefined ? { 'Content-Type': type.exact } : ['starts-with', '$Content-Type', type.prefix ?? ''],
      { success_action_status: '200' },
      { 'x-amz-algorithm': 'AWS4-HMAC-SHA256' },
      { 'x-amz-credential': credential },
      { 'x-amz-date': amzDate },
    ];
    const policy = Buffer.from(
      JSON.stringify({ expiration: new Date(times.expiresAt).toISOString(), conditions }),
    ).toString('base64');
    const signature = signPostPolicy(this.config.secretKey, day, this.config.region, policy);
    fields.policy = policy;
    fields['x-amz-signature'] = signature;
    return {
      accessId: this.config.accessKey,
      policy,
      signature,
      key: req.key,
      callback,
      url: this.postUrl(),
      fields,
      expiresAt: times.expiresAt,
    };
  }
}
