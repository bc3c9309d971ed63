import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { type EndpointDescriptor, type EndpointOp, type Entity, endpointsOf } from '../../../server/engine/index.js';
import { hashPassword } from '../../../server/security/password.js';
import { newUserRow } from '../../../server/system/newUserRow.js';
import { type ApiBody, type CallResult, multipartFile, type TestServer } from '../harness.js';

/**
 * Talks to one schema entity through its endpoints as docs/schemas.md describes them (rest or app style), decrypting
 * answers of x-sensitive entities. Used by the generated conformance suite and the fixture test.
 */
export class EngineApi {
  constructor(
    private readonly s: TestServer,
    readonly entity: Entity,
  ) {}

  get endpoints(): EndpointDescriptor[] {
    return endpointsOf(this.entity);
  }

  endpoint(op: EndpointOp): EndpointDescriptor | undefined {
    return this.endpoints.find((d) => d.op === op || (op === 'create' && d.op === 'save') || (op === 'update' && d.op === 'save'));
  }

  get rest(): boolean {
    return this.entity.schema['x-endpoint'].style === 'rest';
  }

  /** Undo x-sensitive encryption so every answer looks plain. */
  private plain<D>(res: CallResult<D>): ApiBody<D> {
    const body = res.body;
    if (body.code !== 20000) return body;
    const data = this.s.decrypt<unknown>(body.data);
    if (data && typeof data === 'object' && 'rows' in (data as object)) return { ...body, code: 200, ...(data as object), data: undefined } as ApiBody<D>;
    return { ...body, code: 200, data: data as D };
  }

  async list(token: string, params: Record<string, string | number> = {}): Promise<ApiBody & { rows: Record<string, unknown>[]; total: number }> {
    const d = this.endpoint('list') as EndpointDescriptor;
    const res = this.rest ? await this.s.call('GET', d.url, { token, query: params }) : await this.s.call('POST', d.url, { token, body: params });
    return this.plain(res) as ApiBody & { rows: Record<string, unknown>[]; total: number };
  }

  /** Every row (pageSize 500; trees answer everything anyway). */
  async all(token: string, params: Record<string, string | number> = {}): Promise<Record<string, unknown>[]> {
    const res = await this.list(token, this.entity.tree ? params : { pageSize: 500, ...params });
    if (res.code !== 200) throw new Error(`list ${this.entity.id}: ${res.code} ${res.msg}`);
    return res.rows;
  }

  async get(token: string, id: unknown): Promise<ApiBody<Record<string, unknown>>> {
    const d = this.endpoint('info') as EndpointDescriptor;
    if (this.rest) return this.plain(await this.s.call<Record<string, unknown>>('GET', d.url.replace(/:[A-Za-z]+$/, String(id)), { token }));
    return this.plain(await this.s.call<Record<string, unknown>>('POST', d.url, { token, body: { [this.entity.pk.name]: id } }));
  }

  async create(token: string, record: Record<string, unknown>): Promise<ApiBody<Record<string, unknown>>> {
    const d = this.endpoint('create') as EndpointDescriptor;
    return this.plain(await this.s.call<Record<string, unknown>>('POST', d.url, { token, body: record }));
  }

  async update(token: string, record: Record<string, unknown>): Promise<ApiBody<Record<string, unknown>>> {
    const d = this.endpoint('update') as EndpointDescriptor;
    return this.plain(await this.s.call<Record<string, unknown>>(this.rest ? 'PUT' : 'POST', d.url, { token, body: record }));
  }

  async remove(token: string, ids: unknown[]): Promise<ApiBody> {
    const d = this.endpoint('remove') as EndpointDescriptor;
    if (this.rest) return this.plain(await this.s.call('DELETE', d.url.replace(/:[A-Za-z]+$/, ids.join(',')), { token }));
    return this.plain(await this.s.call('POST', d.url, { token, body: { ids: ids.join(',') } }));
  }

  async clean(token: string): Promise<ApiBody> {
    const d = this.endpoint('clean') as EndpointDescriptor;
    return this.plain(await this.s.call(d.method, d.url, { token }));
  }

