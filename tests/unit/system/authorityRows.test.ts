import { type AuthorityMenu, toggleGrant } from '@common/system/authority';
import { describe, expect, it } from 'vitest';
import { filterRows, menuTree, rowIds } from '@/modules/system/authority/rows';

/** 权限's matrix rules: ticking a cell as 角色管理's linked tree does, and the rows a filter keeps. */

const menu = (menuId: number, parentId: number, menuName: string, menuType: string, perms: string | null, orderNum = menuId): AuthorityMenu => ({
  menuId,
  parentId,
  menuName,
  menuType,
  perms,
  orderNum,
  status: '0',
});
// 系统管理 › 参数设置 (查询, 新增) and 通知公告 (查询); 系统监控 › 在线用户.
const MENUS = [
  menu(1, 0, '系统管理', 'M', null),
  menu(10, 1, '参数设置', 'C', 'system:config:list', 2),
  menu(11, 10, '查询', 'F', 'system:config:query'),
  menu(12, 10, '新增', 'F', 'system:config:add'),
  menu(20, 1, '通知公告', 'C', 'system:notice:list', 1),
  menu(21, 20, '查询', 'F', 'system:notice:query'),
  menu(2, 0, '系统监控', 'M', null),
  menu(30, 2, '在线用户', 'C', 'monitor:online:list'),
];
const sorted = (s: Set<number>) => [...s].sort((a, b) => a - b);

describe('toggleGrant', () => {
  it('ticking a button takes its page and directory; ticking a page takes its buttons', () => {
    expect(sorted(toggleGrant(MENUS, new Set(), 11, true))).toEqual([1, 10, 11]);
    expect(sorted(toggleGrant(MENUS, new Set(), 10, true))).toEqual([1, 10, 11, 12]);
    expect(sorted(toggleGrant(MENUS, new Set(), 1, true))).toEqual([1, 10, 11, 12, 20, 21]);
  });

  it('unticking drops the subtree; a directory left empty goes, a page stays', () => {
    expect(sorted(toggleGrant(MENUS, new Set([1, 10, 11, 12]), 12, false))).toEqual([1, 10, 11]);
    expect(sorted(toggleGrant(MENUS, new Set([1, 10, 11, 20]), 10, false))).toEqual([1, 20]);
    expect(sorted(toggleGrant(MENUS, new Set([1, 10, 11, 2, 30]), 10, false))).toEqual([2, 30]);
  });

  it('does not loop on a damaged tree (a menu under itself)', () => {
    expect(sorted(toggleGrant([menu(5, 5, '坏', 'M', null)], new Set(), 5, true))).toEqual([5]);
  });
});

describe('matrix rows', () => {
  const tree = menuTree(MENUS);

  it('groups the menus by directory in menu order', () => {
    expect(tree.map((r) => r.menuName)).toEqual(['系统管理', '系统监控']);
    expect(tree[0].children?.map((r) => r.menuName)).toEqual(['通知公告', '参数设置']);
  });

  it('keeps matching rows with the rows above and below them, within one module', () => {
    expect(rowIds(filterRows(tree, null, 'config')).all).toEqual([1, 10, 11, 12]);
    expect(rowIds(filterRows(tree, null, '通知')).all).toEqual([1, 20, 21]);
    expect(rowIds(filterRows(tree, 2, '')).all).toEqual([2, 30]);
    expect(filterRows(tree, 2, 'config')).toEqual([]);
  });
});
