import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, Code, fail, ok } from '../http/envelope.js';
import { createStorage, isSafeKey, keyBaseName, newObjectKey, type Storage, StorageNotFoundError } from './index.js';
import { downloadRoot } from './roots.js';
import { detectType, EDITOR_IMAGE_TYPES, extensionOf, hasControlChar, IMAGE_TYPES, mimeOf, UPLOAD_TYPES } from './sniff.js';
import { loadOrCreateUploadSecret, qiniuEtag, signUploadToken, verifyUploadToken } from './upload-token.js';

/**
 * Upload and download (spec §7.6, §5 upload messages, §9 limits):
 *  - POST /dev-api/common/upload, /dev-api/common/uploads: RuoYi's common upload (one file / up to 5), 5 MB each;
 *  - POST /appv2/api/index/imageUpload: an image, answered as data {url, key};
 *  - GET /appv2/api/myqiniu/getQiniuUploadToken + POST /appv2/api/myqiniu/upload: the Qiniu-style token flow, served
 *    by this server (the token is a short-lived HMAC, see storage/upload-token.ts);
 *  - POST (or GET) /appv2/api/Ueditor/config + POST /appv2/api/Ueditor/upload: the rich-text editor's images (png/jpg/jpeg/svg,
 *    3 MB, svg only without scripts, handlers or external references);
 *  - GET /dev-api/common/download?fileName=&delete=: a file of DATA_DIR/download (export outputs);
 *  - GET /dev-api/common/download/resource?resource=/profile/…: a stored upload.
 * Types are judged by extension AND content (storage/sniff.ts); stored names are generated (storage/object-keys.ts).
 */

const MB = 1024 * 1024;
export const UPLOAD_MAX_BYTES = 5 * MB;
export const UPLOAD_MAX_COUNT = 5;
export const EDITOR_IMAGE_MAX_BYTES = 3145728;
export const TOKEN_UPLOAD_URL = '/appv2/api/myqiniu/upload';
const RESOURCE_PREFIX = '/profile/';
/** What may be fetched from DATA_DIR/download: the upload types plus spreadsheet text exports. */
const DOWNLOAD_TYPES: readonly string[] = [...UPLOAD_TYPES, 'csv'];
const RESOURCE_TYPES: readonly string[] = [...UPLOAD_TYPES, 'svg'];

export const FILE_MESSAGES = {
  noFile: '请选择要上传的文件',
  noImage: '请选择要上传的图片',
  tooBig: `上传文件大小不能超过 ${UPLOAD_MAX_BYTES / MB} MB!`,
  badType: `文件格式不正确, 请上传${UPLOAD_TYPES.join('/')}格式文件!`,
  tooMany: (n: number) => `上传文件数量不能超过 ${n} 个!`,
  imageTooBig: `上传图片大小不能超过 ${UPLOAD_MAX_BYTES / MB} MB!`,
  imageBadType: `文件格式不正确, 请上传${IMAGE_TYPES.join('/')}图片格式文件!`,
  editorBadType: '图片格式错误!',
  editorTooBig: `图片大小不能超过 ${EDITOR_IMAGE_MAX_BYTES / MB} MB!`,
  badForm: '上传数据格式不正确，请重新选择文件上传',
  tokenMissing: '缺少上传凭证，请重新获取后再上传',
  tokenInvalid: '上传凭证无效，请重新获取后再上传',
  tokenExpired: '上传凭证已过期，请重新获取后再上传',
  illegalDownload: (name: string) => `文件名称(${echo(name)})非法，不允许下载。`,
  illegalResource: (name: string) => `资源文件(${echo(name)})非法，不允许下载。`,
  notFound: '文件不存在或已被删除',
} as const;

/** A refused name is echoed (RuoYi does), cut short when absurdly long. */
const echo = (name: string) => (name.length > 255 ? `${name.slice(0, 255)}…` : name);

interface Received {
  fieldname: string;
  /** The client's name without any folder part; only echoed back, never used to store. */
  originalFilename: string;
  ext: string;
  buffer: Buffer;
  /** Longer than the limit (only the first maxBytes were kept). */
  truncated: boolean;
}

interface ReceiveOptions {
  maxBytes: number;
  maxFiles: number;
  /** File fields to keep (others are read and dropped); null keeps every file field. */
  fileFields: readonly string[] | null;
  /** Called when a kept file starts, with the fields seen so far; may throw to refuse before the file is read. */
  beforeFile?: (fields: Record<string, string>) => void;
}

const baseName = (fileName: string) => fileName.slice(Math.max(fileName.lastIndexOf('/'), fileName.lastIndexOf('\\')) + 1).slice(0, 255);

