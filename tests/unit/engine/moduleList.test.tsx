import type { EntitySchema } from '@common/engine/types';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http as mock } from 'msw';
import { describe, expect, it } from 'vitest';
import { EntityList } from '@/engine/pages/EntityList';
import { buildResourceDef } from '@/engine/resource';
import { renderWithRefine, signedIn, useEngineServer } from './helpers';

/**
 * The generic list over a module-served schema (x-endpoint.module, answer / paging mappings, x-filter): the same page
 * as an engine list, calling the module's own routes — list with its paging names and the preset, search, next page,
 * 删除 through the module's remove action, 导出 with the preset; the preset property is no search field.
 */
const lists: Array<Record<string, unknown>> = [];
const removed: unknown[] = [];
const exported: string[] = [];

const TRASH: EntitySchema = {
  $id: 'test_trash_student',
  title: '回收站',
  type: 'object',
  'x-primaryKey': 'studentId',
  'x-endpoint': {
    style: 'app',
    base: '/appv2/api/TestStudent',
    actions: { list: 'studentList', remove: 'delStudent', export: 'exportStudent' },
    module: true,
    answer: { rows: 'data.list', total: 'data.count' },
    paging: { page: 'page', size: 'limit' },
  },
  'x-permissions': { list: 'test:trash:list', remove: 'test:trash:remove', export: 'test:trash:export' },
  'x-version': false,
  'x-filter': { deleted: '1' },
  properties: {
    studentId: { type: 'integer', title: '学生编号', readOnly: true, 'x-list': { order: 1 } },
    name: { type: 'string', title: '姓名', 'x-list': { order: 2 }, 'x-search': { op: 'like' } },
    deleted: { type: 'string', title: '已删除', enum: ['0', '1'], 'x-search': { op: 'eq' } },
  },
};
const def = buildResourceDef(TRASH);

/** 45 rows, served 20 a page by `page` / `limit`, in the module's own answer shape. */
const all = Array.from({ length: 45 }, (_, i) => ({ studentId: i + 1, name: i % 2 ? `李${i + 1}` : `张${i + 1}` }));

useEngineServer(() => {
  lists.length = 0;
  removed.length = 0;
  exported.length = 0;
  return [
    mock.post('*/appv2/api/TestStudent/studentList', async ({ request }) => {
      const body = (await request.json()) as Record<string, unknown>;
      lists.push(body);
      const found = all.filter((r) => !body.name || r.name.includes(String(body.name)));
      const page = Number(body.page);
      const limit = Number(body.limit);
      return HttpResponse.json({ code: 200, msg: '查询成功', data: { list: found.slice((page - 1) * limit, page * limit), count: found.length } });
    }),
    mock.post('*/appv2/api/TestStudent/delStudent', async ({ request }) => {
      removed.push(await request.json());
      return HttpResponse.json({ code: 200, msg: '删除成功' });
    }),
    mock.post('*/appv2/api/TestStudent/exportStudent', async ({ request }) => {
      exported.push(await request.text());
      return new HttpResponse(new Uint8Array([80, 75, 3, 4]), {
        headers: { 'content-type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' },
      });
    }),
  ];
});

describe('a module-served list (回收站 over a module route)', () => {
  it('lists through the module route with its paging names and the preset, pages, searches and deletes there', async () => {
    signedIn(['test:trash:list', 'test:trash:remove', 'test:trash:export']);
    renderWithRefine(<EntityList resource={def} />, [TRASH]);
    await screen.findByText('张1');
    expect(lists[0]).toEqual({ page: 1, limit: 20, deleted: '1' });
    // The preset property is no search field; 姓名 is.
    const search = document.querySelector('.engine-search') as HTMLElement;
    expect(within(search).queryByText('已删除')).toBeNull();
    expect(within(search).getByPlaceholderText('请输入姓名')).toBeTruthy();
    // The total comes from data.count: three pages of 20.
    expect(screen.getByText('共 45 条')).toBeTruthy();
    fireEvent.click(screen.getByTitle('2'));
    await screen.findByText('张21');
    expect(lists.at(-1)).toEqual({ page: 2, limit: 20, deleted: '1' });

    fireEvent.change(screen.getByPlaceholderText('请输入姓名'), { target: { value: '李' } });
    fireEvent.click(within(search).getByRole('button', { name: /搜\s*索/ }));
    await waitFor(() => expect(lists.at(-1)).toEqual({ page: 1, limit: 20, name: '李', deleted: '1' }));
    await screen.findByText('李2');

    const row = screen.getByText('李2').closest('tr') as HTMLElement;
    fireEvent.click(within(row).getByRole('button', { name: /删除/ }));
    await screen.findByText('是否确认删除回收站编号为"2"的数据项？');
    fireEvent.click(screen.getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(removed).toEqual([{ ids: [2], studentId: '2' }]));
  });

  it('导出 posts the applied search and the preset to the module export action', async () => {
    signedIn(['test:trash:list', 'test:trash:export']);
    window.URL.createObjectURL ??= () => 'blob:x';
    window.URL.revokeObjectURL ??= () => undefined;
    renderWithRefine(<EntityList resource={def} />, [TRASH]);
    await screen.findByText('张1');
    expect(screen.queryByRole('button', { name: /删\s*除/ })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: /导\s*出/ }));
    await waitFor(() => expect(exported.length).toBe(1));
    expect(exported[0]).toContain('deleted');
  });
});
