import { Empty, Spin, Timeline, Typography } from 'antd';
import dayjs from 'dayjs';
import type { VersionHistoryItem } from '@/api/home';

/** 更新日志: each release's log, one line per change, newest first (/log and the home drawer's 系统更新). */
export function UpdateTimeline({ rows, loading }: { rows: VersionHistoryItem[]; loading?: boolean }) {
  if (loading && !rows.length) return <Spin />;
  if (!rows.length) return <Empty description="暂无更新记录" />;
  return (
    <Timeline
      items={rows.map((r) => ({
        key: r.id,
        children: (
          <>
            <Typography.Text strong>
              {r.tag}（{dayjs(r.time).format('YYYY-MM-DD')}）
            </Typography.Text>
            <ul style={{ margin: '4px 0 0', paddingInlineStart: 18 }}>
              {r.log
                .split(/\n|；/)
                .map((line) => line.trim())
                .filter(Boolean)
                .map((line) => (
                  <li key={line}>{line}</li>
                ))}
            </ul>
          </>
        ),
      }))}
    />
  );
}
