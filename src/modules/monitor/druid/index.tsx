import { ReloadOutlined } from '@ant-design/icons';
import type { SqlStatRow } from '@common/monitor/sqlStats';
import { App, Button, Card, Col, Descriptions, Row, Space, Spin, Table, type TableProps, Tooltip, Typography } from 'antd';
import dayjs from 'dayjs';
import { getDruid, resetDruid } from '@/api/monitor';
import { formatBytes } from '../format';
import { useReading } from '../useReading';

/**
 * 数据监控 (the spec's druid page): the database — SQLite file, WAL and pages, or PostgreSQL's pool, connections and
 * version — and the SQL statistics collected at the query layer: the slowest and the most frequent statements
 * (normalised: no parameter values), with count, mean and max time, and 重置.
 */
const ms = (v: number) => v.toFixed(2);

const columns: TableProps<SqlStatRow>['columns'] = [
  {
    title: 'SQL语句',
    dataIndex: 'sql',
    ellipsis: { showTitle: false },
    render: (v: string) => (
      <Tooltip title={v} placement="topLeft" overlayStyle={{ maxWidth: 720 }}>
        <Typography.Text code style={{ fontSize: 12 }}>
          {v}
        </Typography.Text>
      </Tooltip>
    ),
  },
  { title: '执行数', dataIndex: 'count', width: 90, align: 'right' },
  { title: '错误数', dataIndex: 'errors', width: 80, align: 'right' },
  { title: '平均耗时(ms)', dataIndex: 'meanMs', width: 120, align: 'right', render: ms },
  { title: '最慢(ms)', dataIndex: 'maxMs', width: 100, align: 'right', render: ms },
  { title: '总耗时(ms)', dataIndex: 'totalMs', width: 110, align: 'right', render: ms },
  { title: '最近执行', dataIndex: 'lastAt', width: 170, render: (v: number) => dayjs(v).format('YYYY-MM-DD HH:mm:ss') },
];

export default function DruidPage() {
  const { message, modal } = App.useApp();
  const { data, loading, load } = useReading(getDruid);

  const reset = () =>
    modal.confirm({
      title: '系统提示',
      content: '确认要重置SQL统计吗？',
      okText: '确定',
      cancelText: '取消',
      onOk: async () => {
        message.success(await resetDruid());
        await load();
      },
    });

  const db = (data?.database ?? {}) as Record<string, unknown>;
  const pool = db.pool as { total: number; idle: number; waiting: number; max: number } | null | undefined;
  const connections = (db.connections as Array<{ state: string; count: number }> | undefined) ?? [];
  const summary = data?.summary;

  return (
    <div className="app-container" style={{ padding: 16 }}>
      <Spin spinning={loading && !data}>
        <Row gutter={[16, 16]}>
          <Col span={24}>
            <Card
              size="small"
              title="数据源"
              extra={
                <Space>
                  <Button size="small" icon={<ReloadOutlined />} onClick={load} loading={loading}>
                    刷新
                  </Button>
                  <Button size="small" danger onClick={reset}>
                    重置统计
                  </Button>
                </Space>
              }
            >
              {data?.dialect === 'sqlite' && (
                <Descriptions bordered size="small" column={{ xs: 1, sm: 2, lg: 4 }}>
                  <Descriptions.Item label="数据库类型">SQLite {String(db.version)}</Descriptions.Item>
                  <Descriptions.Item label="数据库文件" span={3}>
                    {String(db.file)}
                  </Descriptions.Item>
                  <Descriptions.Item label="文件大小">{formatBytes(Number(db.fileSize))}</Descriptions.Item>
                  <Descriptions.Item label="WAL 大小">{formatBytes(Number(db.walSize))}</Descriptions.Item>
                  <Descriptions.Item label="日志模式">{String(db.journalMode).toUpperCase()}</Descriptions.Item>
                  <Descriptions.Item label="同步级别">{['OFF', 'NORMAL', 'FULL', 'EXTRA'][Number(db.synchronous)] ?? String(db.synchronous)}</Descriptions.Item>
                  <Descriptions.Item label="页大小">{formatBytes(Number(db.pageSize))}</Descriptions.Item>
                  <Descriptions.Item label="页数">{String(db.pageCount)}</Descriptions.Item>
                  <Descriptions.Item label="空闲页">{String(db.freelistCount)}</Descriptions.Item>
                  <Descriptions.Item label="页缓存">{formatBytes(Number(db.cacheBytes))}</Descriptions.Item>
                </Descriptions>
              )}
              {data?.dialect === 'postgres' && (
                <Descriptions bordered size="small" column={{ xs: 1, sm: 2, lg: 4 }}>
                  <Descriptions.Item label="数据库版本" span={4}>
                    {String(db.version)}
                  </Descriptions.Item>
                  <Descriptions.Item label="数据库大小">{String(db.databaseSize)}</Descriptions.Item>
                  <Descriptions.Item label="最大连接数">{String(db.maxConnections)}</Descriptions.Item>
                  <Descriptions.Item label="连接池(总/空闲/等待)">
                    {pool ? `${pool.total} / ${pool.idle} / ${pool.waiting}（上限 ${pool.max}）` : '--'}
                  </Descriptions.Item>
                  <Descriptions.Item label="数据库连接">{connections.map((c) => `${c.state} ${c.count}`).join('，') || '--'}</Descriptions.Item>
                </Descriptions>
              )}
            </Card>
          </Col>
          <Col span={24}>
            <Card
              size="small"
              title="SQL统计"
              extra={
                summary && (
                  <span>
                    自 {dayjs(summary.since).format('YYYY-MM-DD HH:mm:ss')} 起：{summary.statements} 种语句，执行 {summary.count} 次，错误 {summary.errors} 次
                  </span>
                )
              }
            >
              <Typography.Title level={5}>最慢的语句</Typography.Title>
              <Table rowKey="sql" size="small" columns={columns} dataSource={data?.slowest ?? []} pagination={false} scroll={{ x: 1000 }} />
              <Typography.Title level={5} style={{ marginTop: 16 }}>
                最频繁的语句
              </Typography.Title>
              <Table rowKey="sql" size="small" columns={columns} dataSource={data?.frequent ?? []} pagination={false} scroll={{ x: 1000 }} />
            </Card>
          </Col>
        </Row>
      </Spin>
    </div>
  );
}
