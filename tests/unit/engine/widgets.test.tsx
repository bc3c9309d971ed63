import type { EntitySchema } from '@common/engine/types';
import { SEEDED_COMPONENTS } from '@common/menu/seededComponents';
import { act, cleanup, fireEvent, render, renderHook, screen, waitFor } from '@testing-library/react';
import { HttpResponse, http as mock } from 'msw';
import { describe, expect, it } from 'vitest';
import { formFields, importProblems } from '@/api/engine';
import { clearDictCache, DictTag, loadDict, useDict } from '@/components/DictTag';
import { FileUpload } from '@/components/FileUpload';
import { ImageUpload } from '@/components/ImageUpload';
import { checkEditorImage } from '@/components/RichTextEditor';
import { filterTree } from '@/components/TreeSelect';
import { actionEndpoint } from '@/engine/dataProvider';
import { buildResourceDef, permissionPrefix } from '@/engine/resource';
import { listColumnsOf, searchFieldsOf, widgetOf } from '@/engine/schema';
import { getResourceDef, resourceForComponent, resources } from '@/resources';
import { resolveView } from '@/router/componentRegistry';
import { GATED_ROUTES } from '@/router/staticRoutes';
import { handleTree, isArchive } from '@/utils/format';
import { renderUi } from '../render';
import { useEngineServer } from './helpers';

/** Shared widgets and helpers of the engine: tree building, archives, dictionaries, uploads, resources, registry. */
let dictCalls = 0;

const server = useEngineServer(() => {
  dictCalls = 0;
  return [
    mock.get('*/dev-api/system/dict/data/type/:type', ({ params }) => {
      dictCalls++;
      if (params.type === 'sys_normal_disable')
        return HttpResponse.json({
          code: 200,
          msg: '操作成功',
          data: [
            { dictLabel: '停用', dictValue: '1', listClass: 'danger', cssClass: '', dictSort: 2 },
            { dictLabel: '正常', dictValue: '0', listClass: 'primary', cssClass: '', dictSort: 1 },
          ],
        });
      return HttpResponse.json({ code: 200, msg: '操作成功', data: [{ dictLabel: '男', dictValue: '0', listClass: '', cssClass: '', dictSort: 1 }] });
    }),
  ];
});

describe('handleTree and isArchive (src/utils/format.ts)', () => {
  it('builds a tree from id / parentId, roots being nodes whose parent is absent', () => {
    const flat = [
      { id: 1, parentId: 0, label: '总部' },
      { id: 2, parentId: 1, label: '研发' },
      { id: 3, parentId: 2, label: '前端' },
      { id: 4, parentId: 1, label: '市场' },
      { id: 5, parentId: 99, label: '孤儿' },
    ];
    expect(handleTree(flat)).toEqual([
      {
        id: 1,
        parentId: 0,
        label: '总部',
        children: [
          { id: 2, parentId: 1, label: '研发', children: [{ id: 3, parentId: 2, label: '前端' }] },
          { id: 4, parentId: 1, label: '市场' },
        ],
      },
      { id: 5, parentId: 99, label: '孤儿' },
    ]);
    expect(
      handleTree(
        [
          { deptId: 10, pid: 0 },
          { deptId: 11, pid: 10 },
        ],
        'deptId',
        'pid',
      ),
    ).toEqual([{ deptId: 10, pid: 0, children: [{ deptId: 11, pid: 10 }] }]);
  });

  it('recognises zip, rar, 7z, tar, gz, bz2, xz, tgz, tar.gz and iso in any case', () => {
    for (const name of ['a.zip', 'a.RAR', 'a.7z', 'a.tar', 'a.gz', 'a.bz2', 'a.xz', 'a.tgz', 'backup.tar.gz', 'disk.ISO']) expect(isArchive(name)).toBe(true);
    for (const name of ['a.xlsx', 'zip', 'a.zip.txt', 'a.pdf']) expect(isArchive(name)).toBe(false);
  });
});

describe('useDict and DictTag', () => {
  it('fetches a type once and shares it between users, sorted by dictSort', async () => {
    const { result } = renderHook(() => [useDict('sys_normal_disable'), useDict('sys_normal_disable')]);
    await waitFor(() => expect(result.current[0].length).toBe(2));
    expect(result.current[0].map((o) => o.label)).toEqual(['正常', '停用']);
    expect(result.current[1]).toBe(result.current[0]);
    await loadDict('sys_normal_disable');
    const again = renderHook(() => useDict('sys_normal_disable'));
    expect(again.result.current.length).toBe(2); // from the cache, on first render
    expect(dictCalls).toBe(1);
    clearDictCache('sys_normal_disable');
    await loadDict('sys_normal_disable');
    expect(dictCalls).toBe(2);
  });

  it('shows labels as tags coloured by listClass, plain text for an empty listClass, unknown values as they are', async () => {
    render(<DictTag type="sys_normal_disable" value="0,1,9" />);
    expect((await screen.findByText('正常')).className).toContain('ant-tag-processing');
    expect(screen.getByText('停用').className).toContain('ant-tag-error');
    expect(screen.getByText('9')).toBeTruthy();
    render(<DictTag type="sys_user_sex" value="0" />);
    const plain = await screen.findByText('男');
    expect(plain.tagName).toBe('SPAN');
    expect(plain.className).not.toContain('ant-tag');
  });
});