  /** The export, sent form-encoded like RuoYi's download helper. */
  async export(token: string, params: Record<string, string | number> = {}): Promise<CallResult> {
    const d = this.endpoint('export') as EndpointDescriptor;
    const body = new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)])).toString();
    return this.s.call('POST', d.url, { token, body, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
  }

  async template(token: string): Promise<CallResult> {
    const d = this.endpoint('template') as EndpointDescriptor;
    return this.s.call(d.method, d.url, { token });
  }

  async import(token: string, file: Buffer, fileName: string, updateSupport = false): Promise<ApiBody> {
    const d = this.endpoint('import') as EndpointDescriptor;
    const type = fileName.endsWith('.csv') ? 'text/csv' : 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
    const { body, headers } = await multipartFile('file', fileName, type, file);
    return this.plain(await this.s.call('POST', d.url, { token, body, headers, query: { updateSupport: updateSupport ? 1 : 0 } }));
  }

  /** Calls an endpoint with an empty body, for permission checks. */
  async raw(d: EndpointDescriptor, token: string): Promise<CallResult> {
    const url = d.url.replace(/:[A-Za-z]+/g, '999999');
    return this.s.call(d.method, url, { token, body: d.method === 'GET' || d.method === 'DELETE' ? undefined : {} });
  }
}

/** A workbook with a header row of titles and the given rows (values by property name). */
export async function sheet(entity: Entity, rows: Array<Record<string, unknown>>, fields = entity.writable): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const ws = workbook.addWorksheet('导入');
  ws.addRow(fields.map((f) => f.title));
  for (const r of rows) ws.addRow(fields.map((f) => cellText(r[f.name])));
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

export function csv(entity: Entity, rows: Array<Record<string, unknown>>, fields = entity.writable): Buffer {
  const quote = (v: unknown) => {
    const t = v === undefined || v === null ? '' : String(cellText(v));
    return /[",\r\n]/.test(t) ? `"${t.replace(/"/g, '""')}"` : t;
  };
  const lines = [fields.map((f) => quote(f.title)).join(','), ...rows.map((r) => fields.map((f) => quote(r[f.name])).join(','))];
  return Buffer.from(`\ufeff${lines.join('\r\n')}\r\n`, 'utf8');
}

const cellText = (v: unknown): ExcelJS.CellValue => (v === undefined ? null : Array.isArray(v) ? v.join(',') : (v as ExcelJS.CellValue));

export async function readXlsx(buffer: Buffer): Promise<ExcelJS.CellValue[][]> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(buffer as unknown as ExcelJS.Buffer);
  const ws = workbook.worksheets[0];
  const out: ExcelJS.CellValue[][] = [];
  ws.eachRow({ includeEmpty: false }, (row) => {
    out.push((row.values as ExcelJS.CellValue[]).slice(1));
  });
  return out;
}

/** A signed-in user whose only role has exactly these permissions (none by default), created straight in the DB. */
export async function userWithPermissions(s: TestServer, perms: string[] = []): Promise<string> {
  const db = s.app.db.kysely;
  const tag = crypto.randomBytes(4).toString('hex');
  const now = Date.now();
  const role = await db
    .insertInto('sysRole')
    .values({
      roleName: `测试角色${tag}`,
      roleKey: `r_${tag}`,
      roleSort: 99,
      dataScope: '1',
      status: '0',
      delFlag: '0',
      createTime: now,
      remark: null,
      version: 1,
    })
    .returning('roleId')
    .executeTakeFirstOrThrow();
  if (perms.length) {
    const menus = await db.selectFrom('sysMenu').select('menuId').where('perms', 'in', perms).execute();
    for (const m of menus) await db.insertInto('sysRoleMenu').values({ roleId: role.roleId, menuId: m.menuId }).execute();
  }
  const userName = `u_${tag}`;
  const user = await db
    .insertInto('sysUser')
    .values(newUserRow({ userName, nickName: userName, password: await hashPassword('secret123'), createTime: now }))
    .returning('userId')
    .executeTakeFirstOrThrow();
  await db.insertInto('sysUserRole').values({ userId: user.userId, roleId: role.roleId }).execute();
  return s.login(userName, 'secret123');
}

/** Writes one schema file into a schemas folder, as `<$id>.json`. */
export async function writeSchema(dir: string, schema: { $id: string }): Promise<void> {
  await fs.writeFile(path.join(dir, `${schema.$id}.json`), `${JSON.stringify(schema, null, 2)}\n`);
}

/** A temporary folder holding copies of the repository's schema files. */
export async function tempSchemasDir(copyFrom?: string): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'zy-schemas-'));
  // Module folders too (schemas/<module>/*.json): the server's hooks and routes expect their schemas.
  if (copyFrom) await fs.cp(copyFrom, dir, { recursive: true, filter: (src) => !src.includes(`${path.sep}.`) });
  return dir;
}
