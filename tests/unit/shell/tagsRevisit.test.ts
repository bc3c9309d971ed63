import { describe, expect, it } from 'vitest';
import { addView, EMPTY_TAGS, HOME_TAG, type TagView } from '@/layout/tagsView/tagsModel';

/**
 * Every page switch adds the page's tab again (BasicLayout). A revisit that changes nothing must give back the very
 * same state, or the whole frame (menu, navbar, tag bar) renders a second time on each switch (issue 15).
 */
const config: TagView = { path: '/system/config', fullPath: '/system/config', name: 'Config', title: '参数设置' };

describe('addView on a revisit', () => {
  it('returns the same state when the tab is already open as it is', () => {
    const open = addView(addView(EMPTY_TAGS, HOME_TAG), config);
    expect(addView(open, { ...config })).toBe(open);
    // The pinned home tab revisited without its affix flag stays pinned and unchanged.
    expect(addView(open, { ...HOME_TAG, affix: undefined })).toBe(open);
  });

  it('still updates the tab when its address or title changes', () => {
    const open = addView(EMPTY_TAGS, config);
    const withQuery = addView(open, { ...config, fullPath: '/system/config?configKey=sys' });
    expect(withQuery).not.toBe(open);
    expect(withQuery.visited[0].fullPath).toBe('/system/config?configKey=sys');
    const renamed = addView(withQuery, { ...config, fullPath: '/system/config?configKey=sys', title: '系统参数' });
    expect(renamed.visited[0].title).toBe('系统参数');
  });
});
