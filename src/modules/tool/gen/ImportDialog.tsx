import type { DbTable, GenQuery } from '@common/gen/tables';
import { App, Button, Form, Input, Modal, Space, type TableProps } from 'antd';
import { useEffect, useState } from 'react';
import { importTables, listDbTables } from '@/api/gen';
import { PickerTable, SearchForm, usePagedQuery, useRowPicker } from '@/components/SearchList';

/** 导入表: the database tables not imported yet, searchable, with selection; 确定 imports the selected ones. */
export function ImportDialog({ open, onClose, onImported }: { open: boolean; onClose: () => void; onImported: () => void }) {
  const { message } = App.useApp();
  const [form] = Form.useForm<{ tableName?: string; tableComment?: string }>();
  const list = usePagedQuery<DbTable, GenQuery>(listDbTables, { pageNum: 1, pageSize: 10 }, open);
  const { query, setQuery } = list;
  const picker = useRowPicker((t: DbTable) => t.tableName);
  const { selected, setSelected } = picker;
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!open) {
      setSelected([]);
      form.resetFields();
      setQuery({ pageNum: 1, pageSize: 10 });
    }
  }, [open, form, setSelected, setQuery]);

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
        <SearchForm name="genImport" form={form} onSearch={search} onReset={reset} marginBottom={12}>
          <Form.Item label="表名称" name="tableName">
            <Input placeholder="请输入表名称" allowClear maxLength={100} />
          </Form.Item>
          <Form.Item label="表描述" name="tableComment">
            <Input placeholder="请输入表描述" allowClear maxLength={100} />
          </Form.Item>
        </SearchForm>
        <PickerTable<DbTable, string> rowKey="tableName" columns={columns} list={list} picker={picker} scrollY={300} />
      </div>
    </Modal>
  );
}
