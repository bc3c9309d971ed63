import { DeleteOutlined, ReloadOutlined } from '@ant-design/icons';
import { App, Button, Card, Col, Form, Input, Row, Table } from 'antd';
import { useCallback, useState } from 'react';
import { clearCacheAll, clearCacheKey, clearCacheName, getCacheValue, listCacheKeys, listCacheNames } from '@/api/monitor';
import { useReading } from '../useReading';

/**
 * 缓存列表 (RuoYi monitor/cache/list): cache names → their keys → a key's value, with 清理 by name, by key and 清理全部.
 * Clearing goes through the cache layer, so with Redis every server process drops the values at once.
 */
export default function CacheListPage() {
  const { message, modal } = App.useApp();
  const { data: names, loading: loadingNames, load: loadNames } = useReading(listCacheNames);
  const [keys, setKeys] = useState<string[]>([]);
  const [name, setName] = useState<string | null>(null);
  const [value, setValue] = useState<{ cacheName: string; cacheKey: string; cacheValue: string } | null>(null);
  const [loadingKeys, setLoadingKeys] = useState(false);

  const loadKeys = useCallback(async (cacheName: string) => {
    setName(cacheName);
    setLoadingKeys(true);
    try {
      setKeys(await listCacheKeys(cacheName));
    } catch {
      setKeys([]);
    } finally {
      setLoadingKeys(false);
    }
  }, []);

  const showValue = async (cacheKey: string) => {
    if (!name) return;
    try {
      setValue(await getCacheValue(name, cacheKey));
    } catch {
      setValue(null);
    }
  };

  const clearAll = () =>
    modal.confirm({
      title: '系统提示',
      content: '确认要清理全部缓存吗？',
      okText: '确定',
      cancelText: '取消',
      onOk: async () => {
        message.success(await clearCacheAll());
        setValue(null);
        if (name) await loadKeys(name);
      },
    });

  return (
    <div className="app-container" style={{ padding: 16 }}>
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={8}>
          <Card
            size="small"
            title="缓存列表"
            extra={<Button type="text" size="small" icon={<ReloadOutlined />} onClick={loadNames} aria-label="刷新缓存列表" />}
          >
            <Table
              rowKey="cacheName"
              size="small"
              loading={loadingNames}
              pagination={false}
              dataSource={names ?? []}
              rowClassName={(r) => (r.cacheName === name ? 'ant-table-row-selected' : '')}
              onRow={(r) => ({ onClick: () => loadKeys(r.cacheName), style: { cursor: 'pointer' } })}
              columns={[
                { title: '序号', key: 'i', width: 60, render: (_v, _r, i) => i + 1 },
                { title: '缓存名称', dataIndex: 'cacheName' },
                { title: '备注', dataIndex: 'remark' },
                {
                  title: '操作',
                  key: 'op',
                  width: 70,
                  render: (_v, r) => (
                    <Button
                      type="link"
                      size="small"
                      danger
                      icon={<DeleteOutlined />}
                      aria-label={`清理${r.remark}`}
                      onClick={async (e) => {
                        e.stopPropagation();
                        message.success(await clearCacheName(r.cacheName));
                        if (name === r.cacheName) await loadKeys(r.cacheName);
                        setValue(null);
                      }}
                    />
                  ),
                },
              ]}
            />
          </Card>
        </Col>
        <Col xs={24} lg={8}>
          <Card
            size="small"
            title="键名列表"
            extra={
              <Button type="text" size="small" icon={<ReloadOutlined />} disabled={!name} onClick={() => name && loadKeys(name)} aria-label="刷新键名列表" />
            }
          >
            <Table
              rowKey={(k) => k}
              size="small"
              loading={loadingKeys}
              pagination={false}
              dataSource={keys}
              locale={{ emptyText: name ? '暂无缓存键' : '请先在左侧选择缓存名称' }}
              onRow={(k) => ({ onClick: () => showValue(k), style: { cursor: 'pointer' } })}
              columns={[
                { title: '序号', key: 'i', width: 60, render: (_v, _r, i) => i + 1 },
                { title: '缓存键名', key: 'k', render: (_v, k: string) => k, ellipsis: true },
                {
                  title: '操作',
                  key: 'op',
                  width: 70,
                  render: (_v, k: string) => (
                    <Button
                      type="link"
                      size="small"
                      danger
                      icon={<DeleteOutlined />}
                      aria-label={`清理${k}`}
                      onClick={async (e) => {
                        e.stopPropagation();
                        if (!name) return;
                        message.success(await clearCacheKey(name, k));
                        await loadKeys(name);
                        if (value?.cacheKey === k) setValue(null);
                      }}
                    />
                  ),
                },
              ]}
            />
          </Card>
        </Col>
        <Col xs={24} lg={8}>
          <Card
            size="small"
            title="缓存内容"
            extra={
              <Button type="link" size="small" danger onClick={clearAll}>
                清理全部
              </Button>
            }
          >
            <Form layout="vertical">
              <Form.Item label="缓存名称">
                <Input readOnly value={value?.cacheName ?? ''} />
              </Form.Item>
              <Form.Item label="缓存键名">
                <Input readOnly value={value?.cacheKey ?? ''} />
              </Form.Item>
              <Form.Item label="缓存内容">
                <Input.TextArea readOnly rows={12} value={value?.cacheValue ?? ''} />
              </Form.Item>
            </Form>
          </Card>
        </Col>
      </Row>
    </div>
  );
}
