import { EditOutlined } from '@ant-design/icons';
import { Button, Card, Space, Tag, Tooltip, Typography } from 'antd';
import type { ProvinceRules, StudentInfo } from '@/api/volunteer';
import { Access } from '@/components/Access';
import { formatRank, rulesYears } from '../shared/format';
import { StudentSelect } from '../shared/StudentSelect';

export interface StudentHeaderProps {
  student: StudentInfo;
  rules: ProvinceRules;
  onEdit: () => void;
  onSwitch: (studentId: number) => void;
}

/** Who is being filled for: score, rank, subjects, preferences, the province's rules; edit or switch student. */
export function StudentHeader({ student, rules, onEdit, onSwitch }: StudentHeaderProps) {
  const p = student.preferences;
  const prefs = [
    p?.regions.length ? `地区 ${p.regions.join('、')}` : null,
    p?.levels.length ? `层次 ${p.levels.join('、')}` : null,
    p?.majors.length ? `专业 ${p.majors.join('、')}` : null,
    p?.tuitionCap != null ? `学费 ≤ ${p.tuitionCap} 元` : null,
  ].filter(Boolean);
  // The exam the student sits and the catalogue the figures come from (the newest admission year loaded).
  const { year, targetYear } = rulesYears(rules);
  const otherYear = targetYear != null && student.examYear !== targetYear;
  return (
    <Card size="small" style={{ marginBottom: 12 }} styles={{ body: { padding: '10px 16px' } }}>
      <div style={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: '8px 24px' }}>
        <Space size={8} align="baseline">
          <Typography.Title level={4} style={{ margin: 0 }}>
            {student.name}
          </Typography.Title>
          <Tag>{student.province}</Tag>
          <Tooltip title="学生参加高考的年份（在「编辑学生信息」中修改）">
            <Tag color={otherYear ? 'orange' : 'blue'} aria-label="高考年份">
              {student.examYear}年高考
            </Tag>
          </Tooltip>
        </Space>
        {year != null ? (
          <Tooltip
            title={
              otherYear
                ? `可填志愿与分数线来自${year}年招生目录（供${targetYear}年高考填报）；该学生的高考年份为${student.examYear}年，请核对`
                : `可填志愿与分数线来自${year}年招生目录，录取率为${targetYear}年的估计`
            }
          >
            <Typography.Text type={otherYear ? 'warning' : 'secondary'} style={{ fontSize: 12 }} aria-label="招生目录年份">
              按{year}年招生目录 · 估计{targetYear}年录取
            </Typography.Text>
          </Tooltip>
        ) : null}
        <span>
          分数 <b style={{ fontSize: 18 }}>{student.score ?? '--'}</b>
        </span>
        <span>
          位次 <b style={{ fontSize: 18 }}>{formatRank(student.rank)}</b>
        </span>
        <span>选科 {student.subjectNames || '--'}</span>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {rules.mode} · {rules.zyTypeName} · 最多 {rules.slotLimit} 个志愿
          {rules.groupMajorLimit ? ` · 每组最多 ${rules.groupMajorLimit} 个专业` : ''}
        </Typography.Text>
        <Typography.Text type="secondary" style={{ fontSize: 12 }} ellipsis>
          意向：{prefs.length ? prefs.join('；') : '未填写'}
        </Typography.Text>
        <Space style={{ marginLeft: 'auto' }} wrap>
          <Access permissions={['volunteer:student:edit']}>
            <Button size="small" icon={<EditOutlined />} onClick={onEdit}>
              编辑学生信息
            </Button>
          </Access>
          <StudentSelect
            placeholder="切换学生"
            allowClear={false}
            style={{ minWidth: 200 }}
            onChange={(id) => id && id !== student.studentId && onSwitch(id)}
          />
        </Space>
      </div>
    </Card>
  );
}
