import { act, cleanup, screen, waitFor } from '@testing-library/react';
import { HttpResponse, http as mock } from 'msw';
import { setupServer } from 'msw/node';
import { Activity, Profiler, useState } from 'react';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { repeatGuard } from '@/api/repeatGuard';
import { setFeedback } from '@/api/request';
import { clearDictCache } from '@/components/DictTag';
import { SingletonPage } from '@/engine/pages/SingletonPage';
import { sessionStore } from '@/session/sessionStore';
import { getResourceDef } from '../../../resources.config';
import { useRealKeys } from '../api/keys';
import { browserShims, renderWithRefine } from './helpers';

/**
 * The 关于我们 page (x-singleton, a rich-text field) as the console keeps it: inside AppMain's <Activity>, hidden when
 * another tab is chosen and shown again on return. Showing it again used to run the editor's effects with the editor
 * useEditor had just destroyed (getHTML() threw, the console went blank). The page must come back with what was typed,
 * settle (no render loop) and ask the server nothing it did not ask before.
 */
const server = setupServer();
const keys = useRealKeys();
const calls: string[] = [];
const ABOUT = {
  aboutId: 1,
  title: '关于我们',
  image: '/site/assets/about.svg',
  content: '<p>我们是一家专注高考志愿填报的咨询机构。</p>',
  createTime: 1767225600000,
  version: 3,
};
const errors: unknown[] = [];
const onError = (e: ErrorEvent) => errors.push(e.error ?? e.message);

beforeAll(() => {
  browserShims();
  server.listen({ onUnhandledRequest: 'error' });
  window.addEventListener('error', onError);
});
afterAll(() => {
  window.removeEventListener('error', onError);
  server.close();
  keys.cleanup();
});
beforeEach(() => {
  repeatGuard.reset();
  clearDictCache();
  setFeedback(null);
  calls.length = 0;
  errors.length = 0;
  sessionStore.set({ roles: ['operator'], permissions: ['show:about:list', 'show:about:query', 'show:about:add', 'show:about:edit'], loaded: true });
  server.use(
    mock.get('*/dev-api/showManage/about/list', () => {
      calls.push('list');
      return HttpResponse.json({ code: 200, msg: '查询成功', rows: [ABOUT], total: 1 });
    }),
    mock.get('*/dev-api/showManage/about/1', () => {
      calls.push('get');
      return HttpResponse.json({ code: 200, msg: '操作成功', data: ABOUT });
    }),
  );
});
afterEach(() => {
  cleanup();
  server.resetHandlers();
});

const pause = (ms: number) => act(() => new Promise((r) => setTimeout(r, ms)));

describe('x-singleton page kept alive in a tab', () => {
  it('is hidden and shown again without an error, keeps what was typed and settles', async () => {
    const def = getResourceDef('site_about');
    if (!def) throw new Error('site_about missing');
    let commits = 0;
    let show: (visible: boolean) => void = () => {};
    function Tab() {
      const [visible, setVisible] = useState(true);
      show = setVisible;
      return (
        <Activity mode={visible ? 'visible' : 'hidden'}>
          <Profiler id="about" onRender={() => void commits++}>
            <SingletonPage resource={def as NonNullable<typeof def>} />
          </Profiler>
        </Activity>
      );
    }
    renderWithRefine(<Tab />);
    const title = () => screen.getByPlaceholderText('请输入标题') as HTMLInputElement;
    await waitFor(() => expect(title().value).toBe('关于我们'), { timeout: 8000 });
    await waitFor(() => expect(document.querySelector('.rich-editor-content')?.textContent).toContain('专注高考志愿填报'), { timeout: 8000 });
    const { fireEvent } = await import('@testing-library/react');
    fireEvent.change(title(), { target: { value: '我改过的标题' } });

    for (let round = 0; round < 3; round++) {
      act(() => show(false));
      await pause(50);
      act(() => show(true));
      await pause(300);
    }
    expect(errors).toEqual([]);
    await waitFor(() => expect(document.querySelector('.rich-editor-content')?.textContent).toContain('专注高考志愿填报'));
    expect(title().value).toBe('我改过的标题');
    // Settled: nothing renders any more without a cause.
    const settled = commits;
    await pause(1000);
    expect(commits - settled).toBe(0);
    expect(calls.filter((c) => c === 'list').length).toBeLessThanOrEqual(4);
  }, 30000);
});