/** Reads a multipart form: text fields and the kept files (each cut at maxBytes; more than maxFiles is refused). */
async function receive(request: FastifyRequest, options: ReceiveOptions): Promise<{ files: Received[]; fields: Record<string, string> }> {
  const files: Received[] = [];
  const fields: Record<string, string> = {};
  if (!request.isMultipart()) return { files, fields };
  // throwFileSizeLimit off: an over-size file arrives truncated and is refused with the size message.
  const parts = request.parts({ limits: { fileSize: options.maxBytes, files: options.maxFiles }, throwFileSizeLimit: false } as Parameters<
    FastifyRequest['parts']
  >[0]);
  try {
    for await (const part of parts) {
      if (part.type === 'field') {
        if (fields[part.fieldname] === undefined && typeof part.value === 'string') fields[part.fieldname] = part.value;
        continue;
      }
      if (options.fileFields && !options.fileFields.includes(part.fieldname)) {
        await part.toBuffer();
        continue;
      }
      options.beforeFile?.(fields);
      const buffer = await part.toBuffer();
      // An empty file input (no file chosen) arrives as a part without name and bytes.
      if (!part.filename && buffer.length === 0) continue;
      files.push({
        fieldname: part.fieldname,
        originalFilename: baseName(part.filename ?? ''),
        ext: extensionOf(part.filename ?? ''),
        buffer,
        truncated: part.file.truncated,
      });
    }
  } catch (error) {
    // Refused part-way: let the rest of the body run off (unread, it would stall the client's upload and the socket).
    request.raw.unpipe();
    request.raw.resume();
    if (error instanceof ApiError) throw error;
    if ((error as { code?: string }).code === 'FST_FILES_LIMIT') throw fail(FILE_MESSAGES.tooMany(options.maxFiles));
    request.log.warn({ err: error }, 'multipart upload refused');
    throw fail(FILE_MESSAGES.badForm);
  }
  return { files, fields };
}

interface TypeRule {
  allowed: readonly string[];
  badType: string;
  tooBig: string;
}

const COMMON_RULE: TypeRule = { allowed: UPLOAD_TYPES, badType: FILE_MESSAGES.badType, tooBig: FILE_MESSAGES.tooBig };
const IMAGE_RULE: TypeRule = { allowed: IMAGE_TYPES, badType: FILE_MESSAGES.imageBadType, tooBig: FILE_MESSAGES.imageTooBig };
const EDITOR_RULE: TypeRule = { allowed: EDITOR_IMAGE_TYPES, badType: FILE_MESSAGES.editorBadType, tooBig: FILE_MESSAGES.editorTooBig };

/** Extension first (no need to look further), then size, then content. Answers the extension to store under. */
function checkFile(file: Received, rule: TypeRule): string {
  if (!rule.allowed.includes(file.ext)) throw fail(rule.badType);
  if (file.truncated) throw fail(rule.tooBig);
  const ext = detectType(file.buffer, file.ext, rule.allowed);
  if (!ext) throw fail(rule.badType);
  return ext;
}

interface Stored {
  key: string;
  url: string;
  /** RuoYi's fileName: the resource path /profile/<key> (what download/resource takes). */
  fileName: string;
  newFileName: string;
  originalFilename: string;
}

/** Stores checked files; all or nothing (a failure removes what was already stored). */
async function storeAll(storage: Storage, folder: string, items: Array<{ file: Received; ext: string }>): Promise<Stored[]> {
  const stored: Stored[] = [];
  try {
    for (const { file, ext } of items) {
      const key = newObjectKey(folder, ext);
      const url = await storage.put(key, file.buffer, mimeOf(ext));
      stored.push({ key, url, fileName: `${RESOURCE_PREFIX}${key}`, newFileName: keyBaseName(key), originalFilename: file.originalFilename });
    }
  } catch (error) {
    await Promise.allSettled(stored.map((s) => storage.delete(s.key)));
    throw error;
  }
  return stored;
}

