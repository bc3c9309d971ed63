import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Entity } from '../../../server/engine/index.js';
import { insertSyntheticRows, loadSources, synthRecord } from '../../../server/engine/index.js';
import { countWhere, engineDb } from '../../../server/engine/store.js';
import type { SynthSources } from '../../../server/engine/synth.js';
import type { TestServer } from '../harness.js';
import { EngineApi } from './engineClient.js';
import type { SuiteContext } from './suite.js';

/**
 * The conformance suite of an `x-singleton` schema (关于我们, 隐私政策, 主题设置, 网站设置): one record, so the list
 * answers it alone and a second create is refused with a Chinese message while nothing is written; the first record
 * (when none exists) is accepted; edits carry the version; callers without a permission get 403.
 */

const STALE = '数据已被他人修改，请刷新后重试';
const forbidden = (permission: string) => ({ code: 403, msg: `没有权限，请联系管理员授权（需要 ${permission}）` });

export function defineSingletonConformance(context: () => SuiteContext, definition: Entity): void {
  const pkName = definition.pk.name;
  describe(`${definition.id}（${definition.title}，单条记录）`, () => {
    let s: TestServer;
    let admin: string;
    let entity: Entity;
    let api: EngineApi;
    let sources: SynthSources;
    let seq = 0;
    const synth = () => synthRecord(entity, ++seq, sources);
    const rowCount = async () => countWhere(engineDb(s.app.db), entity.table, sql`1 = 1`);

    beforeAll(async () => {
      ({ s, admin } = context());
      entity = s.app.schemaEngine.entities.get(definition.id) as Entity;
      api = new EngineApi(s, entity);
      sources = await loadSources(engineDb(s.app.db), s.app.schemaEngine.entities, entity);
    });

    it('新增：已有记录时第二条被拒绝（中文提示），不写入；列表只答一条', async () => {
      if ((await rowCount()) === 0) expect((await api.create(admin, synth())).code).toBe(200);
      const before = await rowCount();
      expect(before).toBe(1);
      const second = await api.create(admin, synth());
      expect(second).toMatchObject({ code: 500, msg: `${entity.title}只能有一条记录，请修改已有的记录` });
      expect(await rowCount()).toBe(before);
      const list = await api.list(admin, { pageNum: 2, pageSize: 10 });
      expect(list.total).toBe(1);
      expect(list.rows.length).toBe(1);
    });

    it('列表：库里多出的行（标志之前写入的）不显示，只答最早的一条', async () => {
      const oldest = (await api.list(admin)).rows[0];
      // Written past the API, as a row saved before the flag existed would be.
      await insertSyntheticRows(s.app.db, entity.id, 1, { schemasDir: context().schemasDir });
      expect(await rowCount()).toBe(2);
      const list = await api.list(admin);
      expect(list.total).toBe(1);
      expect(list.rows[0][pkName]).toBe(oldest[pkName]);
      await sql`delete from ${sql.table(entity.table)} where ${sql.ref(entity.pk.column)} <> ${oldest[pkName]}`.execute(engineDb(s.app.db));
    });

    it('修改：带 version 更新成功；过期的 version 被拒绝，数据不变', async () => {
      const current = (await api.list(admin)).rows[0];
      const got = (await api.get(admin, current[pkName])).data as Record<string, unknown>;
      const ok = await api.update(admin, { ...got });
      expect(ok.code, ok.msg).toBe(200);
      // A different body (the same one twice is a double submit, refused by its own guard).
      const text = entity.writable.find((f) => f.kind === 'text' && !f.prop.enum && !f.dict && !f.prop.format && !f.prop.pattern && !f.richText);
      const stale = await api.update(admin, { ...got, ...(text ? { [text.name]: `旧版本 ${seq}` } : {}) });
      expect(stale).toMatchObject({ code: 500, msg: STALE });
      const after = (await api.get(admin, current[pkName])).data as Record<string, unknown>;
      if (text) expect(after[text.name]).toBe(got[text.name]);
    });

    it('新增：没有记录时第一条被接受，再新增被拒绝', async () => {
      await sql`delete from ${sql.table(entity.table)}`.execute(engineDb(s.app.db));
      const first = await api.create(admin, synth());
      expect(first.code, first.msg).toBe(200);
      expect((await api.create(admin, synth())).code).toBe(500);
      expect(await rowCount()).toBe(1);
    });

    it('权限：没有对应权限的用户对每个操作都得到 403', async () => {
      const { nobody } = context();
      for (const d of api.endpoints) expect((await api.raw(d, nobody)).body, `${d.method} ${d.url}`).toEqual(forbidden(d.permission));
    });
  });
}
