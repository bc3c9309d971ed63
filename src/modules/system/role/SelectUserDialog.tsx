import { App, Button, Form, Input, Modal, Space, Table, type TableProps } from 'antd';
import dayjs from 'dayjs';
import { useCallback, useEffect, useState } from 'react';
import { authUserSelectAll, type RoleUser, type RoleUserQuery, unallocatedUserList } from '@/api/system/role';
import { DictTag } from '@/components/DictTag';
import { Pagination } from '@/components/Pagination';

/**
 * 选择用户 (RuoYi system/role/selectUser): the users not holding the role, searchable by 用户名称 / 手机号码, with row
 * selection; 确 定 gives them the role (selectAll) and closes.
 */
export function SelectUserDialog({ roleId, open, onClose }: { roleId: number; open: boolean; onClose: (saved: boolean) => void }) {
  const { message } = App.useApp();
  const [form] = Form.useForm<{ userName?: string; mobile?: string }>();
  const [query, setQuery] = useState<RoleUserQuery>({ roleId, pageNum: 1, pageSize: 10 });
  const [rows, setRows] = useState<RoleUser[]>([]);
  const [total, setTotal] = useState(0);
  const [loading, setLoading] = useState(false);
  const [selected, setSelected] = useState<number[]>([]);
  const [busy, setBusy] = useState(false);

  const load = useCallback(async (q: RoleUserQuery) => {
    setLoading(true);
    try {
      const page = await unallocatedUserList(q);
      setRows(page.rows);
      setTotal(page.total);
    } catch {
      // Shown by the http layer.
    } finally {
      setLoading(false);
    }
  }, []);

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    setSelected([]);
    setQuery({ roleId, pageNum: 1, pageSize: 10 });
  }, [open, roleId, form]);
  useEffect(() => {
    if (open) void load(query);
  }, [open, query, load]);

  const search = () => {
    const v = form.getFieldsValue();
    setQuery((q) => ({ ...q, pageNum: 1, userName: v.userName?.trim() || undefined, mobile: v.mobile?.trim() || undefined }));
  };
  const reset = () => {
    form.resetFields();
    setQuery((q) => ({ roleId: q.roleId, pageNum: 1, pageSize: q.pageSize }));
  };

  const save = async () => {
    if (selected.length === 0) {
      message.error('请选择要分配的用户');
      return;
    }
    setBusy(true);
    try {
      message.success(await authUserSelectAll(roleId, selected));
      onClose(true);
    } catch {
      // Shown by the http layer; the dialog stays open.
    } finally {
      setBusy(false);
    }
  };

  const columns: TableProps<RoleUser>['columns'] = [
    { title: '用户名称', dataIndex: 'userName', ellipsis: true },
    { title: '用户昵称', dataIndex: 'nickName', ellipsis: true },
    { title: '邮箱', dataIndex: 'email', ellipsis: true, render: (v) => v || '' },
    { title: '手机', dataIndex: 'mobile', render: (v) => v || '' },
    { title: '状态', dataIndex: 'status', align: 'center', width: 80, render: (v: string) => <DictTag type="sys_normal_disable" value={v} /> },
    { title: '创建时间', dataIndex: 'createTime', align: 'center', width: 170, render: (v: number) => dayjs(v).format('YYYY-MM-DD HH:mm:ss') },
  ];

  return (
    <Modal
      title="选择用户"
      open={open}
      width={800}
      maskClosable={false}
      destroyOnHidden
      okText="确 定"
      cancelText="取 消"
      confirmLoading={busy}
      onOk={save}
      onCancel={() => onClose(false)}
    >
      <div className="select-user-dialog">
        <Form form={form} layout="inline" onFinish={search} style={{ marginBottom: 12, rowGap: 8 }}>
          <Form.Item label="用户名称" name="userName">
            <Input placeholder="请输入用户名称" allowClear maxLength={30} />
          </Form.Item>
          <Form.Item label="手机号码" name="mobile">
            <Input placeholder="请输入手机号码" allowClear maxLength={11} />
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
        <Table<RoleUser>
          rowKey="userId"
          size="small"
          loading={loading}
          columns={columns}
          dataSource={rows}
          pagination={false}
          scroll={{ y: 260 }}
          rowSelection={{ selectedRowKeys: selected, onChange: (keys) => setSelected(keys.map(Number)), preserveSelectedRowKeys: true }}
          onRow={(row) => ({
            onClick: () => setSelected((s) => (s.includes(row.userId) ? s.filter((k) => k !== row.userId) : [...s, row.userId])),
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
