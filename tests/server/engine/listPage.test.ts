import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LIST_PAGE } from '../../../server/engine/query.js';
import { backends, startServer, type TestServer } from '../harness';

type Page = { code: number; msg: string; total: number; rows: { configId: number; configName: string }[] };

/**
 * A list page and its total (server/engine/query.ts listPage). On PostgreSQL the total rides in the page's statement
 * (one round trip); a page beyond the end has no row to carry it and is counted apart; a deep page is counted first
 * (lowered here to 10 rows deep so 30 rows reach both ways). On SQLite both stay kept between requests. Either way
 * every page must hold exactly the database's rows at that position, and the total their count, filtered or not,
 * past the end, and right after a write.
 */
describe.each(backends)('列表的一页与总数 (%s)', (backend) => {
  let s: TestServer;
  let admin: string;
  const saved = { ...LIST_PAGE };

  beforeAll(async () => {
    s = await startServer(backend, { jobs: { enabled: false } });
    admin = await s.login('admin', 'admin123');
    for (let i = 0; i < 30; i++) {
      await sql`insert into sys_config (config_name, config_key, config_value, config_type, create_time)
        values (${`总数分页-${i}`}, ${`list.page.${i}`}, '1', ${i % 3 === 0 ? 'Y' : 'N'}, ${1_700_000_000_000 + i})`.execute(s.app.db.kysely);
    }
  });
  beforeEach(() => {
    Object.assign(LIST_PAGE, saved);
  });
  afterAll(async () => {
    Object.assign(LIST_PAGE, saved);
    await s?.close();
  });

  const list = async (query: Record<string, string | number>) =>
    (await s.call('GET', '/dev-api/system/config/list', { token: admin, query })).body as unknown as Page;

  /** The ids the database holds for the filter, in the list's default order (configId descending). */
  async function expected(configType?: string): Promise<number[]> {
    const rows = await sql<{ config_id: number }>`select config_id from sys_config
      where config_name like ${'%总数分页%'} ${configType ? sql`and config_type = ${configType}` : sql``} order by config_id desc`.execute(
      s.app.db.kysely.withoutPlugins(),
    );
    return rows.rows.map((r) => Number(r.config_id));
  }

  it('每一页与总数都等于数据库中的对应行（有无筛选；总数随页读出与先计数两种方式）', async () => {
    LIST_PAGE.oneStatementMaxOffset = 10;
    for (const configType of [undefined, 'Y']) {
      const ids = await expected(configType);
      expect(ids.length).toBe(configType ? 10 : 30);
      const query = { configName: '总数分页', ...(configType ? { configType } : {}) };
      for (let pageNum = 1; pageNum <= Math.ceil(ids.length / 4); pageNum++) {
        const page = await list({ ...query, pageNum, pageSize: 4 });
        expect(page.code, page.msg).toBe(200);
        expect(page.total).toBe(ids.length);
        expect(
          page.rows.map((r) => r.configId),
          `${JSON.stringify(query)} page ${pageNum}`,
        ).toEqual(ids.slice((pageNum - 1) * 4, pageNum * 4));
      }
    }
  });

  it('超出末页的页返回空行与正确总数；无匹配的列表总数为 0', async () => {
    const beyond = await list({ configName: '总数分页', pageNum: 3, pageSize: 20 });
    expect(beyond).toMatchObject({ code: 200, total: 30, rows: [] });
    const farBeyond = await list({ configName: '总数分页', configType: 'Y', pageNum: 2, pageSize: 10 });
    expect(farBeyond).toMatchObject({ code: 200, total: 10, rows: [] });
    expect(await list({ configName: '没有这样的参数', pageNum: 1, pageSize: 20 })).toMatchObject({ code: 200, total: 0, rows: [] });
    expect(await list({ configName: '没有这样的参数', pageNum: 2, pageSize: 20 })).toMatchObject({ code: 200, total: 0, rows: [] });
  });

  it('新增与删除后，总数与页立即变化', async () => {
    const before = await list({ configName: '总数分页', pageNum: 1, pageSize: 5 });
    const add = await s.call<{ configId: number }>('POST', '/dev-api/system/config', {
      token: admin,
      body: { configName: '总数分页-新增', configKey: 'list.page.new', configValue: '1', configType: 'N' },
    });
    expect(add.body.code, add.body.msg).toBe(200);
    const after = await list({ configName: '总数分页', pageNum: 1, pageSize: 5 });
    expect(after.total).toBe(before.total + 1);
    expect(after.rows[0].configName).toBe('总数分页-新增');
    expect(after.rows.slice(1).map((r) => r.configId)).toEqual(before.rows.slice(0, 4).map((r) => r.configId));

    const del = await s.call('DELETE', `/dev-api/system/config/${after.rows[0].configId}`, { token: admin });
    expect(del.body.code, del.body.msg).toBe(200);
    expect(await list({ configName: '总数分页', pageNum: 1, pageSize: 5 })).toMatchObject({ total: before.total, rows: before.rows });
  });

  it.runIf(backend === 'postgres')('PostgreSQL：一页与总数只用一条语句', async () => {
    const stats = s.app.db.sqlStats;
    if (!stats) throw new Error('no SQL statistics');
    stats.reset();
    const page = await list({ configName: '总数分页', pageNum: 2, pageSize: 20 });
    expect(page).toMatchObject({ code: 200, total: 30 });
    expect(page.rows.length).toBe(10);
    const onConfig = stats.top('count', 2000).filter((x) => x.sql.includes('"sys_config"'));
    expect(onConfig.map((x) => x.count)).toEqual([1]);
    expect(onConfig[0].sql).toContain('__total');
  });
});
