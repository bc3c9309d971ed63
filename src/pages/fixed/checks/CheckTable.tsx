import { Button, Card, Table, Tag, Typography } from 'antd';
import { type CheckRow, type CheckStatus, STATUS_TEXT } from './checkRows';

const COLOR: Record<CheckStatus, string> = { ok: 'success', warn: 'warning', error: 'error', running: 'processing' };

/** A self-check page's table: 检测项 / 结果 / 说明 / 处理建议, with 重新检测. */
export function CheckTable({
  title,
  intro,
  rows,
  running,
  onRerun,
}: {
  title: string;
  intro: string;
  rows: CheckRow[];
  running: boolean;
  onRerun: () => void;
}) {
  const bad = rows.filter((r) => r.status === 'error').length;
  const warn = rows.filter((r) => r.status === 'warn').length;
  const summary = running ? '正在检测…' : bad ? `${bad} 项异常，请按处理建议操作` : warn ? `${warn} 项需要注意` : '全部正常';
  return (
    <div style={{ padding: 16 }}>
      <Card
        title={title}
        extra={
          <Button onClick={onRerun} loading={running}>
            重新检测
          </Button>
        }
      >
        <Typography.Paragraph type="secondary">{intro}</Typography.Paragraph>
        <Typography.Paragraph strong data-testid="check-summary">
          {summary}
        </Typography.Paragraph>
        <Table<CheckRow>
          rowKey="key"
          size="small"
          pagination={false}
          dataSource={rows}
          columns={[
            { title: '检测项', dataIndex: 'item', width: 140 },
            { title: '结果', dataIndex: 'status', width: 90, render: (s: CheckStatus) => <Tag color={COLOR[s]}>{STATUS_TEXT[s]}</Tag> },
            { title: '说明', dataIndex: 'detail' },
            { title: '处理建议', dataIndex: 'advice', render: (a?: string) => a ?? '--' },
          ]}
        />
      </Card>
    </div>
  );
}
