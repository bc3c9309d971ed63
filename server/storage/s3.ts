import { Readable } from 'node:stream';
import { assertSafeKey } from './object-keys.js';
import { type Storage, StorageNotFoundError } from './types.js';

/** STORAGE_DRIVER=s3: the S3_* settings (README.md, configuration). */
export interface S3Options {
  /** An S3-compatible endpoint (MinIO, 阿里云 OSS, 腾讯云 COS, Cloudflare R2 …); unset means AWS S3. */
  endpoint?: string;
  bucket: string;
  region: string;
  accessKey?: string;
  secretKey?: string;
  /** Public address of the bucket (or a CDN in front of it); default: the endpoint's path-style bucket URL. */
  publicUrl?: string;
}

/** `${endpoint}/${bucket}` for an explicit endpoint (path style), else the AWS virtual-hosted bucket address. */
export function defaultS3PublicUrl(options: Pick<S3Options, 'endpoint' | 'bucket' | 'region'>): string {
  if (options.endpoint) return `${options.endpoint.replace(/\/+$/, '')}/${encodeURIComponent(options.bucket)}`;
  return `https://${options.bucket}.s3.${options.region}.amazonaws.com`;
}

/**
 * S3-compatible driver on the official SDK (@aws-sdk/client-s3, loaded only when this driver is chosen).
 * Requests are signed with SigV4 by the SDK. With an explicit endpoint the bucket is addressed path-style
 * (`endpoint/bucket/key`), which every S3-compatible service accepts. Checksums are only sent when an operation
 * requires them, since several S3-compatible services refuse the SDK's default CRC32 trailers.
 * Objects must be publicly readable at S3_PUBLIC_URL (bucket policy or CDN); the server only writes, reads (resource
 * downloads) and deletes them.
 */
export async function createS3Storage(options: S3Options): Promise<Storage> {
  if (!options.bucket) throw new Error('STORAGE_DRIVER=s3 需要设置 S3_BUCKET');
  if (Boolean(options.accessKey) !== Boolean(options.secretKey)) throw new Error('S3_ACCESS_KEY 与 S3_SECRET_KEY 需要同时设置（或都不设置，使用默认凭证链）');
  const sdk = await import('@aws-sdk/client-s3');
  const client = new sdk.S3Client({
    region: options.region,
    endpoint: options.endpoint,
    forcePathStyle: Boolean(options.endpoint),
    credentials: options.accessKey && options.secretKey ? { accessKeyId: options.accessKey, secretAccessKey: options.secretKey } : undefined,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const Bucket = options.bucket;
  const base = (options.publicUrl || defaultS3PublicUrl(options)).replace(/\/+$/, '');
  const urlFor = (key: string) => {
    assertSafeKey(key);
    return `${base}/${key}`;
  };

  return {
    driver: 's3',
    publicBase: base,
    urlFor,
    async put(key, body, contentType) {
      assertSafeKey(key);
      await client.send(
        new sdk.PutObjectCommand({
          Bucket,
          Key: key,
          Body: body,
          ContentType: contentType,
          ContentLength: body.length,
          // Keys are random and never rewritten: cache for good.
          CacheControl: 'public, max-age=31536000, immutable',
        }),
      );
      return urlFor(key);
    },
    async get(key) {
      assertSafeKey(key);
      try {
        const out = await client.send(new sdk.GetObjectCommand({ Bucket, Key: key }));
        const body = out.Body as unknown;
        if (body instanceof Readable) return body;
        if (body && typeof (body as { transformToWebStream?: unknown }).transformToWebStream === 'function') {
          return Readable.fromWeb((body as { transformToWebStream: () => import('node:stream/web').ReadableStream }).transformToWebStream());
        }
        throw new StorageNotFoundError(key);
      } catch (error) {
        const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
        if (e.name === 'NoSuchKey' || e.name === 'NotFound' || e.$metadata?.httpStatusCode === 404) throw new StorageNotFoundError(key);
        throw error;
      }
    },
    async delete(key) {
      assertSafeKey(key);
      await client.send(new sdk.DeleteObjectCommand({ Bucket, Key: key }));
    },
    async close() {
      client.destroy();
    },
  };
}
