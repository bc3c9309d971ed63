import { describe, expect, it } from 'vitest';
import type { OpenApiDocument } from '@/api/tool';
import { filterRows, operationRows, resolveRefs } from '@/modules/tool/swagger/operations';

const doc: OpenApiDocument = {
  openapi: '3.1.0',
  info: { title: '志愿填报管理系统 API', version: '2.0.4' },
  paths: {
    '/dev-api/system/config/list': { get: { tags: ['参数设置'], summary: '查询参数设置列表', 'x-permission': 'system:config:list' } },
    '/dev-api/system/config': {
      post: { tags: ['参数设置'], summary: '新增参数设置', 'x-permission': 'system:config:add' },
      put: { tags: ['参数设置'], summary: '修改参数设置', 'x-permission': 'system:config:edit' },
      parameters: [] as never,
    },
    '/dev-api/api/login/login': { post: { summary: '登录', 'x-permission': 'public' } },
  },
};

describe('系统接口 operations', () => {
  it('flattens one row per operation, grouped by first tag, untagged under 其他, ignoring non-method keys', () => {
    const rows = operationRows(doc);
    // 参数设置 (cān) sorts before 其他 (qí); within a group by path, then method.
    expect(rows.map((r) => r.key)).toEqual([
      'POST /dev-api/system/config',
      'PUT /dev-api/system/config',
      'GET /dev-api/system/config/list',
      'POST /dev-api/api/login/login',
    ]);
    expect(rows.find((r) => r.path === '/dev-api/api/login/login')?.tag).toBe('其他');
  });

  it('filters by path, summary, tag or permission, case-insensitively', () => {
    const rows = operationRows(doc);
    expect(filterRows(rows, 'SYSTEM:CONFIG:EDIT').map((r) => r.method)).toEqual(['PUT']);
    expect(filterRows(rows, '登录').map((r) => r.path)).toEqual(['/dev-api/api/login/login']);
    expect(filterRows(rows, '参数设置')).toHaveLength(3);
    expect(filterRows(rows, '  ')).toHaveLength(4);
  });
});

describe('resolveRefs', () => {
  it('inlines component schemas and stops at cycles', () => {
    const d = {
      ...doc,
      components: {
        schemas: {
          A: { type: 'object', properties: { b: { $ref: '#/components/schemas/B' } } },
          B: { type: 'object', properties: { a: { $ref: '#/components/schemas/A' } } },
        },
      },
    } as OpenApiDocument;
    expect(resolveRefs({ $ref: '#/components/schemas/A' }, d)).toEqual({
      type: 'object',
      properties: { b: { type: 'object', properties: { a: { $ref: '#/components/schemas/A' } } } },
    });
    expect(resolveRefs({ $ref: '#/components/schemas/Missing' }, d)).toEqual({ $ref: '#/components/schemas/Missing' });
  });
});
