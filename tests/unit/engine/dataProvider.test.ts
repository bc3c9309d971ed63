import type { EntitySchema } from '@common/engine/types';
import { HttpResponse, http as mock } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { setFeedback } from '@/api/request';
import { createDataProvider, listQuery } from '@/engine/dataProvider';
import { schemas } from '@/resources';
import { useEngineServer } from './helpers';

/**
 * The engine data provider against a mocked server: every Refine method for a rest (RuoYi) schema and an app-style
 * schema — urls, verbs, query strings (paging, declared filters only, dateRange as params[beginTime]/params[endTime],
 * sorting whitelisted to x-sortable) and bodies (readOnly dropped, version sent on update).
 */
const server = useEngineServer(() => []);
const feedback = {
  message: { error: vi.fn(), warning: vi.fn(), success: vi.fn(), loading: vi.fn(() => () => undefined) },
  notification: { error: vi.fn() },
  modal: { confirm: vi.fn() },
};

// After the shared setup's reset: the provider's toasts are recorded.
beforeEach(() => {
  setFeedback(feedback as never);
});

const config = schemas.find((s) => s.$id === 'sys_config') as EntitySchema;

const banner: EntitySchema = {
  $id: 'banner',
  title: '轮播图',
  type: 'object',
  'x-table': 'banner',
  'x-primaryKey': 'id',
  'x-endpoint': {
    style: 'app',
    base: '/appv2/api/ManagerBanner',
    actions: { list: 'list', info: 'info', save: 'saveBanner', remove: 'delBanner', change: 'changeBanner' },
  },
  'x-permissions': { list: 'operation:banner:list', edit: 'operation:banner:edit' },
  required: ['title'],
  properties: {
    id: { type: 'integer', title: '编号', readOnly: true },
    title: { type: 'string', title: '标题', 'x-search': { op: 'like' }, 'x-sortable': true },
    status: { type: 'string', title: '状态', enum: ['0', '1'], 'x-search': { op: 'eq' } },
    sort: { type: 'integer', title: '排序', 'x-search': { op: 'range' } },
    createTime: { type: 'integer', title: '创建时间', readOnly: true, 'x-search': { op: 'dateRange' } },
  },
};

const provider = createDataProvider((name) => [config, banner].find((s) => s.$id === name));

/** Records every request the mock server sees. */
function capture() {
  const seen: Array<{ method: string; path: string; search: URLSearchParams; body: unknown; headers: Headers }> = [];
  server.use(
    mock.all('*', async ({ request }) => {
      const url = new URL(request.url);
      const text = request.method === 'GET' || request.method === 'DELETE' ? '' : await request.text();
      seen.push({ method: request.method, path: url.pathname, search: url.searchParams, body: text ? JSON.parse(text) : undefined, headers: request.headers });
      if (url.pathname.endsWith('/list'))
        return HttpResponse.json({ code: 200, msg: '查询成功', rows: [{ configId: 7, configName: 'a', version: 3 }], total: 41 });
      if (url.pathname.endsWith('/info') || /\/config\/\d+$/.test(url.pathname))
        return HttpResponse.json({ code: 200, msg: '操作成功', data: { configId: 7, id: 7, version: 3 } });
      return HttpResponse.json({ code: 200, msg: '操作成功' });
    }),
  );
  return seen;
}

