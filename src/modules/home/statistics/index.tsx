import { yuanText } from '@common/finance/checks';
import type { DayFigures, Figure } from '@common/home/statistics';
import { Card, Table } from 'antd';
import { useEffect, useState } from 'react';
import { FIGURE_TITLES, getStatistics } from '@/api/home';
import { StatisticsPanel } from './StatisticsPanel';

const COLUMNS: Figure[] = ['newCustomers', 'activatedCards', 'submittedPlans', 'approvedPlans', 'revenue', 'registrations', 'pageViews'];

/** 统计 (menu component statistics/index): the business figures by day with a chart, and the last 30 days as a table. */
export default function StatisticsPage() {
  const [rows, setRows] = useState<DayFigures[]>([]);
  useEffect(() => {
    getStatistics('', '', 30)
      .then((s) => setRows([...s.days].reverse()))
      .catch(() => undefined);
  }, []);
  return (
    <div style={{ padding: 16, display: 'grid', gap: 16 }}>
      <StatisticsPanel initialDays={30} chartHeight={380} />
      <Card title="近30天明细" size="small">
        <Table<DayFigures>
          rowKey="date"
          size="small"
          dataSource={rows}
          pagination={{ pageSize: 10, hideOnSinglePage: true }}
          columns={[
            { title: '日期', dataIndex: 'date', width: 120 },
            ...COLUMNS.map((f) => ({
              title: FIGURE_TITLES[f],
              dataIndex: f,
              render: (v: number) => (f === 'revenue' ? yuanText(v) : v),
            })),
          ]}
        />
      </Card>
    </div>
  );
}
