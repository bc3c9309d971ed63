import { gradeMeaning } from '@common/volunteer/disciplineGrades';
import { Collapse, Descriptions, Modal, Spin, type TableColumnsType, Tag, Tooltip, Typography } from 'antd';
import { type ChanceRow, type MajorDetail, type MajorSchoolRow, majorDetail } from '@/api/volunteer';
import { RetryAlert } from '../shared/RetryAlert';
import { useLoad } from '../shared/useLoad';
import { MajorFacts } from './MajorFacts';
import { OptionLinesTable } from './OptionLinesTable';

export interface MajorDialogProps {
  majorName: string | null;
  studentId: number;
  inPlan: ReadonlySet<number>;
  canAdd: boolean;
  onAdd: (row: ChanceRow) => void;
  onChance: (row: ChanceRow) => void;
  onClose: () => void;
}

/** The columns 专业详情 adds to the lines: how the line teaches the major, and the school's grade in its discipline. */
function encyclopaediaColumns(data: MajorDetail): TableColumnsType<ChanceRow> {
  const cls = data.facts?.className ?? '专业类';
  const discipline = data.discipline;
  return [
    {
      title: '投档专业（类）',
      key: 'printed',
      width: 220,
      ellipsis: true,
      render: (_v, r) => {
        const row = r as MajorSchoolRow;
        return (
          <span>
            {row.via === 'class' ? <Tag color="blue">按{cls}招生</Tag> : null}
            {row.majorName}
          </span>
        );
      },
    },
    {
      title: discipline ? `${discipline.name}学科评估（${data.evaluationYear}）` : `学科评估（${data.evaluationYear}）`,
      key: 'grade',
      width: 150,
      render: (_v, r) => {
        const ev = (r as MajorSchoolRow).evaluation;
        if (!ev) return <Typography.Text type="secondary">无对应学科</Typography.Text>;
        if (!ev.grade) return <Typography.Text type="secondary">未上榜</Typography.Text>;
        return (
          <Tooltip title={`${ev.year}年第四轮学科评估，${ev.disciplineName} ${ev.grade}（${gradeMeaning(ev.grade)}）`}>
            <Tag color={ev.grade.startsWith('A') ? 'red' : ev.grade.startsWith('B') ? 'orange' : 'default'}>{ev.grade}</Tag>
          </Tooltip>
        );
      },
    },
  ];
}

/**
 * 专业详情 (issue 27): the 2025 catalogue's facts, the modules that have data (the others are hidden), and the lines of
 * the student's province that teach the major — hardest first, with chances and each school's 学科评估 grade (2017).
 */
export function MajorDialog({ majorName, studentId, inPlan, canAdd, onAdd, onChance, onClose }: MajorDialogProps) {
  const { data, loading, error, reload } = useLoad(() => majorDetail(majorName ?? '', studentId), Boolean(majorName), [majorName, studentId]);
  // The scores are of the catalogue year: the labels say which.
  const of = data ? `${data.stats.year}年` : '';
  const modules = data?.modules.filter((m) => m.available) ?? [];
  return (
    <Modal open={Boolean(majorName)} title={majorName ? `专业详情 · ${majorName}` : '专业详情'} onCancel={onClose} footer={null} width={1080} destroyOnHidden>
      <Spin spinning={loading} tip="正在加载专业信息...">
        <RetryAlert error={error} title="专业信息加载失败" onRetry={reload} />
        {data ? (
          <>
            <MajorFacts facts={data.facts} asked={data.majorName} />
            <Descriptions size="small" column={3} bordered style={{ marginBottom: 12 }}>
              <Descriptions.Item label={`${of}开设院校`}>
                {data.stats.schoolCount} 所（{data.stats.lineCount} 个投档专业）
              </Descriptions.Item>
              <Descriptions.Item label={`${of}最低分`}>{data.stats.minScore ?? '--'}</Descriptions.Item>
              <Descriptions.Item label={`${of}最高分`}>{data.stats.maxScore ?? '--'}</Descriptions.Item>
            </Descriptions>
            {modules.length ? (
              <Collapse
                size="small"
                defaultActiveKey={['majorIntroduction']}
                style={{ marginBottom: 12 }}
                items={modules.map((m) => ({
                  key: m.key,
                  label: m.name,
                  children: <Typography.Paragraph style={{ whiteSpace: 'pre-wrap', marginBottom: 0 }}>{m.content}</Typography.Paragraph>,
                }))}
              />
            ) : null}
            <Typography.Title level={5}>开设院校与录取率</Typography.Title>
            <OptionLinesTable
              rows={data.schools}
              show="school"
              inPlan={inPlan}
              canAdd={canAdd}
              onAdd={onAdd}
              onChance={onChance}
              extraColumns={encyclopaediaColumns(data)}
            />
          </>
        ) : null}
      </Spin>
    </Modal>
  );
}
