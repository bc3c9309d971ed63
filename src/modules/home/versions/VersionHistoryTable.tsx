import { Table } from 'antd';
import dayjs from 'dayjs';
import type { VersionHistoryItem } from '@/api/home';

export const formatTime = (ms: number | null | undefined) => (ms ? dayjs(ms).format('YYYY-MM-DD HH:mm:ss') : '--');

/** Spec §3 historylog: user, time, changed file count, tag, log — newest first. */
export function VersionHistoryTable({ rows, loading, pageSize = 10 }: { rows: VersionHistoryItem[]; loading?: boolean; pageSize?: number }) {
  return (
    <Table<VersionHistoryItem>
      rowKey="id"
      size="small"
      loading={loading}
      dataSource={rows}
      pagination={{ pageSize, hideOnSinglePage: true }}
      columns={[
        { title: '发布人', dataIndex: 'user', width: 120 },
        { title: '发布时间', dataIndex: 'time', width: 180, render: formatTime },
        { title: '变更文件数', dataIndex: 'filenums', width: 110 },
        { title: '发布标签', dataIndex: 'tag', width: 110 },
        { title: '更新日志', dataIndex: 'log', render: (log: string) => <span style={{ whiteSpace: 'pre-line' }}>{log}</span> },
      ]}
    />
  );
}
