import { waitFor } from '@testing-library/react';
import { HttpResponse, http as mock } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { withDeclaredActions } from '@/engine/declaredActions';
import { getResourceDef } from '@/resources';
import { checkSchemas, DEFAULT_SCHEMAS_DIR } from '../../../server/engine/metaSchema';
import { useEngineServer } from './helpers';

/**
 * The `preview` row action (x-rowActions kind "preview", docs/schemas.md): the tab opens at the click, the server
 * signs a token for exactly that row, and the tab is sent to the declared URL with `?preview=<token>`; a refusal closes it.
 */
const asked: unknown[] = [];
const server = useEngineServer(() => {
  asked.length = 0;
  return [];
});
// fakeTab's window.open spy: each test makes its own.
afterEach(() => {
  vi.restoreAllMocks();
});

function fakeTab() {
  const tab = { opener: {} as unknown, location: { href: 'about:blank' }, close: vi.fn() };
  vi.spyOn(window, 'open').mockReturnValue(tab as unknown as Window);
  return tab;
}

describe('x-rowActions kind preview', () => {
  it('is declared on 资讯, 新建页面, 课堂 and 轮播 and accepted by the meta-schema', () => {
    const { schemas, problems } = checkSchemas(DEFAULT_SCHEMAS_DIR);
    expect(problems).toEqual([]);
    const previewed = schemas.filter((l) => (l.schema['x-rowActions'] ?? []).some((a) => a.kind === 'preview')).map((l) => l.schema.$id);
    expect(previewed.sort()).toEqual(['content_banner', 'content_classroom', 'content_news', 'site_page']);
  });

  it('asks the server for a token for the row and opens the page with it', async () => {
    server.use(
      mock.post('*/dev-api/site/preview', async ({ request }) => {
        asked.push(await request.json());
        return HttpResponse.json({ code: 200, msg: '操作成功', data: { token: 'abc.def', expiresAt: Date.now() + 600000 } });
      }),
    );
    const tab = fakeTab();
    const def = getResourceDef('content_news');
    if (!def) throw new Error('content_news missing');
    const action = withDeclaredActions(def.schema).rowActions?.find((a) => a.key === 'preview');
    action?.onClick({ newsId: 12, title: '草稿' }, {} as never);
    await waitFor(() => expect(tab.location.href).toBe('/site/news/12?preview=abc.def'));
    expect(asked).toEqual([{ schema: 'content_news', id: 12 }]);
    expect(tab.opener).toBeNull();
  });

  it('closes the opened tab when the server refuses', async () => {
    server.use(mock.post('*/dev-api/site/preview', () => HttpResponse.json({ code: 403, msg: '没有权限，请联系管理员授权（需要 operation:news:query）' })));
    const tab = fakeTab();
    const def = getResourceDef('site_page');
    if (!def) throw new Error('site_page missing');
    withDeclaredActions(def.schema)
      .rowActions?.find((a) => a.key === 'preview')
      ?.onClick({ pageId: 3 }, {} as never);
    await waitFor(() => expect(tab.close).toHaveBeenCalled());
    expect(tab.location.href).toBe('about:blank');
  });
});
