import { Modal, Table } from 'antd';
import { type PlanItem, type Submission, submissionHistory } from '@/api/volunteer';
import { formatTime } from '../shared/format';
import { PlanStatusTag } from '../shared/PlanStatusTag';
import { RetryAlert } from '../shared/RetryAlert';
import { Probability, TierTag } from '../shared/tiers';
import { useLoad } from '../shared/useLoad';

/** Every submission of the plan, newest first, with the snapshot of items that was submitted and the review result. */
export function SubmissionHistoryDialog({
  open,
  studentId,
  studentName,
  onClose,
}: {
  open: boolean;
  studentId: number;
  studentName: string;
  onClose: () => void;
}) {
  const { data, loading, error, reload } = useLoad(() => submissionHistory(studentId), open, [studentId]);
  return (
    <Modal open={open} title={`提交记录 · ${studentName}`} onCancel={onClose} footer={null} width={900} destroyOnHidden>
      <RetryAlert error={error} title="提交记录加载失败" onRetry={reload} style={{ marginBottom: 12 }} />
      <Table<Submission>
        rowKey="submissionId"
        size="small"
        loading={loading}
        dataSource={data ?? []}
        pagination={false}
        locale={{ emptyText: '还没有提交过审核' }}
        scroll={{ y: 420 }}
        columns={[
          { title: '提交时间', dataIndex: 'submitTime', width: 170, render: formatTime },
          { title: '提交人', dataIndex: 'submitByName', width: 100, render: (v) => v || '--' },
          { title: '版本', dataIndex: 'planVersion', width: 60 },
          { title: '志愿数', dataIndex: 'itemCount', width: 70 },
          { title: '结果', dataIndex: 'status', width: 90, render: (s, r) => <PlanStatusTag status={s} name={r.statusName} /> },
          { title: '审核人', dataIndex: 'reviewByName', width: 90, render: (v) => v || '--' },
          { title: '审核时间', dataIndex: 'reviewTime', width: 170, render: formatTime },
          { title: '意见', dataIndex: 'comment', ellipsis: true, render: (v) => v || '--' },
        ]}
        expandable={{
          expandedRowRender: (s) => (
            <Table<PlanItem>
              rowKey="lineId"
              size="small"
              pagination={false}
              dataSource={s.items}
              columns={[
                { title: '序号', dataIndex: 'sort', width: 60 },
                { title: '院校', dataIndex: 'schoolName' },
                { title: '专业', dataIndex: 'majorName', render: (v) => v || '--' },
                { title: '梯度', dataIndex: 'tier', width: 70, render: (t) => <TierTag tier={t} /> },
                {
                  title: '概率',
                  dataIndex: 'probability',
                  width: 90,
                  render: (p, r) => <Probability probability={p} text={r.probabilityText} tier={r.tier} />,
                },
              ]}
            />
          ),
        }}
      />
    </Modal>
  );
}
