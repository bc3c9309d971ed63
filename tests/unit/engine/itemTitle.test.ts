import { describe, expect, it } from 'vitest';
import { itemTitleOf } from '@/engine/resource';
import { getResourceDef } from '@/resources';

/** 新增… / 修改… / …详情 name one record, not the menu entry (the news form was titled 新增资讯管理). */
describe('what one record is called', () => {
  it('is the title without a trailing 管理 or 列表, unless the schema says x-item-title', () => {
    expect(itemTitleOf({ title: '资讯管理' })).toBe('资讯');
    expect(itemTitleOf({ title: '直播列表' })).toBe('直播');
    expect(itemTitleOf({ title: '参数设置' })).toBe('参数设置');
    expect(itemTitleOf({ title: '管理' })).toBe('管理');
    expect(itemTitleOf({ title: '首页管理', 'x-item-title': '首页模块' })).toBe('首页模块');
  });

  it('the console’s resources carry it', () => {
    expect(getResourceDef('content_news')?.itemTitle).toBe('资讯');
    expect(getResourceDef('content_home_module')?.itemTitle).toBe('首页模块');
    expect(getResourceDef('site_page')?.itemTitle).toBe('页面');
  });
});
