import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { EntitySchema } from '@common/engine/types';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { fillUrl, withDeclaredActions } from '@/engine/declaredActions';
import { displayValue } from '@/engine/pages/cells';
import { buildResourceDef } from '@/engine/resource';
import { isWide } from '@/engine/schema';
import { getResourceDef, resourceForComponent, schemas } from '@/resources';
import { esc, safeUrl } from '../../../server/content/site';
import { sniffVideo } from '../../../server/content/video';
import { checkSchemas } from '../../../server/engine/metaSchema';
import { createRecordAjv, fieldErrors } from '../../../server/engine/validate';
import { schemaProblems } from './schemaProblems';

/**
 * Engine features the content schemas need (docs/schemas.md): module folders, x-publish / x-public / x-dragSort /
 * x-children checks, the url format, declared row and toolbar buttons, video and colour cells, the singleton flag and
 * the helpers of the public site and the video upload.
 */
afterEach(cleanup);

const base = (extra: Record<string, unknown> = {}, props: Record<string, unknown> = {}) => ({
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'demo_item',
  title: '示例',
  type: 'object',
  'x-table': 'demo_item',
  'x-primaryKey': 'itemId',
  'x-endpoint': { style: 'rest', base: '/dev-api/demo/item' },
  'x-permissions': { list: 'demo:item:list', edit: 'demo:item:edit' },
  properties: {
    itemId: { type: 'integer', title: '编号', readOnly: true },
    title: { type: 'string', title: '标题' },
    sort: { type: 'integer', title: '排序' },
    status: { type: 'string', title: '状态', enum: ['1', '0'] },
    startTime: { type: ['integer', 'null'], title: '开始时间' },
    endTime: { type: ['integer', 'null'], title: '结束时间' },
    note: { type: 'string', title: '备注' },
    ...props,
  },
  ...extra,
});

const problemsOf = schemaProblems;

describe('schema loading and checks', () => {
  it('reads module folders (schemas/<module>/<entity>.json) beside flat files', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zy-schemas-'));
    fs.mkdirSync(path.join(dir, 'operation'));
    fs.writeFileSync(path.join(dir, 'operation', 'demo_item.json'), JSON.stringify(base()));
    const { schemas: loaded, problems } = checkSchemas(dir);
    fs.rmSync(dir, { recursive: true, force: true });
    expect(problems).toEqual([]);
    expect(loaded.map((l) => l.schema.$id)).toEqual(['demo_item']);
  });

  it('app-style schemas may share a base when their action paths differ; the same path twice is refused', () => {
    const app = (id: string, list: string) =>
      base(
        {
          $id: id,
          'x-table': id,
          'x-endpoint': { style: 'app', base: '/appv2/api/ManagerClassroom', actions: { list, change: `change_${id}` } },
        },
        {},
      );
    expect(problemsOf({ 'a_one.json': app('a_one', 'list'), 'a_two.json': app('a_two', 'videoList') })).toEqual([]);
    expect(problemsOf({ 'a_one.json': app('a_one', 'list'), 'a_two.json': app('a_two', 'list') }).join()).toContain('x-endpoint.base 与');
  });

  it('x-publish, x-public, x-dragSort and x-children name real properties of the right type', () => {
    expect(
      problemsOf({ 'demo_item.json': base({ 'x-publish': { status: 'status', published: '1', start: 'startTime', end: 'endTime' }, 'x-dragSort': 'sort' }) }),
    ).toEqual([]);
    expect(problemsOf({ 'demo_item.json': base({ 'x-publish': { status: 'nope', published: '1', start: 'title' } }) })).toEqual([
      'x-publish.status 指向不存在的属性 nope',
      'x-publish.start title 必须是 integer（毫秒时间戳）属性',
    ]);
    expect(problemsOf({ 'demo_item.json': base({ 'x-public': { name: 'demo' } }) })).toContain('x-public 公开接口需要 x-publish（只公开已发布的行）');
    expect(problemsOf({ 'demo_item.json': base({ 'x-dragSort': 'title' }) })).toContain('x-dragSort title 必须是 integer 属性');
    expect(problemsOf({ 'demo_item.json': base({ 'x-children': [{ schema: 'missing', foreignKey: 'x' }] }) })).toContain(
      'x-children.0.schema 指向不存在的 schema missing',
    );
    expect(problemsOf({ 'demo_item.json': base({ 'x-rowActions': [{ key: 'x', label: '打开', kind: 'open', url: 'javascript:alert(1)' }] }) }).length).toBe(1);
  });

  it('format url accepts http(s) or empty and names the field in Chinese otherwise', () => {
    const schema = base({}, { link: { type: 'string', title: '跳转链接', format: 'url' } }) as unknown as EntitySchema;
    const validate = createRecordAjv().compile({ type: 'object', properties: { link: { type: 'string', format: 'url' } } });
    expect(validate({ link: 'https://a.cn/x' })).toBe(true);
    expect(validate({ link: '' })).toBe(true);
    expect(validate({ link: 'javascript:alert(1)' })).toBe(false);
    expect(fieldErrors(schema as never, validate.errors)[0].message).toBe('跳转链接必须是以 http:// 或 https:// 开头的链接');
    expect(validate({ link: 'ftp://a.cn' })).toBe(false);
  });
});

