import { Alert, Card, Empty, Space, Spin, Table, Typography } from 'antd';
import { useState } from 'react';
import { advanceChance, type ChanceRow } from '@/api/volunteer';
import { formatRank } from '../shared/format';
import { StudentSelect } from '../shared/StudentSelect';
import { Probability, TierLegend, TierTag } from '../shared/tiers';
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
    <div style={{ padding: 16 }}>
      <Card title="提前批志愿" extra={<TierLegend />}>
        <Space style={{ marginBottom: 16 }} wrap>
          <span>学生：</span>
          <StudentSelect value={studentId} onChange={(id) => setStudentId(id)} style={{ width: 320 }} />
        </Space>
        {studentId == null ? <Empty description="请选择学生，查看提前批录取概率" /> : null}
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
                columns={[
                  { title: '院校', dataIndex: 'schoolName', ellipsis: true },
                  { title: '专业', dataIndex: 'majorName', ellipsis: true },
                  { title: '最低分', dataIndex: 'minScore', width: 80 },
                  { title: '最低位次', dataIndex: 'minRank', width: 100, render: formatRank },
                  {
                    title: '录取率',
                    dataIndex: 'probability',
                    width: 90,
                    render: (p, r) => <Probability probability={p} text={r.probabilityText} tier={r.tier} />,
                  },
                  { title: '梯度', dataIndex: 'tier', width: 64, render: (t) => <TierTag tier={t} /> },
                ]}
              />
            </>
          ) : null}
        </Spin>
      </Card>
    </div>
  );
}
