import fs from 'node:fs';
import path from 'node:path';
import { FileStore } from '@tus/file-store';
import { Server as TusServer, type Upload } from '@tus/server';
import type { FastifyInstance } from 'fastify';
import { markBackground } from '../http/foreground.js';
import { createStorage, newObjectKey } from '../storage/index.js';
import { uploadRoot } from '../storage/roots.js';

/**
 * Video upload for 课程视频 (spec §7.7 ManagerClassroom/videoUpload) over the tus resumable-upload protocol
 * (@tus/server + @tus/file-store): the console sends the file in chunks; a dropped connection resumes from the
 * offset the server reports (HEAD), so a 500 MB file never starts over and never sits in memory. Every request
 * passes the normal gate (signature, session, permission operation:video:add). When the last byte arrives the file
 * is checked by content (MP4 / WebM / Ogg), moved into storage under video/yyyy/mm/dd/<random>.<ext> and its public
 * URL answered in the `X-Video-Url` header; /profile/ serves it with HTTP range requests, so players can seek.
 */

export const VIDEO_UPLOAD_PATH = '/appv2/api/ManagerClassroom/videoUpload';
export const VIDEO_PERMISSION = 'operation:video:add';

/** The size cap (VIDEO_MAX_MB, default 2048 MB). */
export function videoMaxBytes(env: NodeJS.ProcessEnv = process.env): number {
  const mb = Number(env.VIDEO_MAX_MB ?? 2048);
  return Math.floor((Number.isFinite(mb) && mb > 0 ? mb : 2048) * 1024 * 1024);
}

const megabytes = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;

/** The container a file's first bytes announce, or null when it is not a video we accept. */
export function sniffVideo(head: Buffer): 'mp4' | 'webm' | 'ogv' | null {
  if (head.length >= 12 && head.subarray(4, 8).toString('latin1') === 'ftyp') return 'mp4';
  if (head.length >= 4 && head.readUInt32BE(0) === 0x1a45dfa3) return 'webm';
  if (head.length >= 4 && head.subarray(0, 4).toString('latin1') === 'OggS') return 'ogv';
  return null;
}

const refuse = (status_code: number, message: string) => ({ status_code, body: message });

/**
 * @tus/file-store creates its folder with an asynchronous mkdir whose callback *throws* on failure: if a data folder is
 * removed right after a server closes (tests do), that throw is an uncaught exception. The folder is made synchronously
 * before the store exists, so the store's own check is not needed.
 */
class ExistingDirFileStore extends (FileStore as new (options: { directory: string }) => FileStore) {}
// Private in the typings, a plain prototype method at run time; the base constructor calls it, so it is replaced on
// the subclass's prototype (an instance patch would come too late).
(ExistingDirFileStore.prototype as unknown as { checkOrCreateDirectory: () => void }).checkOrCreateDirectory = () => undefined;
const existingDirFileStore = (directory: string): FileStore => new ExistingDirFileStore({ directory });

export async function registerVideoUpload(app: FastifyInstance): Promise<void> {
  const maxBytes = videoMaxBytes();
  const tmpDir = path.join(app.config.dataDir, 'tus', 'video');
  fs.mkdirSync(tmpDir, { recursive: true });
  const storage = await createStorage(app.config);

  const tus = new TusServer({
    path: VIDEO_UPLOAD_PATH,
    datastore: existingDirFileStore(tmpDir),
    relativeLocation: true,
    // The console is on the same origin: no cross-origin uploads (tus would otherwise answer Access-Control-Allow-Origin: *).
    allowedOrigins: () => false,
    // The browser's request body is the file itself; nothing else is accepted.
    async onUploadCreate(_req, upload: Upload) {
      if (upload.size === undefined) throw refuse(400, '请先提供视频文件大小');
      if (upload.size > maxBytes) throw refuse(413, `视频大小不能超过 ${megabytes(maxBytes)}`);
      const type = String(upload.metadata?.filetype ?? '');
      const name = String(upload.metadata?.filename ?? '');
      if (!/^video\/(mp4|webm|ogg|quicktime)$/.test(type) && !/\.(mp4|m4v|webm|ogv|mov)$/i.test(name)) {
        throw refuse(400, '文件格式不正确，请上传 MP4 / WebM / Ogg 视频');
      }
      return {};
    },
    async onUploadFinish(_req, upload: Upload) {
      const file = path.join(tmpDir, upload.id);
      const head = Buffer.alloc(16);
      const fd = fs.openSync(file, 'r');
      try {
        fs.readSync(fd, head, 0, 16, 0);
      } finally {
        fs.closeSync(fd);
      }
      const ext = sniffVideo(head);
      if (!ext) {
        await fs.promises.rm(file, { force: true });
        throw refuse(400, '文件内容不是有效的视频（仅支持 MP4 / WebM / Ogg）');
      }
      const key = newObjectKey('video', ext === 'mp4' ? 'mp4' : ext === 'webm' ? 'webm' : 'ogv');
      let url: string;
      if (storage.driver === 'local') {
        const target = path.join(uploadRoot(app.config.dataDir), key);
        await fs.promises.mkdir(path.dirname(target), { recursive: true });
        await fs.promises.rename(file, target);
        url = storage.urlFor(key);
      } else {
        // Object storage: the SDK takes the bytes in one piece (videos beyond memory need a multipart upload — see docs/content.md).
        url = await storage.put(key, await fs.promises.readFile(file), `video/${ext === 'ogv' ? 'ogg' : ext}`);
        await fs.promises.rm(file, { force: true });
      }
      await fs.promises.rm(`${file}.json`, { force: true });
      return { headers: { 'X-Video-Url': url } };
    },
  });

  await app.register(async (child) => {
    // tus PATCH bodies are streamed to the file store as they arrive: Fastify must not read them.
    child.addContentTypeParser('application/offset+octet-stream', (_request, _payload, done) => done(null));
    const handler = async (request: import('fastify').FastifyRequest, reply: import('fastify').FastifyReply) => {
      // A hijacked answer never reaches onResponse: it stops counting as a request in flight now (server/http/foreground.ts).
      markBackground(request);
      reply.hijack();
      await tus.handle(request.raw, reply.raw);
    };
    // Not a repeat-guarded write: a tus request carries its offset, and a repeated chunk is refused by tus itself (409).
    const config = { permission: VIDEO_PERMISSION, write: false };
    child.route({ method: ['POST'], url: VIDEO_UPLOAD_PATH, config, handler });
    child.route({ method: ['HEAD', 'PATCH', 'DELETE'], url: `${VIDEO_UPLOAD_PATH}/:uploadId`, config, handler });
  });
}