function withApp(ui: React.ReactElement) {
  return renderUi(ui);
}

/** rc-upload remounts its input after every pick: look it up each time. */
const pick = (container: HTMLElement, file: File) =>
  act(async () => fireEvent.change(container.querySelector('input[type=file]') as HTMLInputElement, { target: { files: [file] } }));

describe('uploads (spec §5 messages)', () => {
  it('ImageUpload refuses other types, large files and too many files', async () => {
    withApp(<ImageUpload value="/a.png,/b.png" limit={2} />);
    // At the limit the 上传 card is gone.
    expect(screen.queryByText('上传')).toBeNull();
    cleanup();
    const view = withApp(<ImageUpload />);
    await pick(view.container, new File(['x'], 'a.gif', { type: 'image/gif' }));
    await screen.findByText('文件格式不正确, 请上传png/jpg/jpeg图片格式文件!');
    await pick(view.container, new File([new Uint8Array(5 * 1024 * 1024)], 'big.png', { type: 'image/png' }));
    await screen.findByText('上传头像图片大小不能超过 5 MB!');
    cleanup();
    const few = withApp(<ImageUpload value="/1.png,/2.png,/3.png,/4.png" />);
    const files = [new File(['x'], 'a.png', { type: 'image/png' }), new File(['y'], 'b.png', { type: 'image/png' })];
    await act(async () => fireEvent.change(few.container.querySelector('input[type=file]') as HTMLInputElement, { target: { files } }));
    await screen.findByText('上传文件数量不能超过 5 个!');
  });

  it('FileUpload takes doc/xls/ppt/txt/pdf under 5 MB', async () => {
    const { container } = withApp(<FileUpload />);
    await pick(container, new File(['x'], 'a.exe'));
    await screen.findByText('文件格式不正确, 请上传doc/xls/ppt/txt/pdf格式文件!');
    await pick(container, new File([new Uint8Array(5 * 1024 * 1024)], 'big.pdf'));
    await screen.findByText('上传文件大小不能超过 5 MB!');
  });

  it('uploads a picked file to /dev-api/common/upload and commits its address', async () => {
    const seen: string[] = [];
    server.use(
      mock.post('*/dev-api/common/upload', async ({ request }) => {
        const form = await request.formData();
        seen.push(typeof form.get('file'));
        return HttpResponse.json({ code: 200, msg: '操作成功', url: '/profile/upload/2026/a.txt', fileName: '/profile/upload/2026/a.txt' });
      }),
    );
    let value: string | undefined;
    const { container } = withApp(<FileUpload onChange={(v) => (value = v)} />);
    await pick(container, new File(['hello'], 'a.txt', { type: 'text/plain' }));
    await waitFor(() => expect(value).toBe('/profile/upload/2026/a.txt'));
    expect(seen).toEqual(['object']);
  });

  it('the editor takes jpeg/jpg/png/svg up to 3 MB', () => {
    expect(checkEditorImage({ name: 'a.png', type: 'image/png', size: 10 })).toBeNull();
    expect(checkEditorImage({ name: 'a.svg', type: 'image/svg+xml', size: 10 })).toBeNull();
    expect(checkEditorImage({ name: 'a.gif', type: 'image/gif', size: 10 })).toBe('图片格式错误!');
    expect(checkEditorImage({ name: 'a.jpg', type: 'image/jpeg', size: 3145729 })).toBe('上传文件大小不能超过 3 MB!');
  });
});

describe('TreeSelect filtering', () => {
  it('keeps label matches with their ancestors', () => {
    const tree = [
      {
        id: 1,
        label: '总部',
        children: [
          { id: 2, label: '研发部', children: [{ id: 3, label: '前端组' }] },
          { id: 4, label: '市场部' },
        ],
      },
    ];
    expect(filterTree(tree, '前端')).toEqual([{ id: 1, label: '总部', children: [{ id: 2, label: '研发部', children: [{ id: 3, label: '前端组' }] }] }]);
    expect(filterTree(tree, '市场')[0].children).toEqual([{ id: 4, label: '市场部' }]);
    expect(filterTree(tree, '无')).toEqual([]);
    expect(filterTree([{ key: 'a', name: '甲', sub: [{ key: 'b', name: '乙' }] }], '乙', { value: 'key', label: 'name', children: 'sub' })).toHaveLength(1);
  });
});