describe('console side', () => {
  it('every content page resolves to a schema resource, singletons are flagged', () => {
    for (const component of ['operation/advertisement/index', 'operation/classRoom/index', 'showManage/aboutUs/index', 'liveBroadcast/index']) {
      expect(resourceForComponent(component), component).toBeTruthy();
    }
    expect(schemas.filter((s) => s['x-singleton']).map((s) => s.$id)).toEqual(['site_about', 'site_privacy', 'site_theme', 'site_website']);
    expect(getResourceDef('content_classroom')?.schema['x-children']).toEqual([
      { schema: 'content_classroom_video', foreignKey: 'classroomId', title: '课程视频' },
    ]);
  });

  it('declared buttons join the override buttons and fill {prop} from the row', () => {
    expect(fillUrl('/site/live/{channelId}', { channelId: 'a b/c' })).toBe('/site/live/a%20b%2Fc');
    const schema = {
      ...(base() as unknown as EntitySchema),
      'x-rowActions': [{ key: 'share', label: '分享', kind: 'qrcode', url: '/site/live/{itemId}' }],
      'x-toolbar': [{ key: 'preview', label: '预览', kind: 'open', url: '/site/' }],
    } as EntitySchema;
    const own = { key: 'mine', label: '自定义', onClick: () => {} };
    const merged = withDeclaredActions(schema, { rowActions: [own] });
    expect(merged.rowActions?.map((a) => a.label)).toEqual(['分享', '自定义']);
    expect(merged.toolbar?.map((a) => a.label)).toEqual(['预览']);
    expect(buildResourceDef(schema).override.rowActions?.map((a) => a.key)).toEqual(['share']);
    // The schema's declared buttons, then the override's own (src/modules/content/overrides.tsx).
    expect(getResourceDef('live_broadcast')?.override.rowActions?.map((a) => a.label)).toEqual(['分享', '频道', '预览']);
  });

  it('video cells are players, colour cells show a swatch; the video widget takes a full row', () => {
    render(<div>{displayValue({ type: 'string', title: '视频' }, '/profile/video/a.mp4', 'video')}</div>);
    expect(document.querySelector('video')?.getAttribute('src')).toBe('/profile/video/a.mp4');
    render(<div>{displayValue({ type: 'string', title: '主色' }, '#1677ff', 'color')}</div>);
    expect(screen.getByText('#1677ff')).toBeTruthy();
    expect(isWide('videoUpload')).toBe(true);
  });
});

describe('public site and upload helpers', () => {
  it('escapes text and lets only http(s) or site paths become addresses', () => {
    expect(esc('<b a="1">&\'')).toBe('&lt;b a=&quot;1&quot;&gt;&amp;&#39;');
    expect(safeUrl('javascript:alert(1)')).toBe('');
    expect(safeUrl('//evil.example/x')).toBe('');
    expect(safeUrl('/profile/a.png')).toBe('/profile/a.png');
    expect(safeUrl('https://a.cn/?q="x"')).toBe('https://a.cn/?q=&quot;x&quot;');
  });

  it('recognises MP4, WebM and Ogg by their first bytes only', () => {
    expect(sniffVideo(Buffer.from('\u0000\u0000\u0000\u0018ftypmp42xxxx', 'latin1'))).toBe('mp4');
    expect(sniffVideo(Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0, 0, 0, 0]))).toBe('webm');
    expect(sniffVideo(Buffer.from('OggS\u0000\u0002', 'latin1'))).toBe('ogv');
    expect(sniffVideo(Buffer.from('<html>not a video</html>'))).toBeNull();
  });
});
