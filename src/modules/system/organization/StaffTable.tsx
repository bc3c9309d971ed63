import type { OrgNode, OrgStaff } from '@common/system/organization';
import { Space, Table, Tag } from 'antd';
import { useEffect, useState } from 'react';
import { organizationStaff } from '@/api/system/organization';
import { DictTag } from '@/components/DictTag';

const PAGE_SIZE = 10;

/** The staff of one node (the node and the departments below it), a page at a time. */
export function StaffTable({ node }: { node: OrgNode }) {
  const [pageNum, setPageNum] = useState(1);
  const [data, setData] = useState<{ rows: OrgStaff[]; total: number }>({ rows: [], total: 0 });
  const [loading, setLoading] = useState(false);

  useEffect(() => setPageNum(1), [node.key]);
  useEffect(() => {
    let live = true;
    setLoading(true);
    const storeId = node.storeId ?? 'none';
    const deptId = node.kind === 'dept' ? (node.deptId ?? 'none') : null;
    organizationStaff({ storeId, deptId, pageNum, pageSize: PAGE_SIZE })
      .then((page) => live && setData(page))
      .catch(() => live && setData({ rows: [], total: 0 })) // the http layer has told the user
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
  }, [node, pageNum]);

  return (
    <Table<OrgStaff>
      className="org-staff"
      rowKey="userId"
      size="small"
      loading={loading}
      dataSource={data.rows}
      pagination={{ current: pageNum, pageSize: PAGE_SIZE, total: data.total, onChange: setPageNum, showTotal: (t) => `共 ${t} 条`, showSizeChanger: false }}
      columns={[
        { key: 'userName', dataIndex: 'userName', title: '用户名称' },
        { key: 'nickName', dataIndex: 'nickName', title: '用户昵称' },
        { key: 'deptName', dataIndex: 'deptName', title: '部门', render: (v: string | null) => v ?? '未分配部门' },
        { key: 'storeName', dataIndex: 'storeName', title: '所属门店', render: (v: string | null) => v ?? '未分配门店' },
        {
          key: 'roleNames',
          dataIndex: 'roleNames',
          title: '角色',
          render: (v: string[]) => (
            <Space size={[4, 4]} wrap>
              {v.map((r) => (
                <Tag key={r}>{r}</Tag>
              ))}
            </Space>
          ),
        },
        { key: 'status', dataIndex: 'status', title: '状态', width: 80, render: (v: string) => <DictTag type="sys_normal_disable" value={v} /> },
      ]}
    />
  );
}
