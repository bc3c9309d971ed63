import { Alert, Button, Collapse, Descriptions, Modal, Spin, Typography } from 'antd';
import { type ChanceRow, majorDetail } from '@/api/volunteer';
import { figureYear } from '../shared/format';
import { useLoad } from '../shared/useLoad';
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

/** 专业详情: the eight introduction modules and the schools offering the major, hardest first, with chances. */
export function MajorDialog({ majorName, studentId, inPlan, canAdd, onAdd, onChance, onClose }: MajorDialogProps) {
  const { data, loading, error, reload } = useLoad(() => majorDetail(majorName ?? '', studentId), Boolean(majorName), [majorName, studentId]);
  // The scores are of the catalogue year: the labels say which.
  const year = data?.schools.length ? figureYear(data.schools[0]) : null;
  const of = year != null ? `${year}年` : '';
  return (
    <Modal open={Boolean(majorName)} title={majorName ? `专业详情 · ${majorName}` : '专业详情'} onCancel={onClose} footer={null} width={960} destroyOnHidden>
      <Spin spinning={loading} tip="正在加载专业信息...">
        {error ? (
          <Alert
            type="error"
            showIcon
            message={`专业信息加载失败：${error}`}
            action={
              <Button size="small" onClick={reload}>
                重试
              </Button>
            }
          />
        ) : null}
        {data ? (
          <>
            <Descriptions size="small" column={3} bordered style={{ marginBottom: 12 }}>
              <Descriptions.Item label="开设院校">{data.stats.schoolCount} 所</Descriptions.Item>
              <Descriptions.Item label={`${of}最低分`}>{data.stats.minScore ?? '--'}</Descriptions.Item>
              <Descriptions.Item label={`${of}最高分`}>{data.stats.maxScore ?? '--'}</Descriptions.Item>
            </Descriptions>
            <Collapse
              size="small"
              defaultActiveKey={['majorIntroduction']}
              style={{ marginBottom: 12 }}
              items={data.modules.map((m) => ({
                key: m.key,
                label: m.available ? m.name : `${m.name}（暂无）`,
                children: (
                  <Typography.Paragraph type={m.available ? undefined : 'secondary'} style={{ whiteSpace: 'pre-wrap', marginBottom: 0 }}>
                    {m.content}
                  </Typography.Paragraph>
                ),
              }))}
            />
            <Typography.Title level={5}>开设院校与录取率</Typography.Title>
            <OptionLinesTable rows={data.schools} show="school" inPlan={inPlan} canAdd={canAdd} onAdd={onAdd} onChance={onChance} />
          </>
        ) : null}
      </Spin>
    </Modal>
  );
}
