import type { TreeNode } from '@common/system/treeSelect';
import { describe, expect, it } from 'vitest';
import { conducted, linkedStart, submitKeys, withAncestors } from '@/modules/system/role/CheckTree';

/** The menu tree of a role dialog: 系统管理 (1) → 参数设置 (2: 查询 3, 新增 4) and 通知公告 (5: 查询 6). */
const TREE: TreeNode[] = [
  {
    id: 1,
    label: '系统管理',
    children: [
      {
        id: 2,
        label: '参数设置',
        children: [
          { id: 3, label: '查询' },
          { id: 4, label: '新增' },
        ],
      },
      { id: 5, label: '通知公告', children: [{ id: 6, label: '查询' }] },
    ],
  },
  { id: 7, label: '系统工具' },
];

const sorted = (keys: number[]) => [...keys].sort((a, b) => a - b);

describe('role dialog tree keys (父子联动)', () => {
  it('linked: a ticked page saves its buttons and its half-checked directory', () => {
    expect(sorted(submitKeys(TREE, [2, 3, 4], true))).toEqual([1, 2, 3, 4]);
    // One button only: the page and the directory are half-checked and saved too (RuoYi getHalfCheckedKeys).
    expect(sorted(submitKeys(TREE, [3], true))).toEqual([1, 2, 3]);
    // A page checked without its buttons in the state (as the server answers) still shows and saves them.
    expect(sorted(submitKeys(TREE, [2], true))).toEqual([1, 2, 3, 4]);
  });

  it('not linked: exactly the ticked keys', () => {
    expect(submitKeys(TREE, [2, 2], false)).toEqual([2]);
    expect(sorted(submitKeys(TREE, [1, 6], false))).toEqual([1, 6]);
  });

  it('conducted: below a checked key, and parents whose children are all checked', () => {
    expect(sorted(conducted(TREE, [2]))).toEqual([2, 3, 4]);
    expect(sorted(conducted(TREE, [3, 4, 6]))).toEqual([1, 2, 3, 4, 5, 6]);
    expect(conducted(TREE, [])).toEqual([]);
  });

  it('linkedStart drops parents of other checked keys; withAncestors adds every ancestor', () => {
    expect(sorted(linkedStart(TREE, [1, 2, 3]))).toEqual([3]);
    expect(sorted(linkedStart(TREE, [1, 5, 7]))).toEqual([5, 7]);
    expect(sorted(withAncestors(TREE, [6]))).toEqual([1, 5, 6]);
  });
});
