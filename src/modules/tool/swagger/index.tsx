import { DownloadOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Collapse, Empty, Input, Space, Spin, Table, Tag, Typography } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { getOpenApi, type OpenApiDocument } from '@/api/tool';
import { filterRows, type OperationRow, operationRows, resolveRefs } from './operations';

const METHOD_COLOR: Record<string, string> = { GET: 'blue', POST: 'green', PUT: 'orange', DELETE: 'red', PATCH: 'purple' };

function Json({ value }: { value: unknown }) {
  return <pre style={{ margin: 0, maxHeight: 360, overflow: 'auto', background: '#f6f8fa', padding: 12, fontSize: 12 }}>{JSON.stringify(value, null, 2)}</pre>;
}

function Detail({ row, doc }: { row: OperationRow; doc: OpenApiDocument }) {
  const op = row.operation;
  const body = op.requestBody?.content ? Object.values(op.requestBody.content)[0]?.schema : undefined;
  const ok = op.responses?.['200'];
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      {op.description && <Typography.Paragraph style={{ margin: 0 }}>{op.description}</Typography.Paragraph>}
      {op.parameters?.length ? (
        <Table
          size="small"
          pagination={false}
          rowKey={(p) => `${p.in}:${p.name}`}
          dataSource={op.parameters}
          columns={[
            { title: '参数', dataIndex: 'name' },
            { title: '位置', dataIndex: 'in', width: 90 },
            { title: '必填', dataIndex: 'required', width: 70, render: (v) => (v ? '是' : '否') },
            { title: '说明', dataIndex: 'description', render: (v) => v || '--' },
          ]}
        />
      ) : null}
      {body !== undefined && (
        <>
          <Typography.Text strong>请求体</Typography.Text>
          <Json value={resolveRefs(body, doc)} />
        </>
      )}
      {ok && (
        <>
          <Typography.Text strong>成功响应 {ok.description ? `（${ok.description}）` : ''}</Typography.Text>
          {ok.content ? <Json value={resolveRefs(Object.values(ok.content)[0]?.schema, doc)} /> : null}
        </>
      )}
    </Space>
  );
}

/** 系统接口 (tool/swagger): the OpenAPI 3.1 document of the whole API, grouped by area, searchable, downloadable. */
export default function ApiDocs() {
  const [doc, setDoc] = useState<OpenApiDocument | null>(null);
  const [error, setError] = useState('');
  const [text, setText] = useState('');
  useEffect(() => {
    getOpenApi()
      .then(setDoc)
      .catch((e: Error) => setError(e.message || '接口文档加载失败，请刷新重试'));
  }, []);
  const rows = useMemo(() => (doc ? operationRows(doc) : []), [doc]);
  const shown = useMemo(() => filterRows(rows, text), [rows, text]);
  const groups = useMemo(() => {
    const map = new Map<string, OperationRow[]>();
    for (const r of shown) map.set(r.tag, [...(map.get(r.tag) ?? []), r]);
    return [...map.entries()];
  }, [shown]);

  const download = () => {
    if (!doc) return;
    const href = URL.createObjectURL(new Blob([JSON.stringify(doc, null, 2)], { type: 'application/json' }));
    const a = document.createElement('a');
    a.href = href;
    a.download = 'openapi.json';
    a.click();
    setTimeout(() => URL.revokeObjectURL(href), 1000);
  };

  return (
    <div style={{ padding: 16 }}>
      <Card
        title={doc ? `${doc.info.title} · OpenAPI ${doc.openapi}` : '系统接口'}
        extra={
          <Space>
            <Input.Search placeholder="搜索路径、说明或权限标识" allowClear onChange={(e) => setText(e.target.value)} style={{ width: 280 }} />
            <Button icon={<DownloadOutlined />} onClick={download} disabled={!doc}>
              下载 openapi.json
            </Button>
          </Space>
        }
      >
        {error && <Alert type="error" showIcon message={error} />}
        {!doc && !error && <Spin tip="正在加载接口文档..." style={{ display: 'block', margin: 40 }} />}
        {doc && (
          <Typography.Paragraph type="secondary">
            共 {rows.length} 个接口{text ? `，匹配 ${shown.length} 个` : ''}。每个接口标注其权限标识（public 为无需登录，login 为登录即可）。
          </Typography.Paragraph>
        )}
        {doc && groups.length === 0 && <Empty description="没有匹配的接口" />}
        {groups.length > 0 && (
          <Collapse
            defaultActiveKey={groups.length <= 3 ? groups.map(([tag]) => tag) : []}
            items={groups.map(([tag, list]) => ({
              key: tag,
              label: `${tag}（${list.length}）`,
              children: (
                <Table<OperationRow>
                  size="small"
                  rowKey="key"
                  pagination={false}
                  dataSource={list}
                  expandable={{ expandedRowRender: (row) => <Detail row={row} doc={doc as OpenApiDocument} /> }}
                  columns={[
                    { title: '方法', dataIndex: 'method', width: 90, render: (m: string) => <Tag color={METHOD_COLOR[m] ?? 'default'}>{m}</Tag> },
                    // What the call does, in Chinese, first; its path only as a secondary monospace detail of the doc.
                    {
                      title: '接口',
                      dataIndex: 'summary',
                      render: (summary: string, row: OperationRow) => (
                        <div>
                          <div>{summary || '未命名接口'}</div>
                          <Typography.Text type="secondary" style={{ fontFamily: 'monospace', fontSize: 12 }}>
                            {row.path}
                          </Typography.Text>
                        </div>
                      ),
                    },
                    { title: '权限标识', dataIndex: 'permission', width: 220, render: (p: string) => (p ? <Tag>{p}</Tag> : '--') },
                  ]}
                />
              ),
            }))}
          />
        )}
      </Card>
    </div>
  );
}
