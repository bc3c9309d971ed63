import type { DbTable, GenColumn, GenQuery, GenTable } from '@common/gen/tables';
import { download } from './download';
import { request } from './request';
import type { TablePage } from './types';

/** 代码生成 (server/gen/routes.ts): imported tables → schema files of the schema engine. */

const BASE = '/dev-api/tool/gen';

/**
 * Whether the server may write schemas/ (GEN_WRITE=1): the list answer says so as `genWrite` (the list itself is the
 * schema engine's, schemas/gen/gen_table.json).
 */
export async function genWriteEnabled(): Promise<boolean> {
  const env = await request({ url: `${BASE}/list`, method: 'get', params: { pageNum: 1, pageSize: 1 } });
  return env.genWrite === true;
}

/** Database tables that may be imported. */
export async function listDbTables(query: GenQuery): Promise<TablePage<DbTable>> {
  const env = await request({ url: `${BASE}/db/list`, method: 'get', params: { ...query } });
  return { rows: (env.rows ?? []) as DbTable[], total: env.total ?? 0 };
}

export async function importTables(tables: string[]): Promise<string> {
  return (await request({ url: `${BASE}/importTable`, method: 'post', params: { tables: tables.join(',') } })).msg;
}

export async function getGenTable(tableId: number | string): Promise<{ info: GenTable; rows: GenColumn[] }> {
  return (await request<{ info: GenTable; rows: GenColumn[] }>({ url: `${BASE}/${tableId}`, method: 'get' })).data as { info: GenTable; rows: GenColumn[] };
}

export async function updateGenTable(body: GenTable & { columns: GenColumn[] }): Promise<string> {
  return (await request({ url: BASE, method: 'put', data: body })).msg;
}

export async function delGenTables(tableIds: number[]): Promise<string> {
  return (await request({ url: `${BASE}/${tableIds.join(',')}`, method: 'delete' })).msg;
}

/** The schema JSON text keyed by file name (schemas/<entity>.json). */
export async function previewGen(tableId: number): Promise<Record<string, string>> {
  return ((await request<Record<string, string>>({ url: `${BASE}/preview/${tableId}`, method: 'get' })).data ?? {}) as Record<string, string>;
}

/** 批量生成: the schema files of several tables in one .zip. */
export function downloadGenBatch(tables: Array<Pick<GenTable, 'tableName'>>): Promise<void> {
  return download(`${BASE}/batchGenCode`, { params: { tables: tables.map((t) => t.tableName).join(',') } }, `schemas_${Date.now()}.zip`);
}

export function downloadGen(table: Pick<GenTable, 'tableId' | 'entityName'>): Promise<void> {
  return download(`${BASE}/download/${table.tableId}`, {}, `${table.entityName}.json`);
}

/** Writes schemas/<entity>.json (development mode only); refusals are not toasted: the caller shows them. */
export async function genCode(tableId: number, overwrite = false): Promise<string> {
  return (await request({ url: `${BASE}/genCode/${tableId}`, method: 'get', params: overwrite ? { overwrite: 1 } : {}, options: { silent: true } })).msg;
}

export async function synchDb(tableName: string): Promise<string> {
  return (await request({ url: `${BASE}/synchDb/${encodeURIComponent(tableName)}`, method: 'get' })).msg;
}

export interface DictTypeOption {
  dictId: number;
  dictName: string;
  dictType: string;
}

/** Every dictionary type (字典类型 select of the column editor). */
export async function dictTypeOptions(): Promise<DictTypeOption[]> {
  return ((await request<DictTypeOption[]>({ url: '/dev-api/system/dict/type/optionselect', method: 'get' })).data ?? []) as DictTypeOption[];
}
