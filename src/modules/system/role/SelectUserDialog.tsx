import { App, Form, Input, type TableProps } from 'antd';
import dayjs from 'dayjs';
import { useEffect, useState } from 'react';
import { authUserSelectAll, type RoleUser, type RoleUserQuery, unallocatedUserList } from '@/api/system/role';
import { DictTag } from '@/components/DictTag';
import { FormDialog } from '@/components/FormDialog';
import { PickerTable, SearchForm, usePagedQuery, useRowPicker } from '@/components/SearchList';

/**
 * 选择用户 (RuoYi system/role/selectUser): the users not holding the role, searchable by 用户名称 / 手机号码, with row
 * selection; 确 定 gives them the role (selectAll) and closes.
 */
export function SelectUserDialog({ roleId, open, onClose }: { roleId: number; open: boolean; onClose: (saved: boolean) => void }) {
  const { message } = App.useApp();
  const [form] = Form.useForm<{ userName?: string; mobile?: string }>();
  const list = usePagedQuery<RoleUser, RoleUserQuery>(unallocatedUserList, { roleId, pageNum: 1, pageSize: 10 }, open);
  const { setQuery } = list;
  const picker = useRowPicker((u: RoleUser) => u.userId);
  const { selected, setSelected } = picker;
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    setSelected([]);
    setQuery({ roleId, pageNum: 1, pageSize: 10 });
  }, [open, roleId, form, setSelected, setQuery]);

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
    <FormDialog title="选择用户" open={open} width={800} busy={busy} onOk={save} onCancel={() => onClose(false)}>
      <div className="select-user-dialog">
        <SearchForm form={form} onSearch={search} onReset={reset} marginBottom={12}>
          <Form.Item label="用户名称" name="userName">
            <Input placeholder="请输入用户名称" allowClear maxLength={30} />
          </Form.Item>
          <Form.Item label="手机号码" name="mobile">
            <Input placeholder="请输入手机号码" allowClear maxLength={11} />
          </Form.Item>
        </SearchForm>
        <PickerTable<RoleUser, number> rowKey="userId" columns={columns} list={list} picker={picker} scrollY={260} />
      </div>
    </FormDialog>
  );
}
