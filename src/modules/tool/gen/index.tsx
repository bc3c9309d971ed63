import { DeleteOutlined, DownloadOutlined, EditOutlined, EyeOutlined, SyncOutlined, UploadOutlined } from '@ant-design/icons';
import type { GenQuery, GenTable } from '@common/gen/tables';
import { Alert, App, Button, Card, Col, Form, Input, Modal, Row, Space, Table, type TableProps, Typography } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { delGenTables, downloadGen, downloadGenBatch, genCode, listGenTables, synchDb } from '@/api/gen';
import { RequestError } from '@/api/request';
import { Access } from '@/components/Access';
import { Pagination } from '@/components/Pagination';
import { RightToolbar } from '@/components/RightToolbar';
import { parseTime } from '@/utils/format';
import { ImportDialog } from './ImportDialog';
import { PreviewDialog } from './PreviewDialog';

/**
 * 代码生成 (tool/gen/index, RuoYi tool/gen): the imported tables. 导入 adds database tables, 修改 opens the generation
 * settings (/tool/gen-edit/index/:tableId), 预览 shows the schema JSON, 生成代码 downloads schemas/<entity>.json or —
 * when the server runs with GEN_WRITE=1 — writes it into the schemas folder; 同步 re-reads the table's columns.
 */
export default function GenList() {
  const { modal, message } = App.useApp();
  const navigate = useNavigate();
  const [form] = Form.useForm<{ tableName?: string; tableComment?: string }>();
  const [query, setQuery] = useState<GenQuery>({ pageNum: 1, pageSize: 10 });
  const [rows, setRows] = useState<GenTable[]>([]);
  const [total, setTotal] = useState(0);
  const [genWrite, setGenWrite] = useState(false);
  const [loading, setLoading] = useState(false);
  const [showSearch, setShowSearch] = useState(true);
  const [selected, setSelected] = useState<GenTable[]>([]);
  const [importing, setImporting] = useState(false);
  const [previewId, setPreviewId] = useState<number | null>(null);
  const [generating, setGenerating] = useState<GenTable | null>(null);

  const load = useCallback(async (q: GenQuery) => {
    setLoading(true);
    try {
      const page = await listGenTables(q);
      setRows(page.rows);
      setTotal(page.total);
      setGenWrite(page.genWrite);
    } catch {
      // shown by the http layer
    } finally {
      setLoading(false);
    }
  }, []);
  useEffect(() => {
    load(query);
  }, [load, query]);
  const refresh = () => load(query);
  const closePreview = useCallback(() => setPreviewId(null), []);

  const search = () => {
    const v = form.getFieldsValue();
    setSelected([]);
    setQuery({ pageNum: 1, pageSize: query.pageSize, tableName: v.tableName?.trim() || undefined, tableComment: v.tableComment?.trim() || undefined });
  };
  const reset = () => {
    form.resetFields();
    setSelected([]);
    setQuery({ pageNum: 1, pageSize: query.pageSize });
  };

  const edit = (t: GenTable) => navigate(`/tool/gen-edit/index/${t.tableId}`);
  const remove = (tables: GenTable[]) =>
    modal.confirm({
      title: '系统提示',
      content: `是否确认删除表编号为"${tables.map((t) => t.tableId).join(',')}"的数据项？`,
      okText: '确定',
      cancelText: '取消',
      onOk: async () => {
        await delGenTables(tables.map((t) => t.tableId));
        message.success('删除成功');
        setSelected([]);
        await refresh();
      },
    });
  const sync = (t: GenTable) =>
    modal.confirm({
      title: '系统提示',
      content: `确认要强制同步"${t.tableName}"表结构吗？`,
      okText: '确定',
      cancelText: '取消',
      onOk: async () => {
        message.success(await synchDb(t.tableName));
        await refresh();
      },
    });
  // One table: its .json; several: one .zip of schemas/<entity>.json files (RuoYi batchGenCode).
  const downloadAll = async (tables: GenTable[]) => {
    try {
      if (tables.length === 1) await downloadGen(tables[0]);
      else await downloadGenBatch(tables);
    } catch {
      // the download helper has shown why
    }
  };

  const columns: TableProps<GenTable>['columns'] = [
    { title: '序号', key: 'index', width: 60, align: 'center', render: (_v, _r, i) => (query.pageNum - 1) * query.pageSize + i + 1 },
    { title: '表名称', dataIndex: 'tableName', ellipsis: true },
    { title: '表描述', dataIndex: 'tableComment', ellipsis: true },
    { title: '实体名称', dataIndex: 'entityName', ellipsis: true },
    { title: '接口地址', dataIndex: 'endpointBase', ellipsis: true },
    { title: '创建时间', dataIndex: 'createTime', width: 170, render: (v: number) => parseTime(v) ?? '' },
    { title: '更新时间', dataIndex: 'updateTime', width: 170, render: (v: number | null) => parseTime(v) ?? '' },
    {
      title: '操作',
      key: 'action',
      width: 330,
      fixed: 'right',
      render: (_v, t) => (
        <Space size={0} wrap>
          <Access permissions={['tool:gen:preview']}>
            <Button type="link" size="small" icon={<EyeOutlined />} onClick={() => setPreviewId(t.tableId)}>
              预览
            </Button>
          </Access>
          <Access permissions={['tool:gen:edit']}>
            <Button type="link" size="small" icon={<EditOutlined />} onClick={() => edit(t)}>
              编辑
            </Button>
          </Access>
          <Access permissions={['tool:gen:remove']}>
            <Button type="link" size="small" icon={<DeleteOutlined />} onClick={() => remove([t])}>
              删除
            </Button>
          </Access>
          <Access permissions={['tool:gen:edit']}>
            <Button type="link" size="small" icon={<SyncOutlined />} onClick={() => sync(t)}>
              同步
            </Button>
          </Access>
          <Access permissions={['tool:gen:code']}>
            <Button type="link" size="small" icon={<DownloadOutlined />} onClick={() => setGenerating(t)}>
              生成代码
            </Button>
          </Access>
        </Space>
      ),
    },
  ];

  return (
    <div className="app-container gen-list" style={{ padding: 16 }}>
      <Card>
        {showSearch && (
          <Form name="genSearch" form={form} layout="inline" onFinish={search} style={{ marginBottom: 16, rowGap: 8 }}>
            <Form.Item label="表名称" name="tableName">
              <Input placeholder="请输入表名称" allowClear maxLength={100} />
            </Form.Item>
            <Form.Item label="表描述" name="tableComment">
              <Input placeholder="请输入表描述" allowClear maxLength={100} />
            </Form.Item>
            <Form.Item>
              <Space>
                <Button type="primary" htmlType="submit">
                  搜索
                </Button>
                <Button onClick={reset}>重置</Button>
              </Space>
            </Form.Item>
          </Form>
        )}
        <Row justify="space-between" style={{ marginBottom: 12 }}>
          <Col>
            <Space wrap>
              <Access permissions={['tool:gen:code']}>
                <Button type="primary" ghost icon={<DownloadOutlined />} disabled={!selected.length} onClick={() => downloadAll(selected)}>
                  生成代码
                </Button>
              </Access>
              <Access permissions={['tool:gen:import']}>
                <Button type="primary" ghost icon={<UploadOutlined />} onClick={() => setImporting(true)}>
                  导入
                </Button>
              </Access>
              <Access permissions={['tool:gen:edit']}>
                <Button icon={<EditOutlined />} disabled={selected.length !== 1} onClick={() => edit(selected[0])}>
                  修改
                </Button>
              </Access>
              <Access permissions={['tool:gen:remove']}>
                <Button danger icon={<DeleteOutlined />} disabled={!selected.length} onClick={() => remove(selected)}>
                  删除
                </Button>
              </Access>
            </Space>
          </Col>
          <Col>
            <RightToolbar showSearch={showSearch} onToggleSearch={() => setShowSearch((v) => !v)} onRefresh={refresh} />
          </Col>
        </Row>
        <Table<GenTable>
          rowKey="tableId"
          size="middle"
          loading={loading}
          columns={columns}
          dataSource={rows}
          pagination={false}
          scroll={{ x: 1300 }}
          rowSelection={{ selectedRowKeys: selected.map((t) => t.tableId), onChange: (_keys, picked) => setSelected(picked) }}
        />
        <Pagination
          current={query.pageNum}
          pageSize={query.pageSize}
          total={total}
          onChange={(pageNum, pageSize) => setQuery((q) => ({ ...q, pageNum, pageSize }))}
        />
      </Card>
      <ImportDialog open={importing} onClose={() => setImporting(false)} onImported={refresh} />
      <PreviewDialog tableId={previewId} onClose={closePreview} />
      <GenCodeDialog table={generating} genWrite={genWrite} onClose={() => setGenerating(null)} />
    </div>
  );
}

