import { ReloadOutlined } from '@ant-design/icons';
import { Button, Card, Col, Descriptions, Progress, Row, Space, Spin, Switch, Table, Tabs } from 'antd';
import dayjs from 'dayjs';
import { useCallback, useEffect, useState } from 'react';
import { getServerInfo, type ServerNode } from '@/api/monitor';
import { formatBytes, formatDuration, percent } from '../format';

/**
 * 服务监控 (RuoYi monitor/server): per server process — CPU, memory, Node.js heap and event-loop delay, host and
 * process facts, disk — refreshed every 5 seconds. With several processes on one database each has its own tab
 * (every process reports its figures every 10 seconds).
 */
const REFRESH_MS = 5000;

function NodeView({ node }: { node: ServerNode }) {
  const memUsed = node.memory.used / node.memory.total;
  const heapUsed = node.process.heapUsed / node.process.heapLimit;
  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} lg={12}>
        <Card size="small" title="CPU">
          <Descriptions bordered size="small" column={1}>
            <Descriptions.Item label="核心数">{node.cpu.cores}</Descriptions.Item>
            <Descriptions.Item label="型号">{node.cpu.model || '--'}</Descriptions.Item>
            <Descriptions.Item label="主机使用率">
              <Progress percent={Math.round(node.cpu.hostUsage * 1000) / 10} size="small" />
            </Descriptions.Item>
            <Descriptions.Item label="本进程使用率">
              <Progress percent={Math.round(node.cpu.processUsage * 1000) / 10} size="small" />
            </Descriptions.Item>
            <Descriptions.Item label="系统负载(1/5/15分钟)">{node.cpu.loadavg.map((v) => v.toFixed(2)).join(' / ')}</Descriptions.Item>
          </Descriptions>
        </Card>
      </Col>
      <Col xs={24} lg={12}>
        <Card size="small" title="内存">
          <Table
            size="small"
            pagination={false}
            rowKey="k"
            dataSource={[
              { k: '总内存', host: formatBytes(node.memory.total), proc: formatBytes(node.process.heapLimit) },
              { k: '已用内存', host: formatBytes(node.memory.used), proc: formatBytes(node.process.heapUsed) },
              { k: '剩余内存', host: formatBytes(node.memory.free), proc: formatBytes(node.process.heapLimit - node.process.heapUsed) },
              { k: '使用率', host: percent(memUsed), proc: percent(heapUsed) },
              { k: '常驻内存(RSS)', host: '--', proc: formatBytes(node.process.rss) },
            ]}
            columns={[
              { title: '属性', dataIndex: 'k' },
              { title: '主机', dataIndex: 'host' },
              { title: 'Node.js 堆', dataIndex: 'proc' },
            ]}
          />
        </Card>
      </Col>
      <Col span={24}>
        <Card size="small" title="服务器信息">
          <Descriptions bordered size="small" column={{ xs: 1, sm: 2, lg: 4 }}>
            <Descriptions.Item label="服务器名称">{node.host.hostname}</Descriptions.Item>
            <Descriptions.Item label="操作系统">{node.host.platform}</Descriptions.Item>
            <Descriptions.Item label="服务器IP">{node.host.ips.join('，') || '--'}</Descriptions.Item>
            <Descriptions.Item label="系统架构">{node.host.arch}</Descriptions.Item>
            <Descriptions.Item label="主机运行时长">{formatDuration(node.host.uptimeSec)}</Descriptions.Item>
          </Descriptions>
        </Card>
      </Col>
      <Col span={24}>
        <Card size="small" title="Node.js 进程信息">
          <Descriptions bordered size="small" column={{ xs: 1, sm: 2, lg: 4 }}>
            <Descriptions.Item label="Node 版本">{node.process.node}</Descriptions.Item>
            <Descriptions.Item label="进程号">{node.process.pid}</Descriptions.Item>
            <Descriptions.Item label="启动时间">{dayjs(node.process.startedAt).format('YYYY-MM-DD HH:mm:ss')}</Descriptions.Item>
            <Descriptions.Item label="运行时长">{formatDuration(node.process.uptimeSec)}</Descriptions.Item>
            <Descriptions.Item label="事件循环延迟(平均/P99/最大)">
              {node.eventLoop.meanMs} / {node.eventLoop.p99Ms} / {node.eventLoop.maxMs} ms
            </Descriptions.Item>
            <Descriptions.Item label="堆外内存">{formatBytes(node.process.external)}</Descriptions.Item>
            <Descriptions.Item label="项目路径">{node.process.cwd}</Descriptions.Item>
            <Descriptions.Item label="运行参数">{node.process.argv || '--'}</Descriptions.Item>
          </Descriptions>
        </Card>
      </Col>
      <Col span={24}>
        <Card size="small" title="磁盘状态">
          <Table
            size="small"
            pagination={false}
            rowKey="path"
            dataSource={node.disk ? [node.disk] : []}
            columns={[
              { title: '数据目录', dataIndex: 'path' },
              { title: '总大小', dataIndex: 'total', render: formatBytes },
              { title: '可用大小', dataIndex: 'free', render: formatBytes },
              { title: '已用大小', dataIndex: 'used', render: formatBytes },
              { title: '已用百分比', key: 'pct', render: (_v, d) => percent(d.used / d.total) },
            ]}
          />
        </Card>
      </Col>
    </Row>
  );
}

export default function ServerMonitorPage() {
  const [nodes, setNodes] = useState<ServerNode[]>([]);
  const [selfId, setSelfId] = useState<string>('');
  const [loading, setLoading] = useState(false);
  const [live, setLive] = useState(true);

  const load = useCallback(async () => {
    setLoading(true);
    try {
      const info = await getServerInfo();
      setNodes(info.nodes);
      setSelfId(info.self.nodeId);
    } catch {
      // the http layer has told the user
    } finally {
      setLoading(false);
    }
  }, []);

  useEffect(() => {
    load();
    if (!live) return;
    const timer = setInterval(load, REFRESH_MS);
    return () => clearInterval(timer);
  }, [load, live]);

  return (
    <div className="app-container" style={{ padding: 16 }}>
      <Spin spinning={loading && nodes.length === 0}>
        <Space style={{ marginBottom: 12 }}>
          <Button size="small" icon={<ReloadOutlined />} onClick={load}>
            刷新
          </Button>
          <Switch size="small" checked={live} onChange={setLive} /> 每 5 秒自动刷新
          <span>共 {nodes.length} 个服务进程</span>
        </Space>
        <Tabs
          items={nodes.map((n) => ({
            key: n.nodeId,
            label: `${n.host.hostname} · 进程 ${n.process.pid}${n.nodeId === selfId ? '（当前）' : ''}`,
            children: <NodeView node={n} />,
          }))}
        />
      </Spin>
    </div>
  );
}
