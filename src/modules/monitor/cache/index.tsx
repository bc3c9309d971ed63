import { ReloadOutlined } from '@ant-design/icons';
import { Button, Card, Col, Descriptions, Progress, Row, Spin, Table, Tag } from 'antd';
import { getCacheMonitor } from '@/api/monitor';
import { formatBytes, formatDuration, percent } from '../format';
import { useReading } from '../useReading';

/**
 * 缓存监控 (RuoYi monitor/cache): the cache backend's real figures — in-process memory or Redis (INFO: version, mode,
 * clients, memory, keyspace hits, command statistics) — and per cache name its keys, hits, misses and hit rate.
 */
export default function CacheMonitorPage() {
  const { data, loading, load } = useReading(getCacheMonitor);

  const redis = data?.backend === 'redis' ? (data.info.info ?? {}) : null;
  const totalHits = data?.names.reduce((s, n) => s + n.hits, 0) ?? 0;
  const totalReads = data?.names.reduce((s, n) => s + n.hits + n.misses, 0) ?? 0;

  return (
    <div className="app-container" style={{ padding: 16 }}>
      <Spin spinning={loading && !data}>
        <Row gutter={[16, 16]}>
          <Col span={24}>
            <Card
              title="基本信息"
              size="small"
              extra={
                <Button size="small" icon={<ReloadOutlined />} onClick={load} loading={loading}>
                  刷新
                </Button>
              }
            >
              {data && redis && (
                <Descriptions bordered size="small" column={{ xs: 1, sm: 2, lg: 4 }}>
                  <Descriptions.Item label="缓存类型">
                    <Tag color="red">Redis</Tag>
                  </Descriptions.Item>
                  <Descriptions.Item label="Redis版本">{redis.redis_version}</Descriptions.Item>
                  <Descriptions.Item label="运行模式">{redis.redis_mode === 'standalone' ? '单机' : '集群'}</Descriptions.Item>
                  <Descriptions.Item label="端口">{redis.tcp_port}</Descriptions.Item>
                  <Descriptions.Item label="客户端数">{redis.connected_clients}</Descriptions.Item>
                  <Descriptions.Item label="运行时间">{formatDuration(Number(redis.uptime_in_seconds))}</Descriptions.Item>
                  <Descriptions.Item label="使用内存">{redis.used_memory_human}</Descriptions.Item>
                  <Descriptions.Item label="内存配置">{Number(redis.maxmemory) ? redis.maxmemory_human : '不限'}</Descriptions.Item>
                  <Descriptions.Item label="AOF是否开启">{redis.aof_enabled === '0' ? '否' : '是'}</Descriptions.Item>
                  <Descriptions.Item label="RDB是否成功">{redis.rdb_last_bgsave_status}</Descriptions.Item>
                  <Descriptions.Item label="Key数量">{data.info.dbSize}</Descriptions.Item>
                  <Descriptions.Item label="网络入口/出口">
                    {redis.instantaneous_input_kbps}kps / {redis.instantaneous_output_kbps}kps
                  </Descriptions.Item>
                  <Descriptions.Item label="命中/未命中(全库)">
                    {redis.keyspace_hits} / {redis.keyspace_misses}
                  </Descriptions.Item>
                  <Descriptions.Item label="键前缀">{data.prefix}</Descriptions.Item>
                </Descriptions>
              )}
              {data && !redis && (
                <Descriptions bordered size="small" column={{ xs: 1, sm: 2, lg: 4 }}>
                  <Descriptions.Item label="缓存类型">
                    <Tag color="blue">进程内存</Tag>
                  </Descriptions.Item>
                  <Descriptions.Item label="条目数">{data.info.entries}</Descriptions.Item>
                  <Descriptions.Item label="占用内存(估算)">{formatBytes(data.info.approxBytes)}</Descriptions.Item>
                  <Descriptions.Item label="条目上限">{data.info.maxEntries}</Descriptions.Item>
                  <Descriptions.Item label="进程堆内存">
                    {formatBytes(data.process.heapUsed)} / {formatBytes(data.process.heapTotal)}
                  </Descriptions.Item>
                  <Descriptions.Item label="进程常驻内存">{formatBytes(data.process.rss)}</Descriptions.Item>
                  <Descriptions.Item label="键前缀">{data.prefix}</Descriptions.Item>
                  <Descriptions.Item label="说明">多个服务进程请设置 REDIS_URL 共享缓存</Descriptions.Item>
                </Descriptions>
              )}
            </Card>
          </Col>
          <Col xs={24} lg={redis ? 14 : 24}>
            <Card title="缓存命中" size="small" extra={<span>本进程总命中率 {percent(totalReads ? totalHits / totalReads : 0)}</span>}>
              <Table
                rowKey="name"
                size="small"
                pagination={false}
                dataSource={data?.names ?? []}
                columns={[
                  { title: '缓存名称', dataIndex: 'title', render: (v: string, r) => `${v}（${r.name}）` },
                  { title: '键数量', dataIndex: 'keys', width: 90 },
                  { title: '命中', dataIndex: 'hits', width: 90 },
                  { title: '未命中', dataIndex: 'misses', width: 90 },
                  { title: '出错', dataIndex: 'errors', width: 70 },
                  {
                    title: '命中率',
                    dataIndex: 'hitRate',
                    width: 200,
                    render: (v: number) => <Progress percent={Math.round(v * 1000) / 10} size="small" />,
                  },
                  { title: '有效期', dataIndex: 'ttlMs', width: 100, render: (v: number) => formatDuration(v / 1000) },
                ]}
              />
            </Card>
          </Col>
          {redis && (
            <Col xs={24} lg={10}>
              <Card title="命令统计" size="small">
                <Table
                  rowKey="name"
                  size="small"
                  pagination={false}
                  dataSource={data?.info.commandStats ?? []}
                  columns={[
                    { title: '命令', dataIndex: 'name' },
                    { title: '调用次数', dataIndex: 'calls', width: 120 },
                  ]}
                />
              </Card>
            </Col>
          )}
        </Row>
      </Spin>
    </div>
  );
}