/** 生成代码: download the .json, or write it into schemas/ (development mode only, GEN_WRITE=1). */
function GenCodeDialog({ table, genWrite, onClose }: { table: GenTable | null; genWrite: boolean; onClose: () => void }) {
  const { modal, message } = App.useApp();
  const [busy, setBusy] = useState(false);
  if (!table) return null;
  const file = `schemas/${table.entityName}.json`;

  const write = async (overwrite = false) => {
    setBusy(true);
    try {
      message.success(await genCode(table.tableId, overwrite));
      onClose();
    } catch (e) {
      const err = e as RequestError;
      if (err instanceof RequestError && err.envelope?.exists === true && !overwrite) {
        modal.confirm({
          title: '系统提示',
          content: `文件 ${file} 已存在，是否覆盖？`,
          okText: '覆盖',
          cancelText: '取消',
          onOk: () => write(true),
        });
      } else {
        message.error(err.message || '生成失败');
      }
    } finally {
      setBusy(false);
    }
  };
  const save = async () => {
    try {
      await downloadGen(table);
      onClose();
    } catch {
      // shown by the download helper
    }
  };

  return (
    <Modal title="生成代码" open onCancel={onClose} footer={null} width={560}>
      <div className="gen-code-dialog">
        <Typography.Paragraph>
          表 <Typography.Text code>{table.tableName}</Typography.Text> 生成 schema 文件 <Typography.Text code>{file}</Typography.Text>。
        </Typography.Paragraph>
        {!genWrite && (
          <Alert
            type="info"
            showIcon
            style={{ marginBottom: 16 }}
            message="仅开发模式可写入 schemas/ 目录（服务端设置 GEN_WRITE=1）；当前可下载文件后放入 schemas/。"
          />
        )}
        <Space>
          <Button type="primary" icon={<DownloadOutlined />} onClick={save}>
            下载 .json
          </Button>
          <Button disabled={!genWrite} loading={busy} onClick={() => write(false)}>
            写入 schemas/ 目录
          </Button>
          <Button onClick={onClose}>取消</Button>
        </Space>
      </div>
    </Modal>
  );
}
