import fs from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Entity, EntitySchema, Field } from '../../../server/engine/index.js';
import { DEFAULT_SCHEMAS_DIR, insertSyntheticRows, loadSources, synthRecord } from '../../../server/engine/index.js';
import { capitalise, formatTime, parseTime } from '../../../server/engine/model.js';
import { engineDb } from '../../../server/engine/store.js';
import type { SynthSources } from '../../../server/engine/synth.js';
import { type Backend, startServer, type TestServer } from '../harness.js';
import { csv, EngineApi, readXlsx, sheet, tempSchemasDir, userWithPermissions, writeSchema } from './engineClient.js';
import { defineModuleConformance } from './moduleSuite.js';
import { defineSingletonConformance } from './singletonSuite.js';

/**
 * The conformance suite every schema gets (docs/schemas.md), generated from the schema itself: CRUD with versions,
 * validation messages, declared filters and sorts (and nothing else), export / import, permissions, operation log,
 * tree rules. `definition` is the schema as loaded by the test (names the tests); at run time the server's own entity
 * (app.schemaEngine) is used.
 */

export interface SuiteContext {
  s: TestServer;
  /** admin (holds *:*:*). */
  admin: string;
  /** A user whose role has no permission at all. */
  nobody: string;
  /** The seeded operator and its permissions (lacks e.g. system:config:remove). */
  operator: string;
  operatorPermissions: string[];
  /** Folder the server read the schemas from. */
  schemasDir?: string;
}

/**
 * The server of a describe block's tests on `backend`, with the suite's sessions; closed after them. With `extra`, it
 * reads the repository's schemas plus these files from a temporary folder (`schemasDir`, removed afterwards).
 * `prepare` runs once the sessions are taken. The context is filled before the block's own beforeAll hooks run.
 */
export function serveForSuite(backend: Backend, extra?: EntitySchema[], prepare?: (ctx: SuiteContext) => Promise<unknown>): SuiteContext {
  const ctx = {} as SuiteContext;
  beforeAll(async () => {
    if (extra) {
      ctx.schemasDir = await tempSchemasDir(DEFAULT_SCHEMAS_DIR);
      for (const schema of extra) await writeSchema(ctx.schemasDir, schema);
    }
    const s = await startServer(backend, ctx.schemasDir ? { schemasDir: ctx.schemasDir } : {});
    ctx.s = s;
    ctx.admin = await s.login('admin', 'admin123');
    ctx.operator = await s.login('operator', 'operator123');
    ctx.nobody = await userWithPermissions(s, []);
    ctx.operatorPermissions = (await s.call('POST', '/dev-api/api/auth/getRuleList', { token: ctx.operator })).body.permissions as string[];
    await prepare?.(ctx);
  });
  afterAll(async () => {
    await ctx.s?.close();
    if (ctx.schemasDir) await fs.rm(ctx.schemasDir, { recursive: true, force: true });
  });
  return ctx;
}

const STALE = '数据已被他人修改，请刷新后重试';
const forbidden = (permission: string) => ({ code: 403, msg: `没有权限，请联系管理员授权（需要 ${permission}）` });

