import { Empty, Modal, Spin, Tag, Timeline, Typography } from 'antd';
import { examineHistory, planHistory } from '@/api/volunteer';
import { formatTime } from './format';
import { PlanStatusTag } from './PlanStatusTag';
import { RetryAlert } from './RetryAlert';
import { useLoad } from './useLoad';

const ACTION_COLOR: Record<string, string> = { approve: 'green', reject: 'red', submit: 'blue', unsubmit: 'gray', assign: 'purple' };

export interface PlanHistoryDialogProps {
  open: boolean;
  title?: string;
  studentName?: string;
  studentId: number;
  /** 'examine' reads the Examine history (leaders); 'plan' the student's own log. */
  source?: 'plan' | 'examine';
  onClose: () => void;
}

/** Every action on a student's plan, oldest first: who, when, what, status change, version and comment. */
export function PlanHistoryDialog({ open, title = '操作记录', studentName, studentId, source = 'plan', onClose }: PlanHistoryDialogProps) {
  const { data, loading, error, reload } = useLoad(() => (source === 'examine' ? examineHistory(studentId) : planHistory(studentId)), open, [
    studentId,
    source,
  ]);
  return (
    <Modal open={open} title={studentName ? `${title} · ${studentName}` : title} onCancel={onClose} footer={null} width={640} destroyOnHidden>
      <Spin spinning={loading} tip="正在加载操作记录...">
        <RetryAlert error={error} title="操作记录加载失败" onRetry={reload} />
        {data && data.length === 0 ? <Empty description="暂无操作记录" /> : null}
        {data && data.length > 0 ? (
          <Timeline
            style={{ marginTop: 16, maxHeight: 480, overflow: 'auto', paddingTop: 8 }}
            items={data.map((a) => ({
              key: a.actionId,
              color: ACTION_COLOR[a.action] ?? 'blue',
              children: (
                <div data-testid="history-item">
                  <div>
                    <Tag color={ACTION_COLOR[a.action]}>{a.actionName}</Tag>
                    <Typography.Text strong>{a.nickName || a.userName}</Typography.Text>
                    <Typography.Text type="secondary" style={{ marginLeft: 8 }}>
                      {formatTime(a.createTime)}
                    </Typography.Text>
                  </div>
                  <div style={{ marginTop: 4, fontSize: 12, color: '#666' }}>
                    {a.fromStatus || a.toStatus ? (
                      <>
                        <PlanStatusTag status={a.fromStatus} /> → <PlanStatusTag status={a.toStatus} />
                      </>
                    ) : null}
                    <span>版本 {a.version}</span>
                  </div>
                  {a.comment ? (
                    <div style={{ marginTop: 4 }}>
                      {a.action === 'approve' || a.action === 'reject' ? '意见' : '备注'}：{a.comment}
                    </div>
                  ) : null}
                </div>
              ),
            }))}
          />
        ) : null}
      </Spin>
    </Modal>
  );
}