/** RFC 5987 / download-filename encoding: encodeURIComponent plus the characters it leaves that headers dislike. */
const encodeName = (name: string) => encodeURIComponent(name).replace(/['()*!]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

function sendAttachment(reply: FastifyReply, name: string, stream: Readable, size?: number) {
  const encoded = encodeName(name);
  reply
    .header('content-type', 'application/octet-stream')
    .header('content-disposition', `attachment; filename="${encoded}"; filename*=UTF-8''${encoded}`)
    .header('download-filename', encoded)
    .header('access-control-expose-headers', 'download-filename, content-disposition')
    .header('cache-control', 'no-store')
    .header('x-content-type-options', 'nosniff');
  if (size !== undefined) reply.header('content-length', size);
  return reply.send(stream);
}

/** A plain file name inside DATA_DIR/download: no folders, no '..', no encodings, an allowed extension. */
function isSafeDownloadName(name: string): boolean {
  if (!name || name.length > 255) return false;
  for (const form of [name, name.normalize('NFKC')]) {
    if (form.includes('..') || form.startsWith('.') || form.startsWith('~')) return false;
    // Folders (either slash), drive letters and streams (:), encoded leftovers (%), control characters.
    if (/[/\\:%]/.test(form) || hasControlChar(form)) return false;
  }
  return DOWNLOAD_TYPES.includes(extensionOf(name));
}

const NOFOLLOW = fs.constants.O_NOFOLLOW ?? 0;

/** Opens a regular file without following a symbolic link; null when there is none. */
async function openRegularFile(abs: string): Promise<{ handle: fs.promises.FileHandle; size: number } | null> {
  let handle: fs.promises.FileHandle | undefined;
  try {
    handle = await fs.promises.open(abs, fs.constants.O_RDONLY | NOFOLLOW);
    const stat = await handle.stat();
    if (!stat.isFile()) {
      await handle.close();
      return null;
    }
    return { handle, size: stat.size };
  } catch (error) {
    await handle?.close().catch(() => {});
    if (['ENOENT', 'ENOTDIR', 'ELOOP', 'EISDIR'].includes((error as NodeJS.ErrnoException).code ?? '')) return null;
    throw error;
  }
}

const queryString = (value: unknown): string => (typeof value === 'string' ? value : value === undefined || value === null ? '' : String(value));

export async function filesRoutes(app: FastifyInstance) {
  const storage = await createStorage(app.config);
  const tokenSecret = loadOrCreateUploadSecret(app.config.dataDir);
  app.addHook('onClose', async () => {
    await storage.close?.();
  });

  // RuoYi CommonController.uploadFile: {code, msg, url, fileName, newFileName, originalFilename}.
  app.post('/dev-api/common/upload', { config: { permission: 'login', write: true } }, async (request) => {
    const { files } = await receive(request, { maxBytes: UPLOAD_MAX_BYTES, maxFiles: 1, fileFields: ['file'] });
    const file = files[0];
    if (!file) throw fail(FILE_MESSAGES.noFile);
    const [stored] = await storeAll(storage, 'upload', [{ file, ext: checkFile(file, COMMON_RULE) }]);
    return {
      code: Code.OK,
      msg: '操作成功',
      url: stored.url,
      fileName: stored.fileName,
      newFileName: stored.newFileName,
      originalFilename: stored.originalFilename,
    };
  });

  // RuoYi CommonController.uploadFiles: the same, comma-joined (urls, fileNames, …), plus the list in data.
  app.post('/dev-api/common/uploads', { config: { permission: 'login', write: true } }, async (request) => {
    const { files } = await receive(request, { maxBytes: UPLOAD_MAX_BYTES, maxFiles: UPLOAD_MAX_COUNT, fileFields: ['files', 'file'] });
    if (files.length === 0) throw fail(FILE_MESSAGES.noFile);
    const checked = files.map((file) => ({ file, ext: checkFile(file, COMMON_RULE) }));
    const stored = await storeAll(storage, 'upload', checked);
    const join = (field: keyof Stored) => stored.map((s) => s[field]).join(',');
    return {
      code: Code.OK,
      msg: '操作成功',
      urls: join('url'),
      fileNames: join('fileName'),
      newFileNames: join('newFileName'),
      originalFilenames: join('originalFilename'),
      data: stored.map(({ url, fileName, newFileName, originalFilename }) => ({ url, fileName, newFileName, originalFilename })),
    };
  });

  app.post('/appv2/api/index/imageUpload', { config: { permission: 'login', write: true } }, async (request) => {
    const { files } = await receive(request, { maxBytes: UPLOAD_MAX_BYTES, maxFiles: 1, fileFields: null });
    const file = files[0];
    if (!file) throw fail(FILE_MESSAGES.noImage);
    const [stored] = await storeAll(storage, 'image', [{ file, ext: checkFile(file, IMAGE_RULE) }]);
    return ok({ url: stored.url, key: stored.key }, '上传成功');
  });

  // data: [token, uploadUrl, domain]; the file's address is `${domain}/${key}` with the key the upload answers.
  app.get('/appv2/api/myqiniu/getQiniuUploadToken', { config: { permission: 'login', write: false } }, async (request) => {
    const { token } = signUploadToken(tokenSecret, request.auth!.userId);
    return ok([token, TOKEN_UPLOAD_URL, storage.publicBase]);
  });

  // Public (the caller holds no session, like a cloud storage host) but only with a valid, unexpired token, which like
  // Qiniu's must come before the file in the form. Answers Qiniu's {key, hash}.
  app.post(TOKEN_UPLOAD_URL, { config: { permission: 'public', write: true } }, async (request) => {
    const tokenProblem = (fields: Record<string, string>) => {
      const check = verifyUploadToken(tokenSecret, fields.token);
      if (check.ok) return;
      throw fail(
        check.reason === 'expired' ? FILE_MESSAGES.tokenExpired : check.reason === 'missing' ? FILE_MESSAGES.tokenMissing : FILE_MESSAGES.tokenInvalid,
      );
    };
    const { files, fields } = await receive(request, { maxBytes: UPLOAD_MAX_BYTES, maxFiles: 1, fileFields: ['file'], beforeFile: tokenProblem });
    tokenProblem(fields);
    const file = files[0];
    if (!file) throw fail(FILE_MESSAGES.noImage);
    const [stored] = await storeAll(storage, 'image', [{ file, ext: checkFile(file, IMAGE_RULE) }]);
    return { code: Code.OK, msg: '上传成功', key: stored.key, hash: qiniuEtag(file.buffer), url: stored.url };
  });

  // The editor's upload settings (UEditor names), in data and, for UEditor itself, at the top level.
  const editorConfig = {
    imageActionName: 'uploadimage',
    imageFieldName: 'upfile',
    imageMaxSize: EDITOR_IMAGE_MAX_BYTES,
    imageAllowFiles: EDITOR_IMAGE_TYPES.map((t) => `.${t}`),
    imageCompressEnable: true,
    imageCompressBorder: 1600,
    imageInsertAlign: 'none',
    // Answers carry complete addresses (/profile/… or the bucket's), so nothing is prefixed.
    imageUrlPrefix: '',
  };
  // Spec §7: every call is POST unless noted, and this one is not noted; GET stays for editors that ask with GET.
  for (const method of ['GET', 'POST'] as const) {
    app.route({
      method,
      url: '/appv2/api/Ueditor/config',
      config: { permission: 'login', write: false },
      handler: async () => ok(editorConfig, '操作成功', editorConfig),
    });
  }

  app.post('/appv2/api/Ueditor/upload', { config: { permission: 'login', write: true } }, async (request) => {
    const { files } = await receive(request, { maxBytes: EDITOR_IMAGE_MAX_BYTES, maxFiles: 1, fileFields: [editorConfig.imageFieldName] });
    const file = files[0];
    if (!file) throw fail(FILE_MESSAGES.noImage);
    const ext = checkFile(file, EDITOR_RULE);
    const [stored] = await storeAll(storage, 'editor', [{ file, ext }]);
    const answer = {
      state: 'SUCCESS',
      url: stored.url,
      title: stored.newFileName,
      original: stored.originalFilename,
      type: `.${ext}`,
      size: file.buffer.length,
    };
    return ok(answer, '上传成功', answer);
  });

  // RuoYi CommonController.fileDownload: a name inside DATA_DIR/download only; delete=true removes it once sent.
  app.get('/dev-api/common/download', { config: { permission: 'login', write: false } }, async (request, reply) => {
    const query = (request.query ?? {}) as Record<string, unknown>;
    const name = queryString(query.fileName);
    if (!isSafeDownloadName(name)) throw fail(FILE_MESSAGES.illegalDownload(name));
    const root = path.resolve(downloadRoot(app.config.dataDir));
    const abs = path.join(root, name);
    if (path.dirname(abs) !== root) throw fail(FILE_MESSAGES.illegalDownload(name));
    const opened = await openRegularFile(abs);
    if (!opened) throw fail(FILE_MESSAGES.notFound, Code.NOT_FOUND);
    const stream = opened.handle.createReadStream();
    const remove = ['true', '1'].includes(queryString(query.delete).toLowerCase());
    if (remove) stream.once('end', () => void fs.promises.unlink(abs).catch(() => {}));
    return sendAttachment(reply, name, stream, opened.size);
  });

  // RuoYi CommonController.resourceDownload: '/profile/<key>' of a stored upload, read through the storage driver.
  app.get('/dev-api/common/download/resource', { config: { permission: 'login', write: false } }, async (request, reply) => {
    const query = (request.query ?? {}) as Record<string, unknown>;
    const resource = queryString(query.resource);
    const key = resource.startsWith(RESOURCE_PREFIX) ? resource.slice(RESOURCE_PREFIX.length) : '';
    if (!isSafeKey(key) || !RESOURCE_TYPES.includes(extensionOf(key))) throw fail(FILE_MESSAGES.illegalResource(resource));
    let stream: Readable;
    try {
      stream = await storage.get(key);
    } catch (error) {
      if (error instanceof StorageNotFoundError) throw fail(FILE_MESSAGES.notFound, Code.NOT_FOUND);
      throw error;
    }
    return sendAttachment(reply, keyBaseName(key), stream);
  });
}
