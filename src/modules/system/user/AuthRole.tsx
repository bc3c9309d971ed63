import type { RoleChoice } from '@common/system/roles';
import { useInvalidate } from '@refinedev/core';
import { Alert, App, Button, Card, Col, Form, Input, Row, Space, Spin, Table, type TableColumnType } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { getAuthRole, type UserBrief, updateAuthRole } from '@/api/system/user';
import { useRowPicker } from '@/components/SearchList';
import { parseTime } from '@/utils/format';

/**
 * 分配角色 (/system/user-auth/role/:userId, RuoYi system/user/authRole): the user's 用户昵称 / 登录账号, every role with
 * a check box on those the user holds (a click on a row toggles it), 提交 saves (授权成功) and goes back to 用户管理,
 * 返回 goes back without saving.
 */
export default function AuthRole() {
  const { userId } = useParams();
  const navigate = useNavigate();
  const invalidate = useInvalidate();
  const { message } = App.useApp();
  const [user, setUser] = useState<UserBrief | null>(null);
  const [roles, setRoles] = useState<RoleChoice[]>([]);
  const picker = useRowPicker((r: RoleChoice) => r.roleId);
  const { selected, setSelected } = picker;
  const [loading, setLoading] = useState(true);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [page, setPage] = useState({ current: 1, pageSize: 10 });

  useEffect(() => {
    if (!userId) return;
    let live = true;
    setLoading(true);
    getAuthRole(userId)
      .then((res) => {
        if (!live) return;
        setUser(res.user);
        setRoles(res.roles);
        setSelected(res.roles.filter((r) => r.flag).map((r) => r.roleId));
      })
      .catch((e: Error) => live && setError(e.message || '加载失败'))
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
  }, [userId]);

  const back = () => navigate('/system/user');
  const submit = async () => {
    if (!user) return;
    setBusy(true);
    try {
      await updateAuthRole(user.userId, selected);
      message.success('授权成功');
      await invalidate({ resource: 'sys_user', invalidates: ['list', 'detail'] });
      back();
    } catch {
      // The http layer has shown the refusal.
    } finally {
      setBusy(false);
    }
  };

  const columns = useMemo<TableColumnType<RoleChoice>[]>(
    () => [
      { key: 'index', title: '序号', width: 70, align: 'center', render: (_v, _r, i) => (page.current - 1) * page.pageSize + i + 1 },
      { key: 'roleId', dataIndex: 'roleId', title: '角色编号', align: 'center' },
      { key: 'roleName', dataIndex: 'roleName', title: '角色名称', align: 'center' },
      { key: 'roleKey', dataIndex: 'roleKey', title: '权限字符', align: 'center' },
      { key: 'createTime', dataIndex: 'createTime', title: '创建时间', align: 'center', width: 180, render: (v: number) => parseTime(v) ?? '' },
    ],
    [page],
  );

  if (loading) return <Spin style={{ display: 'block', padding: 48 }} />;
  if (error || !user) return <Alert style={{ margin: 16 }} type="error" showIcon message={error ?? '用户不存在或已被删除'} />;

  return (
    <div className="app-container auth-role" style={{ padding: 16 }}>
      <Card title="基本信息" size="small" style={{ marginBottom: 16 }}>
        <Form labelCol={{ flex: '80px' }} colon={false}>
          <Row gutter={16}>
            <Col span={8} offset={2}>
              <Form.Item label="用户昵称">
                <Input value={user.nickName} disabled aria-label="用户昵称" />
              </Form.Item>
            </Col>
            <Col span={8} offset={2}>
              <Form.Item label="登录账号">
                <Input value={user.userName} disabled aria-label="登录账号" />
              </Form.Item>
            </Col>
          </Row>
        </Form>
      </Card>
      <Card title="角色信息" size="small">
        <Table<RoleChoice>
          rowKey="roleId"
          size="middle"
          columns={columns}
          dataSource={roles}
          {...picker.tableProps}
          pagination={{
            ...page,
            total: roles.length,
            showTotal: (t) => `共 ${t} 条`,
            onChange: (current, pageSize) => setPage({ current, pageSize }),
          }}
        />
        <div style={{ textAlign: 'center', marginTop: 24 }}>
          <Space size={16}>
            <Button type="primary" loading={busy} onClick={submit}>
              提交
            </Button>
            <Button onClick={back}>返回</Button>
          </Space>
        </div>
      </Card>
    </div>
  );
}
