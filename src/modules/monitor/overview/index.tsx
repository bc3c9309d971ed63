import { ReloadOutlined } from '@ant-design/icons';
import type { HealthStatus, OverviewCard } from '@common/monitor/overview';
import { Alert, Button, Card, Col, Descriptions, Empty, List, Row, Space, Spin, Tag, Typography } from 'antd';
import dayjs from 'dayjs';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { getMonitorOverview } from '@/api/monitor';
import { useSession } from '@/session/sessionStore';
import { formatBytes, formatDuration, percent } from '../format';
import { useReading } from '../useReading';

/**
 * 监控总览 (monitor/overview/index, docs/monitor.md): the health of 服务监控, 数据监控, 缓存监控, 在线用户, 定时任务 and
 * the logs on one page, read by GET /dev-api/monitor/overview every 30 seconds. Each card shows its status colour,
 * the reason when it is not 正常, the time of its reading, and links to its page when that page is in the user's menu.
 */
const REFRESH_MS = 30_000;

const STATUS: Record<HealthStatus, { color: string; label: string }> = {
  ok: { color: 'success', label: '正常' },
  warning: { color: 'warning', label: '注意' },
  error: { color: 'error', label: '异常' },
};

const time = (ms: number | null | undefined) => (ms ? dayjs(ms).format('YYYY-MM-DD HH:mm:ss') : '--');

type Rows = Array<[string, ReactNode]>;

/** One card: its status colour and label, the reason when it is not 正常, its figures, and the time of its reading. */
function HealthCard({ title, card, testId, rows, children }: { title: string; card: OverviewCard; testId: string; rows: Rows; children?: ReactNode }) {
  const { routes } = useSession();
  const route = routes.find((r) => r.component.replace(/^\//, '') === card.component);
  const status = STATUS[card.status];
  return (
    <Col xs={24} md={12} xl={8}>
      <Card
        size="small"
        data-testid={testId}
        data-status={card.status}
        title={
          <Space>
            {title}
            <Tag color={status.color}>{status.label}</Tag>
          </Space>
        }
        extra={route ? <Link to={route.fullPath}>查看详情</Link> : null}
        style={{ height: '100%', borderTop: `3px solid var(--ant-color-${status.color}, #52c41a)` }}
      >
        {card.reason ? <Alert type={card.status === 'error' ? 'error' : 'warning'} showIcon message={card.reason} style={{ marginBottom: 8 }} /> : null}
        <Descriptions size="small" column={1} items={rows.map(([label, value]) => ({ key: label, label, children: value }))} />
        {children}
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          读取时间：{time(card.time)}
        </Typography.Text>
      </Card>
    </Col>
  );
}

export default function MonitorOverviewPage() {
  const { data, loading, load } = useReading(getMonitorOverview, REFRESH_MS);

  if (!data) return <Spin spinning={loading}>{loading ? <div style={{ minHeight: 200 }} /> : <Empty description="暂无数据" />}</Spin>;
  const { server, database, cache, online, jobs, errors } = data;
  const nextJobs = jobs.next.length ? (
    <Space direction="vertical" size={0}>
      {jobs.next.map((j) => (
        <span key={j.jobId}>
          {j.jobName}：{time(j.nextFireTime)}
        </span>
      ))}
    </Space>
  ) : (
    '无'
  );
  const diskText = server.diskTotal
    ? `${formatBytes(server.diskUsed)} / ${formatBytes(server.diskTotal)}（${percent((server.diskUsed ?? 0) / server.diskTotal)}）`
    : '--';
  return (
    <div>
      <Space style={{ marginBottom: 12 }}>
        <Button icon={<ReloadOutlined />} loading={loading} onClick={load}>
          刷新
        </Button>
        <Typography.Text type="secondary">每 30 秒自动刷新 · 最近读取 {time(data.time)}</Typography.Text>
      </Space>
      <Row gutter={[16, 16]}>
        <HealthCard
          title="服务器"
          card={server}
          testId="overview-server"
          rows={[
            ['CPU 使用率', `${percent(server.cpuUsage)}（${server.cores} 核）`],
            ['内存', `${formatBytes(server.memoryUsed)} / ${formatBytes(server.memoryTotal)}（${percent(server.memoryUsed / server.memoryTotal)}）`],
            ['磁盘', diskText],
            ['运行时长', formatDuration(server.uptimeSec)],
            ['服务进程', `${server.nodes} 个`],
          ]}
        />
        <HealthCard
          title="数据库"
          card={database}
          testId="overview-database"
          rows={[
            ['类型', database.dialect === 'postgres' ? 'PostgreSQL' : 'SQLite'],
            ['数据库大小', formatBytes(database.sizeBytes)],
            ['执行次数', `${database.executions}（${database.statements} 条语句，出错 ${database.errors} 次）`],
            [`慢语句（≥ ${database.slowMs} ms）`, `${database.slowStatements} 条`],
            ['缓存命中率', database.cacheHitRatio === null ? '不适用（SQLite）' : percent(database.cacheHitRatio)],
            ['统计起始', time(database.since)],
          ]}
        />
        <HealthCard
          title="缓存"
          card={cache}
          testId="overview-cache"
          rows={[
            ['类型', cache.backend === 'redis' ? 'Redis' : '进程内缓存'],
            ['键数量', `${cache.keys} 个`],
            ['占用内存', formatBytes(cache.memoryBytes)],
            ['命中率', `${percent(cache.hitRate)}（命中 ${cache.hits} / 未命中 ${cache.misses}）`],
          ]}
        />
        <HealthCard
          title="在线用户"
          card={online}
          testId="overview-online"
          rows={[
            ['在线会话', `${online.sessions} 个`],
            ['在线用户', `${online.users} 人`],
          ]}
        />
        <HealthCard
          title="定时任务"
          card={jobs}
          testId="overview-jobs"
          rows={[
            ['任务', `正常 ${jobs.active} 个 · 暂停 ${jobs.paused} 个`],
            ['近 24 小时', `执行 ${jobs.runs24h} 次 · 失败 ${jobs.failed24h} 次`],
            ['即将执行', nextJobs],
          ]}
        />
        <HealthCard
          title="最近错误"
          card={errors}
          testId="overview-errors"
          rows={[
            ['近 24 小时操作失败', `${errors.failedOperations24h} 次`],
            ['近 24 小时登录失败', `${errors.failedLogins24h} 次`],
          ]}
        >
          {errors.recent.length ? (
            <List
              size="small"
              dataSource={errors.recent}
              renderItem={(e) => (
                <List.Item>
                  <Typography.Text ellipsis style={{ maxWidth: '100%' }} title={e.message}>
                    {time(e.time)} {e.title}：{e.message || '（无错误信息）'}
                  </Typography.Text>
                </List.Item>
              )}
            />
          ) : null}
        </HealthCard>
      </Row>
    </div>
  );
}
