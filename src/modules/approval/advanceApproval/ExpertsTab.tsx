import { Button, Table } from 'antd';
import type { Expert } from '@/api/volunteer';

/** 专家列表: each expert's students by plan status; 查看学生 filters the student list by the expert. */
export function ExpertsTab({ experts, loading, onShowStudents }: { experts: Expert[]; loading: boolean; onShowStudents: (e: Expert) => void }) {
  return (
    <Table<Expert>
      rowKey="userId"
      size="middle"
      loading={loading}
      dataSource={experts}
      pagination={false}
      scroll={{ x: 800 }}
      locale={{ emptyText: '还没有志愿专家账号' }}
      columns={[
        { title: '专家', key: 'name', render: (_v, e) => e.nickName || e.userName },
        { title: '账号', dataIndex: 'userName' },
        { title: '手机号', dataIndex: 'mobile', render: (v) => v || '--' },
        { title: '门店', dataIndex: 'storeName', render: (v) => v || '--' },
        { title: '学生数', dataIndex: 'studentCount', sorter: (a, b) => a.studentCount - b.studentCount },
        { title: '草稿', dataIndex: 'draftCount' },
        { title: '待审核', dataIndex: 'submittedCount', render: (v: number) => (v ? <b style={{ color: '#d46b08' }}>{v}</b> : v) },
        { title: '已通过', dataIndex: 'approvedCount' },
        { title: '已驳回', dataIndex: 'rejectedCount' },
        {
          title: '操作',
          key: 'action',
          render: (_v, e) => (
            <Button type="link" size="small" onClick={() => onShowStudents(e)}>
              查看学生
            </Button>
          ),
        },
      ]}
    />
  );
}
