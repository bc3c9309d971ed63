import { ReloadOutlined } from '@ant-design/icons';
import type { OrgNode, OrgTree } from '@common/system/organization';
import { Button, Card, Empty, Space, Spin, Tree } from 'antd';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { organizationTree } from '@/api/system/organization';
import { NodeDetail } from './NodeDetail';
import { StaffTable } from './StaffTable';
import { indexNodes, toTreeData } from './treeData';

/**
 * 组织机构 (component system/organization/index; page permission system:organization:list): 总部 and each store with
 * the departments their staff are in, staff counted in each node and below. Choosing a node shows its role mix, its
 * data scope and its staff. Read only: 部门管理, 用户管理 and 角色管理 change what it shows (docs/system.md 组织机构).
 */
export default function OrganizationPage() {
  const [tree, setTree] = useState<OrgTree | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const [expanded, setExpanded] = useState<string[]>([]);
  const [loading, setLoading] = useState(false);

  const load = useCallback(async () => {
    setLoading(true);
    try {
      const t = await organizationTree();
      setTree(t);
      setExpanded(indexNodes(t.nodes).parents);
      setSelected((s) => s ?? t.nodes[0]?.key ?? null);
    } catch {
      setTree((t) => t ?? { nodes: [], total: 0 }); // the http layer has told the user
    } finally {
      setLoading(false);
    }
  }, []);
  useEffect(() => {
    void load();
  }, [load]);

  const byKey = useMemo(() => indexNodes(tree?.nodes ?? []).byKey, [tree]);
  const node: OrgNode | undefined = selected ? byKey.get(selected) : undefined;
  const storeName = node?.storeId == null ? null : (byKey.get(`store:${node.storeId}`)?.name ?? null);

  return (
    <div className="app-container organization-page" style={{ padding: 16, display: 'flex', gap: 16, alignItems: 'flex-start' }}>
      <Card
        size="small"
        title={`组织机构（共 ${tree?.total ?? 0} 名员工）`}
        extra={<Button size="small" type="text" icon={<ReloadOutlined />} aria-label="刷新" onClick={() => void load()} />}
        style={{ width: 340, flex: '0 0 340px' }}
      >
        {tree === null ? (
          <Spin style={{ display: 'block', padding: 24 }} />
        ) : tree.nodes.length === 0 ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无门店" />
        ) : (
          <Spin spinning={loading}>
            <Tree
              className="org-tree"
              blockNode
              treeData={toTreeData(tree.nodes)}
              expandedKeys={expanded}
              onExpand={(keys) => setExpanded(keys as string[])}
              selectedKeys={selected ? [selected] : []}
              onSelect={(keys) => keys.length && setSelected(String(keys[0]))}
            />
          </Spin>
        )}
      </Card>
      <div style={{ flex: 1, minWidth: 0 }}>
        {node ? (
          <Space direction="vertical" size={16} style={{ width: '100%' }}>
            <Card size="small" title={node.name}>
              <NodeDetail node={node} storeName={storeName} />
            </Card>
            <Card size="small" title="员工">
              <StaffTable node={node} />
            </Card>
          </Space>
        ) : (
          <Card>
            <Empty description="请选择左侧的门店或部门" />
          </Card>
        )}
      </div>
    </div>
  );
}