describe('resources from schemas/*.json', () => {
  it('every schema is a Refine resource with label, permission prefix and schema', () => {
    const config = resources.find((r) => r.name === 'sys_config');
    expect(config?.meta).toMatchObject({ label: '参数设置', permission: 'system:config' });
    expect((config?.meta?.schema as EntitySchema | undefined)?.$id).toBe('sys_config');
    expect(config?.list).toBe('/system/config');
    expect(permissionPrefix({ list: 'monitor:operlog:list', remove: 'monitor:operlog:remove' })).toBe('monitor:operlog');
  });

  it('columns by x-list.order, search fields from x-search, widgets from x-ui or inferred', () => {
    const schema = getResourceDef('sys_config')!.schema;
    expect(
      listColumnsOf(schema)
        .map((c) => c.name)
        .slice(0, 7),
    ).toEqual(['configId', 'configName', 'configKey', 'configValue', 'configType', 'remark', 'createTime']);
    expect(searchFieldsOf(schema).map((f) => [f.name, f.op])).toEqual([
      ['configName', 'like'],
      ['configKey', 'like'],
      ['configType', 'eq'],
      ['createTime', 'dateRange'],
    ]);
    const s = buildResourceDef({
      ...schema,
      properties: { a: { type: 'boolean', title: 'A' }, b: { type: 'integer', title: 'B' }, c: { type: 'string', title: 'C', 'x-dict': 'd' } },
    }).schema;
    expect(['a', 'b', 'c'].map((n) => widgetOf(s, n, s.properties[n]))).toEqual(['switch', 'number', 'dictSelect']);
  });

  it('a schema x-menu.component opens the engine list instead of 建设中', () => {
    expect(resourceForComponent('system/config/index')?.name).toBe('sys_config');
    expect(resourceForComponent('/system/config/index.vue')?.name).toBe('sys_config');
    expect(resolveView('system/config/index').kind).toBe('view');
    // Every page of the seeded menu and every gated page is a built screen: nothing left 建设中.
    const all = [...SEEDED_COMPONENTS, ...GATED_ROUTES.map((g) => g.component)];
    expect(all.filter((c) => resolveView(c).kind !== 'view')).toEqual([]);
    expect(resolveView('nowhere/index').kind).toBe('unknown');
  });
});

describe('overrides and action endpoints', () => {
  it('sys_dict_data also answers the hidden route component system/dict/data', () => {
    expect(resourceForComponent('system/dict/data')?.name).toBe('sys_dict_data');
    expect(resolveView('system/dict/data').kind).toBe('view');
    expect(getResourceDef('sys_dict_data')?.override.fields?.listClass).toMatchObject({ choices: expect.any(Array) });
  });

  it('export / import / template / clean urls for both styles', () => {
    const config = getResourceDef('sys_config')!.schema;
    expect(actionEndpoint(config, 'export')).toEqual({ url: '/dev-api/system/config/export', method: 'post' });
    expect(actionEndpoint(config, 'importTemplate')).toEqual({ url: '/dev-api/system/config/importTemplate', method: 'get' });
    expect(actionEndpoint(config, 'clean')).toEqual({ url: '/dev-api/system/config/clean', method: 'delete' });
    const app: EntitySchema = {
      ...config,
      'x-endpoint': { style: 'app', base: '/appv2/api/ManagerBanner', actions: { list: 'list', export: 'exportBanner', importData: 'importBanner' } },
    };
    expect(actionEndpoint(app, 'export')).toEqual({ url: '/appv2/api/ManagerBanner/exportBanner', method: 'post' });
    expect(actionEndpoint(app, 'importData')).toEqual({ url: '/appv2/api/ManagerBanner/importBanner', method: 'post' });
    expect(() => actionEndpoint(app, 'clean')).toThrow('不支持此操作');
  });

  it('import reports are read from the refusal envelope; list queries are form-encoded with params[…]', () => {
    expect(importProblems({ code: 500, msg: '导入失败', data: [{ row: 3, field: '参数名称', message: '参数名称不能为空' }] })).toEqual([
      { row: 3, field: '参数名称', message: '参数名称不能为空' },
    ]);
    expect(importProblems({ code: 500, msg: 'x' })).toEqual([]);
    expect(formFields({ configName: '主', pageNum: 1, params: { beginTime: '2026-01-01', endTime: '' }, empty: '' })).toEqual({
      configName: '主',
      pageNum: '1',
      'params[beginTime]': '2026-01-01',
    });
  });
});
