import zlib from 'node:zlib';
import fastifyCompress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';

/** Answers smaller than this go out as they are: compressing a few hundred bytes costs more than it saves. */
export const COMPRESS_THRESHOLD_BYTES = 1024;

/**
 * Brotli (preferred) or gzip for every compressible answer above the threshold: API envelopes, the SPA fallback page
 * and files the build did not precompress. Files that already carry a Content-Encoding (the build's .br/.gz served by
 * server/static.ts) pass through untouched. Request bodies are not decompressed: clients send plain JSON, and
 * accepting compressed uploads would let a small body expand past the body limit.
 */
export async function registerCompression(app: FastifyInstance): Promise<void> {
  await app.register(fastifyCompress, {
    global: true,
    threshold: COMPRESS_THRESHOLD_BYTES,
    encodings: ['br', 'gzip'],
    // Quality 4 is brotli's speed/size sweet spot for answers built per request (11 is for build-time assets).
    brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } },
    globalDecompression: false,
  });
}
