import { Alert, Button, Space, Spin, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { type ChanceRow, type MajorRecommendation, majorRecommend } from '@/api/volunteer';
import { chanceColumns } from '@/modules/volunteer/shared/chanceColumns';
import { RetryAlert } from '@/modules/volunteer/shared/RetryAlert';
import { StudentCard } from '@/modules/volunteer/shared/StudentCard';
import { probabilityLabel, TIER_STYLE } from '@/modules/volunteer/shared/tiers';
import { useLoad } from '@/modules/volunteer/shared/useLoad';
import { fillingHref, useViewPath, VIEW } from '@/modules/volunteer/shared/useViewPath';

/**
 * 专业推荐 (menu component majorRecommend/index): majors for one student, ranked by match with their interests and by
 * how many schools offering them give a good chance; each with its best options.
 */
export default function MajorRecommendPage() {
  const navigate = useNavigate();
  const fillingPath = useViewPath(VIEW.filling);
  const [studentId, setStudentId] = useState<number | undefined>();
  const { data, loading, error, reload } = useLoad(() => majorRecommend(studentId ?? 0, 30), studentId != null, [studentId]);

  return (
    <StudentCard
      title="专业推荐"
      studentId={studentId}
      onStudent={setStudentId}
      empty="请选择学生，按其意向专业和分数推荐专业"
      actions={studentId != null && fillingPath ? <Button onClick={() => navigate(fillingHref(fillingPath, studentId))}>去填报</Button> : null}
    >
      <RetryAlert error={error} title="专业推荐失败" description="请确认学生已填写分数；如仍失败请稍后重试。" onRetry={reload} />
      <Spin spinning={loading} tip="正在计算专业推荐...">
        {data ? (
          <>
            <Space wrap style={{ marginBottom: 8 }}>
              <Typography.Text type="secondary">意向专业：</Typography.Text>
              {data.interests.length ? (
                data.interests.map((i) => <Tag key={i}>{i}</Tag>)
              ) : (
                <Typography.Text type="secondary">未填写（按可报院校数量推荐）</Typography.Text>
              )}
            </Space>
            {data.notes.length ? <Alert type="info" showIcon message={data.notes.join('；')} style={{ marginBottom: 8 }} /> : null}
            <Table<MajorRecommendation>
              rowKey="majorName"
              size="middle"
              pagination={false}
              dataSource={data.rows}
              scroll={{ x: 900 }}
              locale={{ emptyText: '没有可推荐的专业' }}
              columns={[
                { title: '专业', dataIndex: 'majorName', render: (v: string) => <b>{v}</b> },
                { title: '匹配意向', dataIndex: 'matchedInterest', width: 100, render: (v) => (v ? <Tag color="blue">{v}</Tag> : '--') },
                { title: '开设数', dataIndex: 'lineCount', width: 80 },
                { title: '稳/保可报', dataIndex: 'reachable', width: 90 },
                {
                  title: '梯度分布',
                  dataIndex: 'tiers',
                  width: 160,
                  render: (t: MajorRecommendation['tiers']) => (
                    <Space size={8}>
                      {(['冲', '稳', '保'] as const).map((k) => (
                        <span key={k} style={{ color: TIER_STYLE[k].color }}>
                          {k}
                          {t[k]}
                        </span>
                      ))}
                    </Space>
                  ),
                },
                { title: '最高概率', dataIndex: 'bestProbability', width: 100, render: (p) => probabilityLabel(p) },
              ]}
              expandable={{
                rowExpandable: (r) => r.options.length > 0,
                expandedRowRender: (r) => <Table<ChanceRow> rowKey="lineId" size="small" pagination={false} dataSource={r.options} columns={chanceColumns()} />,
              }}
            />
          </>
        ) : null}
      </Spin>
    </StudentCard>
  );
}
