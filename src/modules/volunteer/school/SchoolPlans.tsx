import { Table } from 'antd';
import type { SchoolYearSummary } from './api';

/**
 * 招生计划: the school's places per year (sum of the programmes' 投档计划数; 未公布 where the year's table has none),
 * the number of programmes, and how many were 新增 or 停招 that year.
 */
export function SchoolPlans({ plans }: { plans: SchoolYearSummary[] }) {
  return (
    <Table<SchoolYearSummary>
      size="small"
      rowKey="year"
      pagination={false}
      dataSource={plans}
      columns={[
        { title: '年份', dataIndex: 'year', render: (y: number) => `${y}年` },
        // The row's year is the year of every figure in it.
        { title: '招生专业数', dataIndex: 'majors' },
        { title: '投档计划数合计', dataIndex: 'planTotal', render: (v: number | null) => (v == null ? '未公布' : `${v} 人`) },
        { title: '新增专业', dataIndex: 'added', render: (v: number) => (v ? `${v} 个` : '—') },
        { title: '停招专业', dataIndex: 'stopped', render: (v: number) => (v ? `${v} 个` : '—') },
      ]}
    />
  );
}
