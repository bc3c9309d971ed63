import { DATA_SCOPE_LABELS, type OrgNode } from '@common/system/organization';
import { Button, Descriptions, Space, Tag, Tooltip } from 'antd';
import { useNavigate } from 'react-router';
import { useAccess } from '@/components/Access/useAccess';

const KIND_TEXT: Record<OrgNode['kind'], string> = { hq: '总部', store: '门店', unassigned: '未分配门店的账号', dept: '部门' };

/**
 * What one node is: kind, staff in it and below, the roles they hold (each with its data scope, the rule that follows
 * the department tree) and, for a store, what its staff can see across stores. Links to the screens that edit it.
 */
export function NodeDetail({ node, storeName }: { node: OrgNode; storeName: string | null }) {
  const navigate = useNavigate();
  const { can } = useAccess();
  return (
    <Descriptions className="org-detail" bordered size="small" column={{ xs: 1, md: 2 }} styles={{ label: { width: 96, whiteSpace: 'nowrap' } }}>
      <Descriptions.Item label="名称">{node.name}</Descriptions.Item>
      <Descriptions.Item label="类型">{KIND_TEXT[node.kind]}</Descriptions.Item>
      {node.kind === 'dept' && <Descriptions.Item label="所属门店">{storeName ?? '未分配门店'}</Descriptions.Item>}
      <Descriptions.Item label="员工人数">
        <span className="org-detail-staff">{node.staff}</span> 人（含下级）
      </Descriptions.Item>
      <Descriptions.Item label="角色构成" span={2}>
        {node.roles.length === 0 ? (
          <span style={{ color: '#8c8c8c' }}>暂无角色</span>
        ) : (
          <Space size={[4, 4]} wrap>
            {node.roles.map((r) => (
              <Tooltip key={r.roleId} title={`数据范围：${DATA_SCOPE_LABELS[r.dataScope] ?? '未设置'}`}>
                <Tag>
                  {r.roleName} {r.count} 人
                </Tag>
              </Tooltip>
            ))}
          </Space>
        )}
      </Descriptions.Item>
      <Descriptions.Item label="数据范围" span={2}>
        {node.scope && <div className="org-detail-scope">门店范围：{node.scope}</div>}
        <div style={{ color: '#595959' }}>
          部门范围随部门树：本部门及以下数据权限的角色可查看所在部门及其下级部门的数据，本部门数据权限只含所在部门，全部数据权限不受部门限制（在角色管理中设置）。
        </div>
      </Descriptions.Item>
      <Descriptions.Item label="维护" span={2}>
        <Space wrap>
          {can('system:dept:list') && (
            <Button size="small" onClick={() => navigate('/system/dept')}>
              在部门管理中编辑部门
            </Button>
          )}
          {can('system:user:list') && (
            <Button size="small" onClick={() => navigate('/system/user')}>
              在用户管理中调整员工
            </Button>
          )}
          {can('system:role:list') && (
            <Button size="small" onClick={() => navigate('/system/role')}>
              在角色管理中设置数据权限
            </Button>
          )}
        </Space>
      </Descriptions.Item>
    </Descriptions>
  );
}
