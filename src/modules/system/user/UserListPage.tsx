import { SearchOutlined } from '@ant-design/icons';
import type { TreeNode } from '@common/system/treeSelect';
import { Card, Empty, Input, Spin, Tree, type TreeDataNode } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { deptTreeSelect } from '@/api/system/user';
import { filterTree } from '@/components/TreeSelect';
import { EntityList } from '@/engine/pages/EntityList';
import type { EnginePageProps } from '@/engine/resource';
import { ResetPwdDialog } from './ResetPwdDialog';
import { requestUserAction, useUserAction } from './userActions';

/**
 * 用户管理 (RuoYi system/user/index): the department tree with its search box on the left, the generic list of sys_user
 * on the right. Choosing a department lists its users (the list's 部门 filter); choosing it again shows everyone. The row
 * buttons 重置密码 / 分配角色 (overrides.tsx) open their dialog / page from here.
 */

function allKeys(nodes: readonly TreeNode[]): number[] {
  return nodes.flatMap((n) => [n.id, ...allKeys(n.children ?? [])]);
}

const toTreeData = (nodes: readonly TreeNode[]): TreeDataNode[] =>
  nodes.map((n) => ({ key: n.id, title: n.label, children: n.children?.length ? toTreeData(n.children) : undefined }));

export default function UserListPage({ resource }: EnginePageProps) {
  const navigate = useNavigate();
  const [depts, setDepts] = useState<TreeNode[] | null>(null);
  const [keyword, setKeyword] = useState('');
  const [deptId, setDeptId] = useState<number | undefined>(undefined);
  const [expanded, setExpanded] = useState<number[]>([]);
  const action = useUserAction();

  useEffect(() => {
    deptTreeSelect()
      .then(setDepts)
      .catch(() => setDepts([]));
  }, []);
  const shown = useMemo(() => filterTree((depts ?? []) as unknown as Record<string, unknown>[], keyword) as unknown as TreeNode[], [depts, keyword]);
  useEffect(() => setExpanded(allKeys(shown)), [shown]);

  useEffect(() => {
    if (action?.kind !== 'authRole') return;
    requestUserAction(null);
    navigate(`/system/user-auth/role/${action.userId}`);
  }, [action, navigate]);

  return (
    <div className="user-page" style={{ display: 'flex', alignItems: 'flex-start' }}>
      <Card size="small" style={{ width: 200, flex: '0 0 200px', margin: '16px 0 16px 16px' }} styles={{ body: { padding: 12 } }}>
        <Input
          allowClear
          prefix={<SearchOutlined />}
          placeholder="请输入部门名称"
          value={keyword}
          onChange={(e) => setKeyword(e.target.value)}
          style={{ marginBottom: 12 }}
        />
        {depts === null ? (
          <Spin style={{ display: 'block', padding: 24 }} />
        ) : shown.length === 0 ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无部门" />
        ) : (
          <Tree
            className="dept-tree"
            blockNode
            treeData={toTreeData(shown)}
            expandedKeys={expanded}
            onExpand={(keys) => setExpanded(keys as number[])}
            selectedKeys={deptId === undefined ? [] : [deptId]}
            onSelect={(keys) => setDeptId(keys.length ? Number(keys[0]) : undefined)}
          />
        )}
      </Card>
      <div style={{ flex: 1, minWidth: 0 }}>
        <EntityList key={deptId ?? 'all'} resource={resource} initialSearch={deptId === undefined ? undefined : { deptId }} />
      </div>
      <ResetPwdDialog record={action?.kind === 'resetPwd' ? action.record : null} onClose={() => requestUserAction(null)} />
    </div>
  );
}
