import { EditOutlined, FormOutlined, HistoryOutlined } from '@ant-design/icons';
import { Button, Descriptions, Drawer, Space, Spin, Tag } from 'antd';
import { useState } from 'react';
import { type StudentInfo, studentInfo } from '@/api/volunteer';
import { Access } from '@/components/Access';
import { useDevice } from '@/layout/useDevice';
import { formatRank, formatTime } from '../shared/format';
import { PlanHistoryDialog } from '../shared/PlanHistoryDialog';
import { PlanStatusTag } from '../shared/PlanStatusTag';
import { RetryAlert } from '../shared/RetryAlert';
import { useLoad } from '../shared/useLoad';

const RANK_FLAG: Record<string, string> = { exact: '', interpolated: '（插值换算）', 'above-table': '（高于表内最高分）', 'below-table': '（低于表内最低分）' };

export interface StudentDrawerProps {
  studentId: number | null;
  /** Bumped by the page after an edit so the drawer re-reads. */
  refreshKey: number;
  onClose: () => void;
  onEdit: (student: StudentInfo) => void;
  onFill?: (student: StudentInfo) => void;
}

/** 学生信息: everything about one student, the plan summary, and the ways on (编辑, 去填报, 操作记录). */
export function StudentDrawer({ studentId, refreshKey, onClose, onEdit, onFill }: StudentDrawerProps) {
  const mobile = useDevice() === 'mobile';
  const [history, setHistory] = useState(false);
  const { data: s, loading, error, reload } = useLoad(() => studentInfo(studentId ?? 0), studentId != null, [studentId, refreshKey]);
  const p = s?.preferences;
  return (
    <Drawer
      open={studentId != null}
      onClose={onClose}
      width={mobile ? '100%' : 560}
      title={s ? `学生信息 · ${s.name}` : '学生信息'}
      extra={
        s ? (
          <Space>
            <Access permissions={['volunteer:student:edit']}>
              <Button icon={<EditOutlined />} onClick={() => onEdit(s)}>
                编辑
              </Button>
            </Access>
            {onFill ? (
              <Button type="primary" icon={<FormOutlined />} onClick={() => onFill(s)}>
                去填报
              </Button>
            ) : null}
          </Space>
        ) : null
      }
    >
      <Spin spinning={loading} tip="正在加载学生信息...">
        <RetryAlert error={error} title="学生信息加载失败" onRetry={reload} />
        {s ? (
          <>
            <Descriptions column={2} size="small" bordered>
              <Descriptions.Item label="姓名">{s.name}</Descriptions.Item>
              <Descriptions.Item label="手机号">{s.mobile || '--'}</Descriptions.Item>
              <Descriptions.Item label="省份">{s.province}</Descriptions.Item>
              <Descriptions.Item label="高考年份">{s.examYear}</Descriptions.Item>
              <Descriptions.Item label="分数">{s.score ?? '--'}</Descriptions.Item>
              <Descriptions.Item label="位次">
                {formatRank(s.rank)}
                {s.rankFlag ? RANK_FLAG[s.rankFlag] : ''}
              </Descriptions.Item>
              <Descriptions.Item label="选考科目" span={2}>
                {s.subjectNames || '--'}
              </Descriptions.Item>
              <Descriptions.Item label="专项资格" span={2}>
                {s.specialEligibility?.length ? s.specialEligibility.join('、') : '无'}
              </Descriptions.Item>
              <Descriptions.Item label="负责专家">{s.ownerName || '--'}</Descriptions.Item>
              <Descriptions.Item label="更新时间">{formatTime(s.updateTime)}</Descriptions.Item>
            </Descriptions>
            <Descriptions title="填报意向" column={1} size="small" bordered style={{ marginTop: 16 }}>
              <Descriptions.Item label="意向地区">{p?.regions.length ? p.regions.map((r) => <Tag key={r}>{r}</Tag>) : '不限'}</Descriptions.Item>
              <Descriptions.Item label="院校层次">{p?.levels.length ? p.levels.map((r) => <Tag key={r}>{r}</Tag>) : '不限'}</Descriptions.Item>
              <Descriptions.Item label="意向专业">{p?.majors.length ? p.majors.map((r) => <Tag key={r}>{r}</Tag>) : '不限'}</Descriptions.Item>
              <Descriptions.Item label="学费上限">{p?.tuitionCap != null ? `${p.tuitionCap} 元/年` : '不限'}</Descriptions.Item>
              <Descriptions.Item label="备注">{s.remark || '--'}</Descriptions.Item>
            </Descriptions>
            <Descriptions
              title="志愿方案"
              column={2}
              size="small"
              bordered
              style={{ marginTop: 16 }}
              extra={
                <Button size="small" icon={<HistoryOutlined />} onClick={() => setHistory(true)}>
                  操作记录
                </Button>
              }
            >
              <Descriptions.Item label="状态">
                <PlanStatusTag status={s.plan?.status ?? 'none'} name={s.plan?.statusName} />
              </Descriptions.Item>
              <Descriptions.Item label="志愿数">{s.plan?.itemCount ?? 0}</Descriptions.Item>
              <Descriptions.Item label="提交时间">{formatTime(s.plan?.submitTime)}</Descriptions.Item>
              <Descriptions.Item label="审核时间">{formatTime(s.plan?.reviewTime)}</Descriptions.Item>
              <Descriptions.Item label="审核意见" span={2}>
                {s.plan?.reviewComment || '--'}
              </Descriptions.Item>
            </Descriptions>
            <PlanHistoryDialog open={history} studentId={s.studentId} studentName={s.name} onClose={() => setHistory(false)} />
          </>
        ) : null}
      </Spin>
    </Drawer>
  );
}
