import type { ImportProblem } from '@common/engine/imports';
import type { EntitySchema } from '@common/engine/types';
import type { Envelope } from '@common/http/envelope';
import { download } from './download';
import { request } from './request';

/**
 * Calls of the schema engine and its shared widgets that are not Refine data calls: dictionaries (§7.5), the common
 * upload (§7.6), and an entity's import / export / template files (docs/schemas.md "Endpoints").
 */

/** One dictionary entry as GET /dev-api/system/dict/data/type/{type} answers it. */
export interface DictData {
  dictLabel: string;
  dictValue: string;
  listClass?: string | null;
  cssClass?: string | null;
  dictSort?: number | null;
}

export async function getDictData(type: string): Promise<DictData[]> {
  const env = await request<DictData[]>({ url: `/dev-api/system/dict/data/type/${encodeURIComponent(type)}`, method: 'get' });
  return Array.isArray(env.data) ? env.data : [];
}

/** What /common/upload answers (RuoYi): the public address in `url`, the stored name in `fileName`. */
export interface UploadResult {
  url: string;
  fileName: string;
  originalFilename?: string;
}

export const UPLOAD_URL = '/dev-api/common/upload';

/** Uploads one file to /dev-api/common/upload (bearer token + signature as every call). */
export async function uploadFile(file: Blob, name?: string): Promise<UploadResult> {
  const form = new FormData();
  form.append('file', file, name ?? (file as File).name ?? 'file');
  const env = (await request({
    url: UPLOAD_URL,
    method: 'post',
    data: form,
    headers: { 'Content-Type': 'multipart/form-data' },
    options: { repeatSubmit: false },
  })) as Envelope & { url?: string; fileName?: string; originalFilename?: string };
  const data = (env.data ?? {}) as Partial<UploadResult>;
  const url = env.url ?? data.url ?? env.fileName ?? data.fileName;
  if (!url) throw new Error(env.msg || '上传文件失败');
  return { url: String(url), fileName: String(env.fileName ?? data.fileName ?? url), originalFilename: env.originalFilename ?? data.originalFilename };
}

/** POST {url} (…/importData; multipart updateSupport + file). Resolves with the server's summary message. */
export async function importData(url: string, file: Blob, fileName: string, updateSupport: boolean): Promise<string> {
  const form = new FormData();
  // Fields before the file: a streaming multipart reader sees them when it reaches the file.
  form.append('updateSupport', String(updateSupport));
  form.append('file', file, fileName);
  const env = await request({
    url,
    method: 'post',
    params: { updateSupport },
    data: form,
    headers: { 'Content-Type': 'multipart/form-data' },
    options: { repeatSubmit: false },
  });
  return env.msg || '导入成功';
}

/** The problem report of a refused import, wherever the server put it (data, data.errors, rows or errors). */
export function importProblems(env: Envelope | undefined): ImportProblem[] {
  if (!env) return [];
  const candidates: unknown[] = [env.data, (env.data as { errors?: unknown } | undefined)?.errors, env.rows, env.errors];
  const list = candidates.find((c) => Array.isArray(c) && c.length > 0) as Array<Record<string, unknown>> | undefined;
  return (list ?? []).map((p) => ({ row: Number(p.row ?? p.rowNum ?? 0), field: String(p.field ?? p.title ?? ''), message: String(p.message ?? p.msg ?? '') }));
}

/** GET {url} (…/importTemplate; POST for app-style endpoints) → saved as <title>模板_<time>.xlsx. */
export function downloadTemplate(url: string, title: string, method: 'get' | 'post' = 'get'): Promise<void> {
  return download(url, { method }, `${title}模板_${Date.now()}.xlsx`);
}

/** A list query flattened for a form-encoded body: params { beginTime } → 'params[beginTime]'. */
export function formFields(query: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '') continue;
    if (typeof value === 'object' && !Array.isArray(value)) {
      for (const [inner, v] of Object.entries(value as Record<string, unknown>)) {
        if (v !== undefined && v !== null && v !== '') out[`${key}[${inner}]`] = String(v);
      }
    } else out[key] = Array.isArray(value) ? value.join(',') : String(value);
  }
  return out;
}

/** POST {url} (…/export) with the search fields form-encoded → saved as <title>_<time>.xlsx (progress text of §8). */
export function exportList(url: string, title: string, query: Record<string, unknown>): Promise<void> {
  return download(url, { method: 'post', data: formFields(query), form: true }, `${title}_${Date.now()}.xlsx`);
}

/**
 * The schemas the server has and this console build lacks (a schema file added since the build: issue 26), those the
 * user may list; `known` are the $ids the build has. Quiet: without them the console still shows every built screen.
 */
export async function getRuntimeSchemas(known: string[]): Promise<EntitySchema[]> {
  const env = await request<EntitySchema[]>({ url: '/dev-api/engine/schemas', method: 'get', params: { known: known.join(',') }, options: { silent: true } });
  return Array.isArray(env.data) ? env.data : [];
}
