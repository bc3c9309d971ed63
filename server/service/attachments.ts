import { WORK_ORDER_ATTACHMENT_TYPES, WORK_ORDER_MAX_ATTACHMENTS } from '../../common/service/workOrders.js';
import { fail } from '../http/envelope.js';
import { isSafeKey, type Storage, StorageNotFoundError } from '../storage/index.js';
import { detectType, extensionOf } from '../storage/sniff.js';

/**
 * Attachments of a work order. The console uploads each file through /dev-api/common/upload (checked by type,
 * content and size there) and sends the answered `fileName` (/profile/upload/…). Here they are checked again,
 * because a client may send any text: at most five, each a stored upload of this server (a generated key under
 * upload/, never a path of the client's choosing), of a work-order type by extension AND by its stored bytes, at
 * most 5 MB. What is kept is the checked name and the resource path only.
 */

export interface Attachment {
  name: string;
  url: string;
}

const PREFIX = '/profile/';
const MAX_BYTES = 5 * 1024 * 1024;
export const ATTACHMENT_MESSAGES = {
  tooMany: `上传文件数量不能超过 ${WORK_ORDER_MAX_ATTACHMENTS} 个!`,
  tooFew: (n: number) => `请上传至少 ${n} 个附件（退款凭证）`,
  badType: `文件格式不正确, 请上传${WORK_ORDER_ATTACHMENT_TYPES.join('/')}格式文件!`,
  notStored: '附件不存在，请重新上传',
  tooBig: '上传文件大小不能超过 5 MB!',
} as const;

async function readCapped(storage: Storage, key: string): Promise<Buffer | null> {
  let stream: Awaited<ReturnType<Storage['get']>>;
  try {
    stream = await storage.get(key);
  } catch (error) {
    if (error instanceof StorageNotFoundError) return null;
    throw error;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += (chunk as Buffer).length;
    if (size > MAX_BYTES) {
      stream.destroy();
      throw fail(ATTACHMENT_MESSAGES.tooBig);
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

export async function checkAttachments(storage: Storage, value: unknown, min: number): Promise<Attachment[]> {
  const list = value == null || value === '' ? [] : Array.isArray(value) ? value : null;
  if (!list) throw fail(ATTACHMENT_MESSAGES.notStored);
  if (list.length > WORK_ORDER_MAX_ATTACHMENTS) throw fail(ATTACHMENT_MESSAGES.tooMany);
  if (list.length < min) throw fail(ATTACHMENT_MESSAGES.tooFew(min));
  const out: Attachment[] = [];
  for (const item of list) {
    const raw = typeof item === 'string' ? { url: item, name: '' } : item && typeof item === 'object' ? (item as Record<string, unknown>) : {};
    const url = typeof raw.url === 'string' ? raw.url.trim() : '';
    // The resource path (/profile/<key>) or the storage's own address of the key (an S3 bucket URL).
    const base = `${storage.publicBase}/`;
    const key = url.startsWith(PREFIX) ? url.slice(PREFIX.length) : url.startsWith(base) ? url.slice(base.length) : '';
    if (!key.startsWith('upload/') || !isSafeKey(key)) throw fail(ATTACHMENT_MESSAGES.notStored);
    const ext = extensionOf(key);
    if (!WORK_ORDER_ATTACHMENT_TYPES.includes(ext)) throw fail(ATTACHMENT_MESSAGES.badType);
    const bytes = await readCapped(storage, key);
    if (!bytes) throw fail(ATTACHMENT_MESSAGES.notStored);
    if (!detectType(bytes, ext, WORK_ORDER_ATTACHMENT_TYPES)) throw fail(ATTACHMENT_MESSAGES.badType);
    const name = typeof raw.name === 'string' && raw.name.trim() ? raw.name.trim().slice(0, 100) : key.slice(key.lastIndexOf('/') + 1);
    out.push({ name, url });
  }
  return out;
}
