import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http as mock } from 'msw';
import { describe, expect, it } from 'vitest';
import { EntityList } from '@/engine/pages/EntityList';
import { getResourceDef } from '@/resources';
import { configRows, renderWithRefine, signedIn, useEngineServer } from './helpers';

/**
 * The generic list page of 参数设置 rendered inside Refine with the engine data provider and the access-control
 * provider: search form from x-search, columns from x-list, dictionary tags, buttons behind x-permissions.
 */
const lists: URLSearchParams[] = [];
const deletes: string[] = [];

useEngineServer(() => {
  lists.length = 0;
  deletes.length = 0;
  return [
    mock.get('*/dev-api/system/config/list', ({ request }) => {
      lists.push(new URL(request.url).searchParams);
      return HttpResponse.json({ code: 200, msg: '查询成功', rows: configRows, total: 2 });
    }),
    mock.get('*/dev-api/system/dict/data/type/sys_yes_no', () =>
      HttpResponse.json({
        code: 200,
        msg: '操作成功',
        data: [
          { dictLabel: '是', dictValue: 'Y', listClass: 'primary', cssClass: '', dictSort: 1 },
          { dictLabel: '否', dictValue: 'N', listClass: 'danger', cssClass: 'no-tag', dictSort: 2 },
        ],
      }),
    ),
    mock.delete('*/dev-api/system/config/:ids', ({ params }) => {
      deletes.push(String(params.ids));
      return HttpResponse.json({ code: 200, msg: '操作成功' });
    }),
  ];
});

const def = getResourceDef('sys_config');

describe('参数设置 generic list', () => {
  it('renders the search form, the columns, and dictionary tags', async () => {
    signedIn(['system:config:list', 'system:config:query', 'system:config:add', 'system:config:edit', 'system:config:remove', 'system:config:export']);
    renderWithRefine(<EntityList resource={def!} />);
    // Search form from x-search: 参数名称 / 参数键名 (like), 系统内置 (eq, dictionary), 创建时间 (dateRange).
    const search = document.querySelector('.engine-search') as HTMLElement;
    for (const label of ['参数名称', '参数键名', '系统内置', '创建时间']) expect(within(search).getByText(label)).toBeTruthy();
    expect(within(search).getByPlaceholderText('请输入参数名称')).toBeTruthy();
    expect(within(search).getByText(/搜\s*索/)).toBeTruthy();
    expect(within(search).getByText(/重\s*置/)).toBeTruthy();
    // Columns in x-list order.
    const headers = [...document.querySelectorAll('thead th')].map((th) => th.textContent?.trim()).filter(Boolean);
    expect(headers).toEqual(['参数主键', '参数名称', '参数键名', '参数键值', '系统内置', '备注', '创建时间', '操作']);
    await screen.findByText('sys.index.skinName');
    expect(lists[0].get('pageNum')).toBe('1');
    expect(lists[0].get('pageSize')).toBe('20');
    // Asked for once: the page reads its first rows while it renders, and the table's own call takes that answer.
    await screen.findByText('否', { selector: '.ant-tag' });
    expect(lists.length).toBe(1);
    // Dictionary tags: 是 (primary → processing colour), 否 (danger → error colour, its cssClass applied).
    const yes = await screen.findByText('是', { selector: '.ant-tag' });
    expect(yes.className).toContain('ant-tag-processing');
    const no = screen.getByText('否', { selector: '.ant-tag' });
    expect(no.className).toContain('ant-tag-error');
    expect(no.className).toContain('no-tag');
    // datetime render.
    expect(screen.getByText(/^2026-01-01 \d{2}:00:00$/)).toBeTruthy();
    // Buttons for a user holding every permission.
    expect(screen.getAllByRole('button', { name: /删\s*除/ }).length).toBe(3);
    expect(screen.getByRole('button', { name: /新\s*增/ })).toBeTruthy();
    expect(screen.getByRole('button', { name: /导\s*出/ })).toBeTruthy();
    // 导入 is declared (system:config:import) but not held.
    expect(screen.queryByRole('button', { name: /导\s*入/ })).toBeNull();
  });

  it('hides every 删除 from a user without system:config:remove', async () => {
    signedIn(['system:config:list', 'system:config:query', 'system:config:add', 'system:config:edit', 'system:config:export']);
    renderWithRefine(<EntityList resource={def!} />);
    await screen.findByText('sys.index.skinName');
    expect(screen.queryAllByRole('button', { name: /删\s*除/ })).toEqual([]);
    expect(screen.getAllByRole('button', { name: /修\s*改/ }).length).toBe(3);
  });

  it('searches with the declared filters and resets them', async () => {
    signedIn(['system:config:list']);
    renderWithRefine(<EntityList resource={def!} />);
    await screen.findByText('sys.index.skinName');
    fireEvent.change(screen.getByPlaceholderText('请输入参数键名'), { target: { value: 'sys.user' } });
    fireEvent.click(screen.getByText(/搜\s*索/));
    await waitFor(() => expect(lists.at(-1)?.get('configKey')).toBe('sys.user'));
    fireEvent.click(screen.getByText(/重\s*置/));
    await waitFor(() => expect(lists.at(-1)?.get('configKey')).toBeNull());
  });

  it('batch delete asks 是否确认删除参数设置编号为"1,2"的数据项？ under 系统提示', async () => {
    signedIn(['system:config:list', 'system:config:remove']);
    renderWithRefine(<EntityList resource={def!} />);
    await screen.findByText('sys.index.skinName');
    const boxes = screen.getAllByRole('checkbox');
    fireEvent.click(boxes[0]); // select all
    const toolbarDelete = screen.getAllByRole('button', { name: /删\s*除/ })[0];
    await waitFor(() => expect((toolbarDelete as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(toolbarDelete);
    await screen.findByText('是否确认删除参数设置编号为"1,2"的数据项？');
    expect(document.querySelector('.ant-modal-confirm-title')?.textContent).toBe('系统提示');
    fireEvent.click(screen.getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(deletes).toEqual(['1,2']));
  });

  it('remembers hidden columns per resource in localStorage', async () => {
    signedIn(['system:config:list']);
    const { unmount } = renderWithRefine(<EntityList resource={def!} />);
    await screen.findByText('sys.index.skinName');
    fireEvent.click(screen.getByRole('button', { name: '显示/隐藏列' }));
    const option = await screen.findByRole('checkbox', { name: '参数键值' });
    fireEvent.click(option);
    await waitFor(() => expect([...document.querySelectorAll('thead th')].map((th) => th.textContent)).not.toContain('参数键值'));
    expect(JSON.parse(localStorage.getItem('zy-hidden-columns:sys_config') ?? '[]')).toEqual(['configValue']);
    unmount();
    renderWithRefine(<EntityList resource={def!} />);
    await screen.findByText('sys.index.skinName');
    expect([...document.querySelectorAll('thead th')].map((th) => th.textContent)).not.toContain('参数键值');
  });
});
