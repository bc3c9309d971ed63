import { Table } from 'antd';
import type { SchoolMajorLines } from '@/api/volunteer';

/** 招生计划: the school's places per year (sum of the majors' 投档计划数) and the number of majors. */
export function SchoolPlans({ plans }: { plans: SchoolMajorLines['plans'] }) {
  return (
    <Table
      size="small"
      rowKey="year"
      pagination={false}
      dataSource={plans}
      columns={[
        { title: '年份', dataIndex: 'year', render: (y: number) => `${y}年` },
        { title: '招生专业数', dataIndex: 'majors' },
        { title: '投档计划数合计', dataIndex: 'planTotal', render: (v: number | null) => (v == null ? '未公布' : `${v} 人`) },
      ]}
    />
  );
}