describe('rest style (sys_config)', () => {
  it('getList: GET {base}/list with pageNum/pageSize, declared filters, dateRange params and whitelisted sort', async () => {
    const seen = capture();
    const res = await provider.getList({
      resource: 'sys_config',
      pagination: { currentPage: 3, pageSize: 10 },
      sorters: [{ field: 'configKey', order: 'asc' }],
      filters: [
        { field: 'configName', operator: 'contains', value: '  主框架 ' },
        { field: 'configType', operator: 'eq', value: 'Y' },
        { field: 'createTime', operator: 'between', value: ['2026-01-01', '2026-01-31'] },
        // Not declared in x-search: never sent.
        { field: 'configValue', operator: 'eq', value: 'x' },
      ],
    });
    expect(res).toEqual({ data: [{ configId: 7, configName: 'a', version: 3, id: 7 }], total: 41 });
    const [req] = seen;
    expect(req.method).toBe('GET');
    expect(req.path).toBe('/dev-api/system/config/list');
    expect(Object.fromEntries(req.search)).toEqual({
      pageNum: '3',
      pageSize: '10',
      orderByColumn: 'configKey',
      isAsc: 'asc',
      configName: '主框架',
      configType: 'Y',
      'params[beginTime]': '2026-01-01',
      'params[endTime]': '2026-01-31',
    });
    // Signed like every call.
    expect(req.headers.get('Authentication')).toBeTruthy();
    expect(req.headers.get('Timer')).toMatch(/^\d+$/);
  });

  it('getList defaults to page 1 of 20 and drops a sorter on a column that is not x-sortable', async () => {
    const seen = capture();
    await provider.getList({ resource: 'sys_config', sorters: [{ field: 'configValue', order: 'desc' }] });
    expect(Object.fromEntries(seen[0].search)).toEqual({ pageNum: '1', pageSize: '20' });
  });

  it('getOne: GET {base}/{id}', async () => {
    const seen = capture();
    const res = await provider.getOne({ resource: 'sys_config', id: 7 });
    expect(seen[0]).toMatchObject({ method: 'GET', path: '/dev-api/system/config/7' });
    expect(res.data).toMatchObject({ configId: 7, version: 3 });
  });

  it('create: POST {base} with the writable properties only', async () => {
    const seen = capture();
    await provider.create({
      resource: 'sys_config',
      variables: { configId: 99, configName: '名', configKey: 'k', configValue: 'v', createTime: 1, version: 1, junk: 1 },
    });
    expect(seen[0]).toMatchObject({ method: 'POST', path: '/dev-api/system/config', body: { configName: '名', configKey: 'k', configValue: 'v' } });
  });

  it('update: PUT {base} with the primary key and version', async () => {
    const seen = capture();
    await provider.update({
      resource: 'sys_config',
      id: '7',
      variables: { configName: '名', configKey: 'k', configValue: 'v', configType: 'N', createTime: 5, version: 3 },
    });
    expect(seen[0]).toMatchObject({ method: 'PUT', path: '/dev-api/system/config' });
    expect(seen[0].body).toEqual({ configId: 7, configName: '名', configKey: 'k', configValue: 'v', configType: 'N', version: 3 });
  });

  it('deleteOne / deleteMany: DELETE {base}/{id1,id2}', async () => {
    const seen = capture();
    await provider.deleteOne({ resource: 'sys_config', id: 4 });
    await provider.deleteMany?.({ resource: 'sys_config', ids: [1, 2] });
    expect(seen.map((s) => `${s.method} ${s.path}`)).toEqual(['DELETE /dev-api/system/config/4', 'DELETE /dev-api/system/config/1,2']);
  });

  it('custom: any url through the signed client', async () => {
    const seen = capture();
    await provider.custom?.({ url: '/dev-api/system/config/refreshCache', method: 'delete' });
    expect(seen[0]).toMatchObject({ method: 'DELETE', path: '/dev-api/system/config/refreshCache' });
  });

  it('a refused call rejects with the server message (and the §8 toast)', async () => {
    server.use(mock.put('*/dev-api/system/config', () => HttpResponse.json({ code: 500, msg: '数据已被他人修改，请刷新后重试' })));
    await expect(provider.update({ resource: 'sys_config', id: 7, variables: { version: 1 } })).rejects.toThrow('数据已被他人修改，请刷新后重试');
    expect(feedback.message.error).toHaveBeenCalledWith('数据已被他人修改，请刷新后重试');
  });
});