/** Nulls first, then numbers numerically / text by code point: the order the server promises ascending. */
function compare(a: unknown, b: unknown): number {
  const an = a === null || a === undefined;
  const bn = b === null || b === undefined;
  if (an || bn) return an && bn ? 0 : an ? -1 : 1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const x = String(a);
  const y = String(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** A text property a test may freely change (not unique, no enum / dictionary / relation / pattern / format). */
function freeTextField(entity: Entity): Field | undefined {
  return entity.writable.find(
    (f) =>
      f.kind === 'text' &&
      !(f.name in (entity.schema['x-filter'] ?? {})) &&
      !f.unique &&
      !f.prop.enum &&
      !f.dict &&
      !f.relation &&
      !f.prop.pattern &&
      !f.prop.format &&
      !f.writeOnly &&
      !f.richText,
  );
}

function sameValue(f: Field, sent: unknown, got: unknown): void {
  if (sent === undefined) return;
  if (f.kind === 'integer' || f.kind === 'number') expect(Number(got), f.name).toBe(Number(sent));
  else if (f.kind === 'json' || f.kind === 'boolean') expect(got, f.name).toEqual(sent);
  else expect(got, f.name).toBe(String(sent));
}

export function defineConformance(context: () => SuiteContext, definition: Entity): void {
  // Module-served (x-endpoint.module): the module's routes, so the reduced suite of what the console relies on.
  if (definition.moduleServed) {
    defineModuleConformance(context, definition);
    return;
  }
  // One record only: its own suite (a second create is refused, so the many-records checks below do not apply).
  if (definition.schema['x-singleton']) {
    defineSingletonConformance(context, definition);
    return;
  }
  const perms = definition.permissions;
  const can = (action: keyof typeof perms) => Boolean(perms[action]);
  const writable = can('add');
  const pkName = definition.pk.name;

  describe(`${definition.id}（${definition.title}）`, () => {
    let s: TestServer;
    let admin: string;
    let entity: Entity;
    let api: EngineApi;
    let sources: SynthSources;
    let seq = 0;
    /** Records created through the API: id, what was sent, current version. */
    const created: Array<{ id: number; sent: Record<string, unknown>; version: number | null }> = [];
    // x-filter: a record of this resource holds its preset values (the server sets them anyway).
    const synth = () => ({ ...synthRecord(entity, ++seq, sources), ...(definition.schema['x-filter'] ?? {}) });

    beforeAll(async () => {
      ({ s, admin } = context());
      entity = s.app.schemaEngine.entities.get(definition.id) as Entity;
      expect(entity, `server loaded ${definition.id}`).toBeTruthy();
      api = new EngineApi(s, entity);
      sources = await loadSources(engineDb(s.app.db), s.app.schemaEngine.entities, entity);
      if (!writable) await insertSyntheticRows(s.app.db, entity.id, 40, { schemasDir: context().schemasDir });
      if (writable && entity.tree) {
        // Relation sources for a tree point at existing nodes; refresh after the seed.
        sources = await loadSources(engineDb(s.app.db), s.app.schemaEngine.entities, entity);
      }
    });

    const createOne = async (record = synth()) => {
      const res = await api.create(admin, record);
      expect(res.code, res.msg).toBe(200);
      const id = Number((res.data as Record<string, unknown>)[pkName]);
      expect(Number.isInteger(id) && id > 0).toBe(true);
      const entry = { id, sent: record, version: entity.versioned ? 1 : null };
      created.push(entry);
      return entry;
    };

    const fetch = async (id: number): Promise<Record<string, unknown> | undefined> => {
      if (can('query')) {
        const res = await api.get(admin, id);
        return res.code === 200 ? (res.data as Record<string, unknown>) : undefined;
      }
      return (await api.all(admin)).find((r) => Number(r[pkName]) === id);
    };

    if (writable) {
      it('新增：按 schema 合成的有效记录被接受，读回与提交一致（writeOnly 不返回）', async () => {
        const { id, sent } = await createOne();
        const got = await fetch(id);
        expect(got).toBeTruthy();
        for (const f of entity.writable) {
          if (f.writeOnly) expect(got).not.toHaveProperty(f.name);
          else sameValue(f, sent[f.name], got?.[f.name]);
        }
        if (entity.versioned) expect(got?.version).toBe(1);
        for (const f of entity.fields) if (f.audit === 'createTime') expect(Math.abs(Number(got?.[f.name]) - Date.now())).toBeLessThan(60_000);
        for (const f of entity.fields) if (f.audit === 'createBy') expect(got?.[f.name]).toBe('admin');
        await createOne(); // a second record for filters and sorts
      });

      it('新增：readOnly 字段（主键、审计列）被忽略', async () => {
        const audit = entity.fields.find((f) => f.audit === 'createTime');
        // (App style: a primary key in save means an update, so only rest sends one here.)
        const record = { ...synth(), ...(api.rest ? { [pkName]: 987654 } : {}), ...(audit ? { [audit.name]: 1 } : {}) };
        const { id } = await createOne(record);
        expect(id).not.toBe(987654);
        if (audit) expect(Number((await fetch(id))?.[audit.name])).toBeGreaterThan(1);
      });

      // Required fields without a default (a default fills a missing value).
      const required = (definition.schema.required ?? []).filter(
        (r) => !definition.byName.get(r)?.readOnly && definition.byName.get(r)?.prop.default === undefined,
      );
      if (required.length) {
        it.each(required)('校验：缺少必填字段 %s 时提示「<标题>不能为空」，不写入', async (name) => {
          const title = entity.byName.get(name)?.title;
          const record = synth();
          delete record[name];
          const before = (await api.list(admin)).total;
          const res = await api.create(admin, record);
          expect(res).toMatchObject({ code: 400, msg: `${title}不能为空` });
          expect((await api.list(admin)).total).toBe(before);
        });
      }

      const long = definition.writable.find((f) => f.kind === 'text' && f.prop.maxLength && !f.prop.enum && !f.prop.pattern);
      if (long) {
        it(`校验：${long.name} 超长时提示「${long.title}长度不能超过 ${long.prop.maxLength} 个字符」`, async () => {
          const res = await api.create(admin, { ...synth(), [long.name]: '长'.repeat((long.prop.maxLength as number) + 1) });
          expect(res).toMatchObject({ code: 400, msg: `${long.title}长度不能超过 ${long.prop.maxLength} 个字符` });
        });
      }

      const typed = definition.writable.find((f) => f.kind === 'integer' && !f.relation && !f.dict);
      if (typed) {
        it(`校验：${typed.name} 不是整数时提示字段标题`, async () => {
          const res = await api.create(admin, { ...synth(), [typed.name]: '不是数字' });
          expect(res.code).toBe(400);
          expect(res.msg).toContain(typed.title);
        });
      }

      const unique = definition.writable.find((f) => f.unique);
      if (unique) {
        it(`唯一：${unique.name} 重复时拒绝（新增'<值>'失败，${unique.title}已存在 / 修改…）`, async () => {
          const [first, second] = created;
          const value = first.sent[unique.name];
          const dup = await api.create(admin, { ...synth(), [unique.name]: value });
          expect(dup).toMatchObject({ code: 500, msg: `新增'${value}'失败，${unique.title}已存在` });
          if (can('edit')) {
            const current = await fetch(second.id);
            const res = await api.update(admin, { ...second.sent, [pkName]: second.id, version: current?.version, [unique.name]: value });
            expect(res).toMatchObject({ code: 500, msg: `修改'${value}'失败，${unique.title}已存在` });
          }
        });
      }

      it('操作日志：成功与失败的新增都被记录（sys_oper_log）', async () => {
        await api.create(admin, { ...synth(), [definition.writable.find((f) => required.includes(f.name))?.name ?? '__none']: null });
        const rows = await s.app.db.kysely.selectFrom('sysOperLog').selectAll().where('method', '=', `${entity.id}.add`).execute();
        expect(rows.some((r) => r.status === 0 && r.businessType === 1 && r.operName === 'admin' && r.title === entity.title)).toBe(true);
        if (required.length) expect(rows.some((r) => r.status === 1 && r.errorMsg)).toBe(true);
        for (const r of rows) {
          expect((r.operParam ?? '').length).toBeLessThanOrEqual(2000);
          expect(r.operUrl).toBe(api.endpoint('create')?.url);
        }
      });
    }

    if (can('edit') && writable) {
      const field = (e: Entity) => freeTextField(e) ?? e.writable.find((f) => f.kind === 'integer' && !f.relation && !f.dict && !f.prop.enum);
      it('修改：带 version 更新成功，version 加一，值已改变', async () => {
        const target = created[0];
        const before = await fetch(target.id);
        const f = field(entity) as Field;
        expect(f, 'a field to change').toBeTruthy();
        const next = f.kind === 'text' ? synthRecord(entity, 9000 + seq++, sources)[f.name] : Number(before?.[f.name] ?? 0) + 1;
        const res = await api.update(admin, { ...target.sent, [pkName]: target.id, version: before?.version, [f.name]: next });
        expect(res.code, res.msg).toBe(200);
        const after = await fetch(target.id);
        sameValue(f, next, after?.[f.name]);
        if (entity.versioned) {
          expect(after?.version).toBe(Number(before?.version) + 1);
          expect((res.data as Record<string, unknown>).version).toBe(after?.version);
        }
        for (const a of entity.fields) if (a.audit === 'updateBy') expect(after?.[a.name]).toBe('admin');
        target.sent = { ...target.sent, [f.name]: next };
      });

      if (definition.versioned) {
        it(`修改：过期的 version 被拒绝（${STALE}），数据不变`, async () => {
          const target = created[0];
          const before = await fetch(target.id);
          const f = field(entity) as Field;
          const res = await api.update(admin, {
            ...target.sent,
            [pkName]: target.id,
            version: Number(before?.version) - 1,
            [f.name]: f.kind === 'text' ? 'stale' : 123,
          });
          expect(res).toMatchObject({ code: 500, msg: STALE });
          expect(await fetch(target.id)).toEqual(before);
        });

        it('修改：缺少 version 时提示「版本号不能为空」', async () => {
          const target = created[0];
          const res = await api.update(admin, { ...target.sent, [pkName]: target.id });
          expect(res).toMatchObject({ code: 400, msg: '版本号不能为空' });
        });
      }
    }

    if (can('remove')) {
      it('删除：逗号分隔的多个主键在一个事务中删除；不存在的主键报错', async () => {
        let ids: number[];
        if (writable) ids = [(await createOne()).id, (await createOne()).id];
        else ids = (await api.all(admin)).slice(-2).map((r) => Number(r[pkName]));
        expect(ids).toHaveLength(2);
        const res = await api.remove(admin, ids);
        expect(res.code, res.msg).toBe(200);
        for (const id of ids) expect(await fetch(id)).toBeUndefined();
        expect((await api.remove(admin, [999999])).code).toBe(500);
        expect((await api.remove(admin, ['abc'])).code).toBe(400);
      });
    }

    if (can('list')) {
      if (!definition.tree) {
        it('列表：分页（pageNum / pageSize），pageSize 超过 500 被拒绝', async () => {
          const all = await api.list(admin, { pageSize: 500 });
          expect(all.code).toBe(200);
          const page = await api.list(admin, { pageNum: 2, pageSize: 1 });
          expect(page.total).toBe(all.total);
          expect(page.rows).toEqual(all.rows.slice(1, 2));
          expect((await api.list(admin)).rows.length).toBeLessThanOrEqual(20);
          expect((await api.list(admin, { pageSize: 501 })).code).toBe(400);
          expect((await api.list(admin, { pageNum: 0 })).code).toBe(400);
        });
      } else {
        it('列表：树形实体返回整棵树（平铺，带上级字段，不分页）', async () => {
          const res = await api.list(admin);
          expect(res.code).toBe(200);
          expect(res.total).toBe(res.rows.length);
          const parent = definition.tree?.parent.name as string;
          for (const r of res.rows) expect(typeof r[parent]).toBe('number');
        });
      }

      const preset = definition.schema['x-filter'] ?? {};
      if (Object.keys(preset).length) {
        it(`预设筛选 x-filter：列表、导出与单条读取只有 ${JSON.stringify(preset)} 的行，客户端的值被忽略`, async () => {
          const asked: Record<string, string> = {};
          for (const name of Object.keys(preset)) asked[name] = `not-${String(preset[name])}`;
          const res = await api.list(admin, { pageSize: 500, ...asked });
          expect(res.code, res.msg).toBe(200);
          expect(res.rows.length, 'the records created above are listed').toBeGreaterThan(0);
          for (const r of res.rows) for (const [name, value] of Object.entries(preset)) expect(r[name], name).toEqual(value);
        });
      }

      for (const f of definition.fields.filter((x) => x.search && !(x.name in preset))) {
        it(`筛选：${f.name}（${f.search}）只返回匹配的行`, async () => {
          const all = await api.all(admin);
          const mine = created.length ? all.filter((r) => created.some((c) => c.id === Number(r[pkName]))) : [];
          const target = [...mine, ...all].find((r) => r[f.name] !== null && r[f.name] !== undefined && r[f.name] !== '');
          expect(target, `a row with ${f.name}`).toBeTruthy();
          const value = target?.[f.name];
          let params: Record<string, string | number>;
          let match: (v: unknown) => boolean;
          switch (f.search) {
            case 'eq':
              params = { [f.name]: String(value) };
              match = (v) => String(v) === String(value);
              break;
            case 'subtree':
              // The node and everything below it: at least every row on the node itself (the user test checks depth).
              params = { [f.name]: String(value) };
              match = (v) => v !== null && v !== undefined;
              break;
            case 'like': {
              const text = String(value);
              const sub = text.length > 3 ? text.slice(1, 4) : text;
              params = { [f.name]: sub };
              match = (v) =>
                String(v ?? '')
                  .toLowerCase()
                  .includes(sub.toLowerCase());
              break;
            }
            case 'range': {
              const n = Number(value);
              params = { [`params[begin${capitalise(f.name)}]`]: n - 1, [`params[end${capitalise(f.name)}]`]: n + 1 };
              match = (v) => v !== null && Number(v) >= n - 1 && Number(v) <= n + 1;
              break;
            }
            default: {
              const day = formatTime(Number(value), true);
              const from = parseTime(day) as number;
              const to = parseTime(day, true) as number;
              params = { 'params[beginTime]': day, 'params[endTime]': day };
              match = (v) => v !== null && Number(v) >= from && Number(v) <= to;
            }
          }
          const rows = await api.all(admin, params);
          expect(rows.length).toBeGreaterThan(0);
          for (const r of rows) expect(match(r[f.name]), `${f.name}=${r[f.name]}`).toBe(true);
          expect(rows.some((r) => r[pkName] === target?.[pkName])).toBe(true);
          if (f.search === 'subtree') {
            const onNode = all.filter((r) => String(r[f.name]) === String(value)).map((r) => r[pkName]);
            expect(rows.map((r) => r[pkName])).toEqual(expect.arrayContaining(onNode));
          } else if (all.length < 500) expect(rows.length).toBe(all.filter((r) => match(r[f.name])).length);
        });
      }

      for (const f of definition.fields.filter((x) => x.sortable)) {
        it.each(['ascending', 'descending'])(`排序：${f.name} %s（结果确实有序，主键同向作次序）`, async (isAsc) => {
          const rows = await api.all(admin, { orderByColumn: f.name, isAsc });
          expect(rows.length).toBeGreaterThan(1);
          const sign = isAsc === 'ascending' ? 1 : -1;
          for (let i = 1; i < rows.length; i++) {
            const c = compare(rows[i - 1][f.name], rows[i][f.name]) * sign;
            expect(c, `${JSON.stringify(rows[i - 1][f.name])} then ${JSON.stringify(rows[i][f.name])}`).toBeLessThanOrEqual(0);
            if (c === 0 && f !== definition.pk) expect(compare(rows[i - 1][pkName], rows[i][pkName]) * sign).toBeLessThan(0);
          }
        });
      }

      it('排序：未声明可排序的列与错误的方向被拒绝（400，中文提示）', async () => {
        const other = definition.fields.find((f) => !f.sortable)?.name ?? 'notAColumn';
        for (const column of [other, 'notAColumn', 'password']) {
          const res = await api.list(admin, { orderByColumn: column, isAsc: 'ascending' });
          expect(res.code).toBe(400);
          expect(res.msg).toContain(`不支持按"${column}"排序`);
        }
        const sortable = definition.fields.find((f) => f.sortable);
        if (sortable) expect((await api.list(admin, { orderByColumn: sortable.name, isAsc: 'sideways' })).code).toBe(400);
      });
    }

    if (can('export')) {
      it('导出：流式 xlsx 可用 exceljs 读回，表头为标题，行数与列表一致，字典显示标签、时间格式化', async () => {
        const list = await api.all(admin);
        const total = entity.tree ? list.length : (await api.list(admin)).total;
        const res = await api.export(admin);
        expect(res.status).toBe(200);
        expect(String(res.headers['content-type'])).toContain('spreadsheetml');
        const name = decodeURIComponent(String(res.headers['download-filename']));
        expect(name).toMatch(new RegExp(`^${entity.title}_\\d+\\.xlsx$`));
        const table = await readXlsx(res.rawBuffer);
        expect(table[0]).toEqual(entity.listFields.map((f) => f.title));
        expect(table.length - 1).toBe(total);
        const first = list[0];
        for (const [i, f] of entity.listFields.entries()) {
          const cell = table[1][i];
          const value = first[f.name];
          if (value === null || value === undefined) continue;
          if (f.time) expect(cell).toBe(formatTime(Number(value), f.dateOnly));
          else if (f.dict) {
            const labels = (await s.call<Array<{ dictValue: string; dictLabel: string }>>('GET', `/dev-api/system/dict/data/type/${f.dict}`, { token: admin }))
              .body.data;
            const label = labels?.find((d) => d.dictValue === String(value))?.dictLabel;
            expect(cell).toBe(label ?? (typeof value === 'number' ? value : String(value)));
          }
        }
        const filter = definition.fields.find((f) => f.search === 'eq' && !(f.name in (definition.schema['x-filter'] ?? {})));
        if (filter) {
          const value = list.find((r) => r[filter.name] !== null)?.[filter.name];
          const filtered = await api.list(admin, { [filter.name]: String(value) });
          const part = await readXlsx((await api.export(admin, { [filter.name]: String(value) })).rawBuffer);
          expect(part.length - 1).toBe(entity.tree ? filtered.rows.length : filtered.total);
        }
        const bad = await api.export(admin, { orderByColumn: 'notAColumn' });
        expect(bad.body.code).toBe(400);
      });
    }

    if (can('import')) {
      const firstRequiredText = () =>
        entity.writable.find((f) => (entity.schema.required ?? []).includes(f.name) && f.kind === 'text' && f.prop.default === undefined) as Field;

      it('导入模板：xlsx 表头为可导入列的标题', async () => {
        const res = await api.template(admin);
        expect(res.status).toBe(200);
        expect(decodeURIComponent(String(res.headers['download-filename']))).toMatch(/导入模板_\d+\.xlsx$/);
        const table = await readXlsx(res.rawBuffer);
        expect(table[0]).toEqual(entity.writable.map((f) => f.title));
      });

      it('导入：一行有错则一条都不写，报告行号与字段（code 500, data [{row, field, message}]）', async () => {
        const before = (await api.list(admin)).total;
        const bad = firstRequiredText();
        const rows = [synth(), { ...synth(), [bad.name]: '' }, synth()];
        const res = await api.import(admin, await sheet(entity, rows), 'bad.xlsx');
        expect(res.code).toBe(500);
        expect(res.msg).toContain('导入失败');
        expect(res.data).toEqual([{ row: 3, field: bad.title, message: `${bad.title}不能为空` }]);
        expect((await api.list(admin)).total).toBe(before);
        const log = await s.app.db.kysely
          .selectFrom('sysOperLog')
          .selectAll()
          .where('method', '=', `${entity.id}.importData`)
          .where('status', '=', 1)
          .execute();
        expect(log.length).toBeGreaterThan(0);
      });

      it('导入：全部正确时写入（xlsx 与 csv），导入成功，共 N 条', async () => {
        const before = (await api.list(admin)).total;
        const res = await api.import(admin, await sheet(entity, [synth(), synth()]), 'good.xlsx');
        expect(res).toMatchObject({ code: 200, msg: '导入成功，共 2 条' });
        const res2 = await api.import(admin, csv(entity, [synth(), synth(), synth()]), 'good.csv');
        expect(res2).toMatchObject({ code: 200, msg: '导入成功，共 3 条' });
        expect((await api.list(admin)).total).toBe(before + 5);
      });

      const unique = definition.writable.find((f) => f.unique);
      if (unique) {
        it(`导入：${unique.name} 已存在时拒绝；updateSupport=1 时按它更新`, async () => {
          const target = created[0];
          const current = await fetch(target.id);
          const f = freeTextField(entity);
          const row = { ...synth(), [unique.name]: current?.[unique.name], ...(f ? { [f.name]: `导入更新${seq}` } : {}) };
          const refused = await api.import(admin, await sheet(entity, [row]), 'dup.xlsx');
          expect(refused.code).toBe(500);
          expect(refused.data).toEqual([{ row: 2, field: unique.title, message: `新增'${current?.[unique.name]}'失败，${unique.title}已存在` }]);
          const twice = await api.import(
            admin,
            await sheet(entity, [synth(), { ...row, [unique.name]: 'same_key' }, { ...row, [unique.name]: 'same_key' }]),
            'twice.xlsx',
          );
          expect(twice.code).toBe(500);
          expect((twice.data as Array<{ row: number }>).map((p) => p.row)).toEqual([4]);
          const res = await api.import(admin, await sheet(entity, [row]), 'update.xlsx', true);
          expect(res).toMatchObject({ code: 200, msg: '导入成功，共 1 条' });
          const after = await fetch(target.id);
          if (f) expect(after?.[f.name]).toBe(row[f.name]);
          if (entity.versioned) expect(after?.version).toBe(Number(current?.version) + 1);
        });
      }
    }

    if (definition.tree && writable) {
      it('树：存在下级时不允许删除；上级不能是自己或下级；祖级列表随上级维护', async () => {
        const tree = entity.tree as NonNullable<Entity['tree']>;
        const parent = await createOne();
        const child = await createOne({ ...synth(), [tree.parent.name]: parent.id });
        const got = await fetch(child.id);
        if (tree.ancestors) expect(String(got?.[tree.ancestors.name])).toMatch(new RegExp(`,${parent.id}$`));
        if (can('remove')) {
          const res = await api.remove(admin, [parent.id]);
          expect(res).toMatchObject({ code: 500, msg: definition.schema['x-tree']?.childrenMessage ?? '存在下级，不允许删除' });
          expect(await fetch(parent.id)).toBeTruthy();
        }
        if (can('edit')) {
          const p = await fetch(parent.id);
          for (const to of [parent.id, child.id]) {
            const res = await api.update(admin, { ...parent.sent, [pkName]: parent.id, version: p?.version, [tree.parent.name]: to });
            expect(res.code).toBe(500);
            const self = definition.schema['x-tree']?.selfParentMessage;
            expect(res.msg).toBe(
              to === parent.id && self ? self.replace('{label}', String(parent.sent[tree.label.name])) : `${tree.parent.title}不能是自己或自己的下级`,
            );
          }
        }
        if (can('remove')) {
          expect((await api.remove(admin, [child.id])).code).toBe(200);
          expect((await api.remove(admin, [parent.id])).code).toBe(200);
        }
      });
    }

    it('权限：没有对应权限的用户对每个操作都得到 403（运营人员与无权限角色）', async () => {
      const { nobody, operator, operatorPermissions } = context();
      const before = can('list') ? await api.all(admin) : [];
      for (const d of api.endpoints) {
        expect((await api.raw(d, nobody)).body, `${d.method} ${d.url}`).toEqual(forbidden(d.permission));
        if (!operatorPermissions.includes(d.permission))
          expect((await api.raw(d, operator)).body, `operator ${d.method} ${d.url}`).toEqual(forbidden(d.permission));
      }
      if (can('list')) expect((await api.all(admin)).length).toBe(before.length);
    });

    if (can('clean')) {
      it('清空：删除全部记录（并记入操作日志）', async () => {
        const before = await api.all(admin);
        expect(before.length).toBeGreaterThan(0);
        const res = await api.clean(admin);
        expect(res.code, res.msg).toBe(200);
        const after = await api.all(admin);
        expect(after.filter((r) => before.some((b) => b[pkName] === r[pkName]))).toEqual([]);
        const log = await s.app.db.kysely.selectFrom('sysOperLog').selectAll().where('method', '=', `${entity.id}.clean`).execute();
        expect(log.some((r) => r.businessType === 9 && r.status === 0)).toBe(true);
      });
    }
  });
}
