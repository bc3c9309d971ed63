import { Card, Empty, Space } from 'antd';
import type { ReactNode } from 'react';
import { StudentSelect } from './StudentSelect';
import { TierLegend } from './tiers';

/**
 * A page about one student chosen on top (提前批志愿, 专业推荐): the card with the tier legend, the 学生 select with the
 * page's own actions beside it, and `empty` until a student is chosen.
 */
export function StudentCard(props: {
  title: string;
  studentId: number | undefined;
  onStudent: (studentId: number | undefined) => void;
  empty: string;
  actions?: ReactNode;
  children: ReactNode;
}) {
  const { title, studentId, onStudent, empty, actions, children } = props;
  return (
    <div style={{ padding: 16 }}>
      <Card title={title} extra={<TierLegend />}>
        <Space style={{ marginBottom: 16 }} wrap>
          <span>学生：</span>
          <StudentSelect value={studentId} onChange={(id) => onStudent(id)} style={{ width: 320 }} />
          {actions}
        </Space>
        {studentId == null ? <Empty description={empty} /> : null}
        {children}
      </Card>
    </div>
  );
}
