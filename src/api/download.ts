import { messageFor } from './errorCode';
import { http, RequestError } from './request';

/**
 * Downloads (spec §7.6, §8): the answer is a blob; when the blob is really a JSON error, its code is mapped to a
 * message (else msg, else the default) and shown; any other failure says 下载文件出现错误，请联系管理员！
 */
export const DOWNLOAD_FAILED = '下载文件出现错误，请联系管理员！';
export const DOWNLOADING = '正在下载数据，请稍候';

export interface DownloadResult {
  blob: Blob;
  fileName: string;
}

/** Reads a blob that may hold a JSON error envelope; returns the error message or null for a real file. */
export async function blobError(blob: Blob): Promise<string | null> {
  if (!blob.type.includes('application/json')) return null;
  try {
    const env = JSON.parse(await blob.text()) as { code?: number; msg?: string };
    return messageFor(env.code ?? 500, env.msg);
  } catch {
    return DOWNLOAD_FAILED;
  }
}

function nameFrom(header: string | undefined, fallback: string): string {
  if (!header) return fallback;
  try {
    return decodeURIComponent(header);
  } catch {
    return header;
  }
}

/** Fetches a file; `fileName` comes from the download-filename header when the server sends one. */
export async function fetchFile(
  url: string,
  init: { method?: 'get' | 'post'; params?: Record<string, unknown>; data?: unknown; form?: boolean } = {},
  fallbackName = 'download',
): Promise<DownloadResult> {
  // Bytes, made into a Blob here: the same code path in every browser and in tests (XHR 'blob' varies by runtime).
  let response: Awaited<ReturnType<typeof http.request<ArrayBuffer>>>;
  try {
    const data = init.form && init.data ? new URLSearchParams(init.data as Record<string, string>) : init.data;
    response = await http.request<ArrayBuffer>({
      url,
      method: init.method ?? 'get',
      params: init.params,
      data,
      responseType: 'arraybuffer',
      headers: init.form ? { 'Content-Type': 'application/x-www-form-urlencoded' } : undefined,
      options: { repeatSubmit: false },
    });
  } catch (error) {
    throw error instanceof RequestError ? error : new RequestError(DOWNLOAD_FAILED, 0);
  }
  const blob = new Blob([response.data], { type: String(response.headers['content-type'] ?? 'application/octet-stream') });
  const failure = await blobError(blob);
  if (failure) throw new RequestError(failure, 500);
  const header = response.headers['download-filename'] as string | undefined;
  return { blob, fileName: nameFrom(header, fallbackName) };
}

/** Saves a blob through a temporary link. */
export function saveBlob(blob: Blob, fileName: string): void {
  const href = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = href;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(href), 1000);
}

/** Downloads and saves, with the progress text of §8 and the failure messages shown to the user. */
export async function download(url: string, init: Parameters<typeof fetchFile>[1] = {}, fallbackName = 'download'): Promise<void> {
  const { message } = await import('antd');
  const hide = message.loading(DOWNLOADING, 0);
  try {
    const { blob, fileName } = await fetchFile(url, init, fallbackName);
    saveBlob(blob, fileName);
  } catch (error) {
    message.error((error as Error).message || DOWNLOAD_FAILED);
    throw error;
  } finally {
    hide();
  }
}
