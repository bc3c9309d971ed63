import { Alert, Spin, Table, Typography } from 'antd';
import { useState } from 'react';
import { advanceChance, type ChanceRow } from '@/api/volunteer';
import { chanceColumns } from '../shared/chanceColumns';
import { StudentCard } from '../shared/StudentCard';
import { useLoad } from '../shared/useLoad';
import { useWindowHeight } from '../shared/useWindowHeight';

/**
 * 提前批志愿 (menu component leader/volunteerAdvance/index): a student's chances in the advance batch. When the
 * province has no advance-batch lines the server says so, and the page shows its explanation instead of a table.
 */
export default function AdvanceBatchPage() {
  const [studentId, setStudentId] = useState<number | undefined>();
  const height = useWindowHeight();
  const { data, loading } = useLoad(() => advanceChance({ studentId, all: 1 }), studentId != null, [studentId]);
  return (
    <StudentCard title="提前批志愿" studentId={studentId} onStudent={setStudentId} empty="请选择学生，查看提前批录取概率">
      <Spin spinning={loading} tip="正在计算提前批录取概率...">
        {data && !data.available ? <Alert type="warning" showIcon message="暂无提前批数据" description={data.message} /> : null}
        {data?.available ? (
          <>
            {data.notes.length ? <Alert type="info" showIcon message={data.notes.join('；')} style={{ marginBottom: 8 }} /> : null}
            <Typography.Text type="secondary">共 {data.total} 条</Typography.Text>
            <Table<ChanceRow>
              rowKey="lineId"
              size="small"
              virtual
              pagination={false}
              scroll={{ y: Math.max(320, height - 360) }}
              dataSource={data.rows}
              columns={chanceColumns(true)}
            />
          </>
        ) : null}
      </Spin>
    </StudentCard>
  );
}
