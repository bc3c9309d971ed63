import type { OrgNode } from '@common/system/organization';
import { Tag, type TreeDataNode } from 'antd';

/** Tag words of a node's kind (a department needs none). */
const KIND_TAG: Record<OrgNode['kind'], { text: string; color: string } | null> = {
  hq: { text: '总部', color: 'gold' },
  store: { text: '门店', color: 'blue' },
  unassigned: { text: '未分配', color: 'default' },
  dept: null,
};

/** The organization nodes as antd tree nodes: name, kind, staff count (in the node and below), 停用 when disabled. */
export function toTreeData(nodes: readonly OrgNode[]): TreeDataNode[] {
  return nodes.map((n) => {
    const kind = KIND_TAG[n.kind];
    return {
      key: n.key,
      title: (
        <span className="org-node" data-key={n.key}>
          {kind && (
            <Tag color={kind.color} style={{ marginInlineEnd: 6 }}>
              {kind.text}
            </Tag>
          )}
          <span className="org-node-name">{n.name}</span>
          <span className="org-node-staff" style={{ color: '#8c8c8c', marginInlineStart: 6 }}>
            {n.staff} 人
          </span>
          {n.status === '1' && (
            <Tag color="red" style={{ marginInlineStart: 6 }}>
              停用
            </Tag>
          )}
        </span>
      ),
      children: n.children?.length ? toTreeData(n.children) : undefined,
    };
  });
}

/** Every node by key, and the keys of nodes with children (to open the whole tree). */
export function indexNodes(nodes: readonly OrgNode[], byKey = new Map<string, OrgNode>(), parents: string[] = []) {
  for (const n of nodes) {
    byKey.set(n.key, n);
    if (n.children?.length) {
      parents.push(n.key);
      indexNodes(n.children, byKey, parents);
    }
  }
  return { byKey, parents };
}
