import { KeyOutlined, UserOutlined } from '@ant-design/icons';
import type { UserDataDetail, UserDataHit } from '@common/system/userData';
import { Button, Card, Col, Descriptions, Empty, Input, Row, Space, Table, Tag, Typography } from 'antd';
import dayjs from 'dayjs';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { findUsers, getUserData } from '@/api/system/userData';
import { Access } from '@/components/Access';
import { ResetPwdDialog } from '../user/ResetPwdDialog';

/**
 * 用户资料 (system/userData/index, docs/system.md "用户资料"): find a staff account by account, name or phone, read its
 * details, and 重置密码 with 用户管理's dialog and route (same rules: 6–20 characters, no < > " ' \ |; the new password
 * is shown once; the user is signed out everywhere). One's own account links to 个人中心 instead; the super
 * administrator's password is not reset here.
 */
const PAGE_SIZE = 10;
const time = (ms: number | null) => (ms ? dayjs(ms).format('YYYY-MM-DD HH:mm:ss') : '--');
const statusTag = (status: string) => (status === '0' ? <Tag color="success">正常</Tag> : <Tag color="error">停用</Tag>);

export default function UserDataPage() {
  const [keyword, setKeyword] = useState('');
  const [pageNum, setPageNum] = useState(1);
  const [hits, setHits] = useState<{ rows: UserDataHit[]; total: number }>({ rows: [], total: 0 });
  const [loading, setLoading] = useState(false);
  const [selected, setSelected] = useState<UserDataDetail | null>(null);
  const [resetting, setResetting] = useState(false);
  // One object while the dialog is open: the dialog clears its form whenever its record changes.
  const resetRecord = useMemo(() => (resetting && selected ? { userId: selected.userId, userName: selected.userName } : null), [resetting, selected]);

  const search = useCallback((text: string, page: number) => {
    setLoading(true);
    findUsers(text, page, PAGE_SIZE)
      .then(setHits)
      .catch(() => {
        // The http layer has reported it.
      })
      .finally(() => setLoading(false));
  }, []);
  useEffect(() => search('', 1), [search]);

  const open = (userId: number) => {
    getUserData(userId)
      .then(setSelected)
      .catch(() => {
        // The http layer has reported it (e.g. 没有权限访问用户数据！).
      });
  };
  const reload = () => {
    if (selected) open(selected.userId);
  };

  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} lg={11}>
        <Card size="small" title="查找用户">
          <Input.Search
            allowClear
            placeholder="请输入账号、姓名或手机号"
            enterButton="搜索"
            maxLength={30}
            aria-label="账号、姓名或手机号"
            onSearch={(text) => {
              setKeyword(text.trim());
              setPageNum(1);
              search(text.trim(), 1);
            }}
            style={{ marginBottom: 12 }}
          />
          <Table<UserDataHit>
            size="small"
            rowKey="userId"
            loading={loading}
            dataSource={hits.rows}
            onRow={(r) => ({ onClick: () => open(r.userId), style: { cursor: 'pointer' } })}
            rowClassName={(r) => (r.userId === selected?.userId ? 'ant-table-row-selected' : '')}
            pagination={{
              current: pageNum,
              pageSize: PAGE_SIZE,
              total: hits.total,
              showTotal: (t) => `共 ${t} 条`,
              onChange: (p) => {
                setPageNum(p);
                search(keyword, p);
              },
            }}
            columns={[
              { title: '账号', dataIndex: 'userName' },
              { title: '姓名', dataIndex: 'nickName' },
              { title: '手机号', dataIndex: 'mobile', render: (v: string | null) => v || '--' },
              { title: '部门', dataIndex: 'deptName', render: (v: string | null) => v || '--' },
              { title: '状态', dataIndex: 'status', width: 70, render: statusTag },
            ]}
          />
        </Card>
      </Col>
      <Col xs={24} lg={13}>
        <Card
          size="small"
          title="账号资料"
          data-testid="user-data-detail"
          extra={
            selected ? (
              selected.self ? (
                <Link to="/user/profile">
                  <UserOutlined /> 这是您自己的账号，前往个人中心
                </Link>
              ) : selected.superAdmin ? (
                <Typography.Text type="secondary">超级管理员的密码不能在此重置</Typography.Text>
              ) : (
                <Access permissions={['system:user:resetPwd']}>
                  <Button type="primary" icon={<KeyOutlined />} onClick={() => setResetting(true)}>
                    重置密码
                  </Button>
                </Access>
              )
            ) : null
          }
        >
          {selected ? (
            <Descriptions
              bordered
              size="small"
              column={{ xs: 1, sm: 1, md: 2, lg: 2, xl: 2, xxl: 2 }}
              styles={{ label: { width: 110, whiteSpace: 'nowrap' } }}
              items={[
                { key: 'userName', label: '账号', children: selected.userName },
                { key: 'nickName', label: '姓名', children: selected.nickName || '--' },
                { key: 'mobile', label: '手机号', children: selected.mobile || '--' },
                { key: 'email', label: '邮箱', children: selected.email || '--' },
                { key: 'dept', label: '部门', children: selected.deptName || '--' },
                { key: 'store', label: '所属门店', children: selected.storeName || '--' },
                {
                  key: 'roles',
                  label: '角色',
                  children: selected.roles.length ? (
                    <Space size={[4, 4]} wrap>
                      {selected.roles.map((r) => (
                        <Tag key={r}>{r}</Tag>
                      ))}
                    </Space>
                  ) : (
                    '--'
                  ),
                },
                { key: 'status', label: '状态', children: statusTag(selected.status) },
                { key: 'createTime', label: '创建时间', children: time(selected.createTime) },
                { key: 'loginDate', label: '最后登录时间', children: time(selected.loginDate) },
                { key: 'loginIp', label: '最后登录IP', children: selected.loginIp || '--' },
              ]}
            />
          ) : (
            <Empty description="请在左侧查找并选择一个用户" />
          )}
        </Card>
        <ResetPwdDialog
          record={resetRecord}
          onClose={() => {
            setResetting(false);
            reload();
          }}
        />
      </Col>
    </Row>
  );
}