describe('app style (POST {base}/{action})', () => {
  it('getList posts the same query as a JSON body, range as params[beginX]/params[endX]', async () => {
    const seen = capture();
    const res = await provider.getList({
      resource: 'banner',
      pagination: { currentPage: 2, pageSize: 30 },
      sorters: [{ field: 'title', order: 'desc' }],
      filters: [
        { field: 'title', operator: 'contains', value: '春季' },
        { field: 'status', operator: 'eq', value: '0' },
        { field: 'sort', operator: 'between', value: [1, 9] },
        { field: 'createTime', operator: 'between', value: [new Date(2026, 0, 2), null] },
      ],
    });
    expect(res.total).toBe(41);
    expect(seen[0]).toMatchObject({ method: 'POST', path: '/appv2/api/ManagerBanner/list' });
    expect(seen[0].body).toEqual({
      pageNum: 2,
      pageSize: 30,
      orderByColumn: 'title',
      isAsc: 'desc',
      title: '春季',
      status: '0',
      params: { beginSort: 1, endSort: 9, beginTime: '2026-01-02' },
    });
  });

  it('info / save / remove map onto their actions; update sends id and version', async () => {
    const seen = capture();
    await provider.getOne({ resource: 'banner', id: 5 });
    await provider.create({ resource: 'banner', variables: { title: '新' } });
    await provider.update({ resource: 'banner', id: 5, variables: { title: '改', version: 2 } });
    await provider.deleteMany?.({ resource: 'banner', ids: [5, 6] });
    expect(seen.map((s) => [s.method, s.path, s.body])).toEqual([
      ['POST', '/appv2/api/ManagerBanner/info', { id: 5 }],
      ['POST', '/appv2/api/ManagerBanner/saveBanner', { title: '新' }],
      ['POST', '/appv2/api/ManagerBanner/saveBanner', { title: '改', id: 5, version: 2 }],
      ['POST', '/appv2/api/ManagerBanner/delBanner', { ids: [5, 6], id: '5,6' }],
    ]);
  });
});

describe('listQuery', () => {
  it('turns off paging for exports and keeps only declared, non-empty filters', () => {
    expect(
      listQuery(config, {
        pagination: { mode: 'off' },
        filters: [
          { field: 'configName', operator: 'contains', value: '' },
          { field: 'configKey', operator: 'contains', value: 'sys' },
        ],
      }),
    ).toEqual({ configKey: 'sys' });
  });
});

describe('module-served resource (x-endpoint.module, answer, paging) and x-filter', () => {
  const trash: EntitySchema = {
    $id: 'trash_students',
    title: '回收站',
    type: 'object',
    'x-primaryKey': 'studentId',
    'x-endpoint': {
      style: 'app',
      base: '/appv2/api/ManagerStudent',
      actions: { list: 'studentList', remove: 'delStudent' },
      module: true,
      answer: { rows: 'data.list', total: 'data.count' },
      paging: { page: 'page', size: 'limit' },
    },
    'x-permissions': { list: 'manage:recycle:list', remove: 'manage:recycle:remove' },
    'x-filter': { isDelete: '1' },
    properties: {
      studentId: { type: 'integer', title: '编号', readOnly: true },
      name: { type: 'string', title: '姓名', 'x-search': { op: 'like' } },
      isDelete: { type: 'string', title: '已删除', 'x-search': { op: 'eq' } },
    },
  };
  const moduleProvider = createDataProvider((name) => (name === trash.$id ? trash : undefined));

  it("getList calls the module's route with its paging names and the preset filter, and reads rows / total from the mapped paths", async () => {
    const seen: unknown[] = [];
    server.use(
      mock.post('*/appv2/api/ManagerStudent/studentList', async ({ request }) => {
        seen.push(await request.json());
        return HttpResponse.json({ code: 200, msg: '查询成功', data: { list: [{ studentId: 3, name: '张三' }], count: 57 } });
      }),
    );
    const res = await moduleProvider.getList({
      resource: 'trash_students',
      pagination: { currentPage: 2, pageSize: 10 },
      // A client value for the preset property is dropped: the preset wins.
      filters: [
        { field: 'name', operator: 'contains', value: '张' },
        { field: 'isDelete', operator: 'eq', value: '0' },
      ],
    });
    expect(seen).toEqual([{ page: 2, limit: 10, name: '张', isDelete: '1' }]);
    expect(res).toEqual({ data: [{ studentId: 3, name: '张三', id: 3 }], total: 57 });
  });

  it('the export query (paging off) carries the preset filter too', () => {
    expect(listQuery(trash, { pagination: { mode: 'off' }, filters: [{ field: 'name', operator: 'contains', value: '李' }] })).toEqual({
      name: '李',
      isDelete: '1',
    });
  });
});
