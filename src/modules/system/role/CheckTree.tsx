import type { TreeNode } from '@common/system/treeSelect';
import { Checkbox, Space, Tree, type TreeDataNode } from 'antd';
import { useMemo } from 'react';

/**
 * The checkable tree of RuoYi's role dialogs (菜单权限, 数据权限): 展开/折叠, 全选/全不选 and 父子联动 above a bordered
 * antd Tree. Linked (父子联动): checking a parent checks its children (antd conduction). Not linked: every node on its own.
 * `checked` holds the checked keys as the user sees them; `submitKeys` adds the half-checked parents (RuoYi
 * getHalfCheckedKeys) when linked.
 */

export interface CheckTreeProps {
  nodes: TreeNode[];
  checked: number[];
  onChecked: (keys: number[]) => void;
  linked: boolean;
  onLinked: (linked: boolean) => void;
  expanded: number[];
  onExpanded: (keys: number[]) => void;
  /** For tests and labels: 'menu' or 'dept'. */
  name: string;
  emptyText?: string;
}

export function allKeys(nodes: readonly TreeNode[]): number[] {
  return nodes.flatMap((n) => [n.id, ...allKeys(n.children ?? [])]);
}

/** Parent of every key (roots map to nothing). */
function parents(nodes: readonly TreeNode[], out = new Map<number, number>()): Map<number, number> {
  for (const n of nodes) {
    for (const c of n.children ?? []) out.set(c.id, n.id);
    parents(n.children ?? [], out);
  }
  return out;
}

/** Checked keys plus every ancestor of a checked key (what a linked tree saves: checked + half-checked). */
export function withAncestors(nodes: readonly TreeNode[], checked: readonly number[]): number[] {
  const up = parents(nodes);
  const out = new Set(checked);
  for (const key of checked) {
    let p = up.get(key);
    while (p !== undefined && !out.has(p)) {
      out.add(p);
      p = up.get(p);
    }
  }
  return [...out];
}

/** The keys a linked tree starts from: checked keys that are not a parent of another checked key. */
export function linkedStart(nodes: readonly TreeNode[], keys: readonly number[]): number[] {
  const up = parents(nodes);
  const chosen = new Set(keys);
  const parentOfChosen = new Set(keys.map((k) => up.get(k)).filter((p): p is number => p !== undefined && chosen.has(p)));
  return keys.filter((k) => !parentOfChosen.has(k));
}

/**
 * The keys a linked tree shows fully checked: a checked key, everything below a checked key, and a parent whose
 * children all show checked (antd's conduction).
 */
export function conducted(nodes: readonly TreeNode[], checked: readonly number[]): number[] {
  const set = new Set(checked);
  const out: number[] = [];
  const walk = (n: TreeNode, inherited: boolean): boolean => {
    const self = inherited || set.has(n.id);
    const kids = n.children ?? [];
    const results = kids.map((c) => walk(c, self));
    const full = self || (kids.length > 0 && results.every(Boolean));
    if (full) out.push(n.id);
    return full;
  };
  for (const n of nodes) walk(n, false);
  return out;
}

/** What to submit: linked → shown checked + half-checked parents (RuoYi); not linked → exactly the checked keys. */
export function submitKeys(nodes: readonly TreeNode[], checked: readonly number[], linked: boolean): number[] {
  return linked ? withAncestors(nodes, conducted(nodes, checked)) : [...new Set(checked)];
}

const toTreeData = (nodes: readonly TreeNode[]): TreeDataNode[] =>
  nodes.map((n) => ({ key: n.id, title: n.label, children: n.children?.length ? toTreeData(n.children) : undefined }));

export function CheckTree({ nodes, checked, onChecked, linked, onLinked, expanded, onExpanded, name, emptyText = '暂无数据' }: CheckTreeProps) {
  const every = useMemo(() => allKeys(nodes), [nodes]);
  const treeData = useMemo(() => toTreeData(nodes), [nodes]);
  const allExpanded = every.length > 0 && expanded.length >= every.length;
  const allChecked = every.length > 0 && every.every((k) => checked.includes(k));
  return (
    <div className={`check-tree check-tree-${name}`}>
      <Space size={16} wrap style={{ marginBottom: 6 }}>
        <Checkbox checked={allExpanded} onChange={(e) => onExpanded(e.target.checked ? every : [])}>
          展开/折叠
        </Checkbox>
        <Checkbox checked={allChecked} onChange={(e) => onChecked(e.target.checked ? every : [])}>
          全选/全不选
        </Checkbox>
        <Checkbox
          checked={linked}
          onChange={(e) => {
            const next = e.target.checked;
            // Keep what the user sees: going unlinked, the conducted parents become explicit; going linked, a parent
            // with checked children is left to conduction.
            onChecked(next ? linkedStart(nodes, checked) : conducted(nodes, checked));
            onLinked(next);
          }}
        >
          父子联动
        </Checkbox>
      </Space>
      <div style={{ border: '1px solid #e5e6e7', borderRadius: 4, padding: '6px 0', maxHeight: 320, overflow: 'auto' }}>
        {nodes.length === 0 ? (
          <div style={{ color: '#909399', textAlign: 'center', padding: 12 }}>{emptyText}</div>
        ) : (
          <Tree
            checkable
            blockNode
            selectable={false}
            treeData={treeData}
            checkStrictly={!linked}
            checkedKeys={linked ? checked : { checked, halfChecked: [] }}
            expandedKeys={expanded}
            onExpand={(keys) => onExpanded(keys.map(Number))}
            onCheck={(keys) => onChecked((Array.isArray(keys) ? keys : keys.checked).map(Number))}
          />
        )}
      </div>
    </div>
  );
}
