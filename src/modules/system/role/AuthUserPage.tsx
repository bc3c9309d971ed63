import { CloseOutlined, DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { App, Button, Card, Form, Input, Space, Table, type TableProps, Typography } from 'antd';
import dayjs from 'dayjs';
import { useEffect, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { request } from '@/api/request';
import { allocatedUserList, authUserCancel, authUserCancelAll, type RoleUser, type RoleUserQuery } from '@/api/system/role';
import { Access } from '@/components/Access';
import { DictTag } from '@/components/DictTag';
import { Pagination } from '@/components/Pagination';
import { RightToolbar } from '@/components/RightToolbar';
import { SearchForm, usePagedQuery } from '@/components/SearchList';
import { SelectUserDialog } from './SelectUserDialog';

/**
 * 分配用户 (/system/role-auth/user/{roleId}, component 'system/role/authUser', system:role:edit; RuoYi
 * system/role/authUser): the users holding the role, searchable by 用户名称 / 手机号码, with 取消授权 per row,
 * 批量取消授权 of the selection, 添加用户 (the 选择用户 dialog of users not holding it) and 关闭 (back to 角色管理).
 */
export default function AuthUserPage() {
  const { roleId: param } = useParams();
  const roleId = Number(param);
  const navigate = useNavigate();
  const { modal, message } = App.useApp();
  const [form] = Form.useForm<{ userName?: string; mobile?: string }>();
  const [selected, setSelected] = useState<number[]>([]);
  // Every load clears the selection: 批量取消授权 acts on rows the user sees.
  const list = usePagedQuery<RoleUser, RoleUserQuery>(
    async (q) => {
      const page = await allocatedUserList(q);
      setSelected([]);
      return page;
    },
    { roleId, pageNum: 1, pageSize: 10 },
  );
  const { setQuery, rows, loading, reload: refresh } = list;
  const [showSearch, setShowSearch] = useState(true);
  const [adding, setAdding] = useState(false);
  const [roleName, setRoleName] = useState<string | null>(null);

  // The role's name for the heading (quietly: a holder of system:role:edit may lack system:role:query).
  useEffect(() => {
    let live = true;
    request<{ roleName?: string }>({ url: `/dev-api/system/role/${roleId}`, method: 'get', options: { silent: true } })
      .then((env) => live && setRoleName(env.data?.roleName ?? null))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [roleId]);

  const search = () => {
    const v = form.getFieldsValue();
    setQuery((q) => ({ ...q, pageNum: 1, userName: v.userName?.trim() || undefined, mobile: v.mobile?.trim() || undefined }));
  };
  const reset = () => {
    form.resetFields();
    setQuery((q) => ({ roleId: q.roleId, pageNum: 1, pageSize: q.pageSize }));
  };

  const cancelOne = (row: RoleUser) => {
    modal.confirm({
      title: '系统提示',
      content: `确认要取消该用户"${row.userName}"角色吗？`,
      okText: '确定',
      cancelText: '取消',
      onOk: async () => {
        try {
          await authUserCancel(roleId, row.userId);
          message.success('取消授权成功');
          refresh();
        } catch {
          // Shown by the http layer.
        }
      },
    });
  };
  const cancelSelected = () => {
    if (selected.length === 0) return;
    modal.confirm({
      title: '系统提示',
      content: '是否取消选中用户授权数据项？',
      okText: '确定',
      cancelText: '取消',
      onOk: async () => {
        try {
          await authUserCancelAll(roleId, selected);
          message.success('取消授权成功');
          refresh();
        } catch {
          // Shown by the http layer.
        }
      },
    });
  };

  const columns: TableProps<RoleUser>['columns'] = [
    { title: '用户名称', dataIndex: 'userName', ellipsis: true },
    { title: '用户昵称', dataIndex: 'nickName', ellipsis: true },
    { title: '邮箱', dataIndex: 'email', ellipsis: true, render: (v) => v || '' },
    { title: '手机', dataIndex: 'mobile', render: (v) => v || '' },
    { title: '状态', dataIndex: 'status', align: 'center', width: 90, render: (v: string) => <DictTag type="sys_normal_disable" value={v} /> },
    { title: '创建时间', dataIndex: 'createTime', align: 'center', width: 170, render: (v: number) => dayjs(v).format('YYYY-MM-DD HH:mm:ss') },
    {
      title: '操作',
      key: 'action',
      align: 'center',
      width: 120,
      render: (_v, row) => (
        <Access permissions={['system:role:edit']}>
          <Button type="link" size="small" danger icon={<CloseOutlined />} onClick={() => cancelOne(row)}>
            取消授权
          </Button>
        </Access>
      ),
    },
  ];

  return (
    <div className="app-container role-auth-user" style={{ padding: 16 }}>
      <Card>
        {roleName && (
          <Typography.Title level={5} style={{ marginTop: 0 }}>
            角色：{roleName}
          </Typography.Title>
        )}
        {
          <SearchForm form={form} onSearch={search} onReset={reset} hidden={!showSearch}>
            <Form.Item label="用户名称" name="userName">
              <Input placeholder="请输入用户名称" allowClear maxLength={30} style={{ width: 240 }} />
            </Form.Item>
            <Form.Item label="手机号码" name="mobile">
              <Input placeholder="请输入手机号码" allowClear maxLength={11} style={{ width: 240 }} />
            </Form.Item>
          </SearchForm>
        }
        <div style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'flex-start', marginBottom: 12, gap: 8 }}>
          <Space wrap size={8}>
            <Access permissions={['system:role:edit']}>
              <Button color="primary" variant="filled" icon={<PlusOutlined />} onClick={() => setAdding(true)}>
                添加用户
              </Button>
            </Access>
            <Access permissions={['system:role:edit']}>
              <Button color="danger" variant="filled" icon={<DeleteOutlined />} disabled={selected.length === 0} onClick={cancelSelected}>
                批量取消授权
              </Button>
            </Access>
            <Button color="orange" variant="filled" icon={<CloseOutlined />} onClick={() => navigate('/system/role')}>
              关闭
            </Button>
          </Space>
          <RightToolbar showSearch={showSearch} onToggleSearch={() => setShowSearch((s) => !s)} onRefresh={refresh} />
        </div>
        <Table<RoleUser>
          rowKey="userId"
          size="middle"
          loading={loading}
          columns={columns}
          dataSource={rows}
          pagination={false}
          scroll={{ x: 900 }}
          rowSelection={{ selectedRowKeys: selected, onChange: (keys) => setSelected(keys.map(Number)) }}
        />
        <Pagination {...list.pagination} />
      </Card>
      <SelectUserDialog
        roleId={roleId}
        open={adding}
        onClose={(saved) => {
          setAdding(false);
          if (saved) refresh();
        }}
      />
    </div>
  );
}
