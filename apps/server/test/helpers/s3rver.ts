import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// @ts-expect-error s3rver ships no types
import S3rver from 's3rver';
import type { S3Config } from '../../src/config.js';

/** A real S3-protocol server (s3rver) on a free port with one bucket, for the S3 back end's tests. */
export async function startS3rver(bucket = 'marquee-test'): Promise<{ config: S3Config; stop(): Promise<void> }> {
  const directory = await mkdtemp(join(tmpdir(), 'marquee-s3rver-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  const address = (await server.run()) as AddressInfo;
  return {
    config: {
      endpoint: `http://127.0.0.1:${address.port}`,
      bucket,
      accessKey: 'S3RVER',
      secretKey: 'S3RVER',
      region: 'us-east-1',
      forcePathStyle: true,
      publicEndpoint: '',
    },
    async stop() {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
