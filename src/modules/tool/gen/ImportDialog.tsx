import type { DbTable, GenQuery } from '@common/gen/tables';
import { App, Button, Form, Input, Modal, Space, Table, type TableProps } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { importTables, listDbTables } from '@/api/gen';
import { Pagination } from '@/components/Pagination';

/** 导入表: the database tables not imported yet, searchable, with selection; 确定 imports the selected ones. */
export function ImportDialog({ open, onClose, onImported }: { open: boolean; onClose: () => void; onImported: () => void }) {
  const { message } = App.useApp();
  const [form] = Form.useForm<{ tableName?: string; tableComment?: string }>();
  const [query, setQuery] = useState<GenQuery>({ pageNum: 1, pageSize: 10 });
  const [rows, setRows] = useState<DbTable[]>([]);
  const [total, setTotal] = useState(0);
  const [loading, setLoading] = useState(false);
  const [selected, setSelected] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);

  const load = useCallback(async (q: GenQuery) => {
    setLoading(true);
    try {
      const page = await listDbTables(q);
      setRows(page.rows);
      setTotal(page.total);
    } catch {
      // shown by the http layer
    } finally {
      setLoading(false);
    }
  }, []);

  useEffect(() => {
    if (open) load(query);
  }, [open, query, load]);
  useEffect(() => {
    if (!open) {
      setSelected([]);
      form.resetFields();
      setQuery({ pageNum: 1, pageSize: 10 });
    }
  }, [open, form]);

  const search = () => {
    const v = form.getFieldsValue();
    setQuery({ pageNum: 1, pageSize: query.pageSize, tableName: v.tableName?.trim() || undefined, tableComment: v.tableComment?.trim() || undefined });
  };
  const reset = () => {
    form.resetFields();
    setQuery({ pageNum: 1, pageSize: query.pageSize });
  };
  const submit = async () => {
    if (!selected.length) {
      message.error('请选择要导入的表');
      return;
    }
    setBusy(true);
    try {
      message.success(await importTables(selected));
      onImported();
      onClose();
    } catch {
      // shown by the http layer; the dialog stays open
    } finally {
      setBusy(false);
    }
  };

  const columns: TableProps<DbTable>['columns'] = [
    { title: '表名称', dataIndex: 'tableName', ellipsis: true },
    { title: '表描述', dataIndex: 'tableComment', ellipsis: true, render: (v: string) => v || '--' },
  ];

  return (
    <Modal
      title="导入表"
      open={open}
      onCancel={onClose}
      width={800}
      style={{ top: 40 }}
      footer={
        <Space>
          <Button type="primary" loading={busy} onClick={submit}>
            确定
          </Button>
          <Button onClick={onClose}>取消</Button>
        </Space>
      }
    >
      <div className="gen-import">
        <Form name="genImport" form={form} layout="inline" onFinish={search} style={{ marginBottom: 12, rowGap: 8 }}>
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
        <Table<DbTable>
          rowKey="tableName"
          size="small"
          loading={loading}
          columns={columns}
          dataSource={rows}
          pagination={false}
          scroll={{ y: 300 }}
          rowSelection={{ selectedRowKeys: selected, preserveSelectedRowKeys: true, onChange: (keys) => setSelected(keys.map(String)) }}
          onRow={(r) => ({
            onClick: (e) => {
              if ((e.target as HTMLElement).closest('.ant-table-selection-column')) return;
              setSelected((s) => (s.includes(r.tableName) ? s.filter((x) => x !== r.tableName) : [...s, r.tableName]));
            },
            style: { cursor: 'pointer' },
          })}
        />
        <Pagination
          current={query.pageNum}
          pageSize={query.pageSize}
          total={total}
          onChange={(pageNum, pageSize) => setQuery((q) => ({ ...q, pageNum, pageSize }))}
        />
      </div>
    </Modal>
  );
}
