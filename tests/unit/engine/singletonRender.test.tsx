import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { HttpResponse, http as mock } from 'msw';
import { Activity, Profiler, useState } from 'react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SingletonPage } from '@/engine/pages/SingletonPage';
import { getResourceDef } from '@/resources';
import { reactIdle } from '../settle';
import { renderWithRefine, signedIn, useEngineServer } from './helpers';

/**
 * The 关于我们 page (x-singleton, a rich-text field) as the console keeps it: inside AppMain's <Activity>, hidden when
 * another tab is chosen and shown again on return. Showing it again used to run the editor's effects with the editor
 * useEditor had just destroyed (getHTML() threw, the console went blank). The page must come back with what was typed,
 * settle (no render loop) and ask the server nothing it did not ask before.
 */
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

useEngineServer(() => {
  calls.length = 0;
  errors.length = 0;
  signedIn(['show:about:list', 'show:about:query', 'show:about:add', 'show:about:edit']);
  return [
    mock.get('*/dev-api/showManage/about/list', () => {
      calls.push('list');
      return HttpResponse.json({ code: 200, msg: '查询成功', rows: [ABOUT], total: 1 });
    }),
    mock.get('*/dev-api/showManage/about/1', () => {
      calls.push('get');
      return HttpResponse.json({ code: 200, msg: '操作成功', data: ABOUT });
    }),
  ];
});
beforeAll(() => {
  window.addEventListener('error', onError);
});
afterAll(() => {
  window.removeEventListener('error', onError);
});

/** The editor's text, '' once tiptap has destroyed it (ProseMirror empties its element then). */
const editorText = () => document.querySelector('.rich-editor-content')?.textContent ?? '';

describe('x-singleton page', () => {
  it('edits the one record without its read-only 编号 / 创建时间 (they say nothing on a single page)', async () => {
    const def = getResourceDef('site_about');
    if (!def) throw new Error('site_about missing');
    renderWithRefine(<SingletonPage resource={def} />);
    await waitFor(() => expect((screen.getByPlaceholderText('请输入标题') as HTMLInputElement).value).toBe('关于我们'));
    for (const label of ['编号', '创建时间', '创建者']) expect(screen.queryByText(label)).toBeNull();
  });
});

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
    await waitFor(() => expect(title().value).toBe('关于我们'));
    await waitFor(() => expect(editorText()).toContain('专注高考志愿填报'));
    fireEvent.change(title(), { target: { value: '我改过的标题' } });

    for (let round = 0; round < 3; round++) {
      act(() => show(false));
      // Hidden, its effects torn down: useEditor destroys the editor on its next tick. Shown again only after that,
      // the case that used to throw (the page's effects running once more with the destroyed editor).
      await waitFor(() => expect(editorText()).toBe(''));
      act(() => show(true));
      await waitFor(() => expect(editorText()).toContain('专注高考志愿填报'));
    }
    expect(errors).toEqual([]);
    expect(title().value).toBe('我改过的标题');
    // Settled: after what the last show started (tiptap re-applies its options on its next tick), nothing renders
    // without a cause — twenty turns in a row of React's queue and the timers pass without a commit. A render loop,
    // through effects or through a timer, never lets that happen.
    let quiet = 0;
    for (let turn = 0; quiet < 20; turn++) {
      if (turn === 500) throw new Error(`隐藏再显示后页面一直在重新渲染（已渲染 ${commits} 次）`);
      const before = commits;
      expect(await reactIdle()).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 1));
      quiet = commits === before ? quiet + 1 : 0;
    }
    expect(calls.filter((c) => c === 'list').length).toBeLessThanOrEqual(4);
  });
});
