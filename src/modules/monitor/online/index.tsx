import { App, Button, Card, Form, Input, Space, Table, type TableProps } from 'antd';
import dayjs from 'dayjs';
import { useCallback, useEffect, useState } from 'react';
import { forceLogout, listOnline, type OnlineQuery, type OnlineSession } from '@/api/monitor';
import { Access } from '@/components/Access';
import { useDevice } from '@/layout/useDevice';

/** Spec §9: page sizes 10/20/30/50; pager count 5 under 992 px, else 7. */
const PAGE_SIZES = [10, 20, 30, 50];

/** 在线用户 (monitor/online): who is signed in now, searchable by address and name, with 强退 (forced logout). */
export default function OnlineUsers() {
  const { modal, message } = App.useApp();
  const mobile = useDevice() === 'mobile';
  const [form] = Form.useForm<{ ipaddr?: string; userName?: string }>();
  const [query, setQuery] = useState<OnlineQuery>({ pageNum: 1, pageSize: 10 });
  const [rows, setRows] = useState<OnlineSession[]>([]);
  const [total, setTotal] = useState(0);
  const [loading, setLoading] = useState(false);

  const load = useCallback(async (q: OnlineQuery) => {
    setLoading(true);
    try {
      const page = await listOnline(q);
      setRows(page.rows);
      setTotal(page.total);
    } catch {
      // The http layer has told the user; keep the last rows.
    } finally {
      setLoading(false);
    }
  }, []);

  useEffect(() => {
    load(query);
  }, [load, query]);

  const search = () => {
    const v = form.getFieldsValue();
    setQuery({ pageNum: 1, pageSize: query.pageSize, userName: v.userName?.trim() || undefined, ipaddr: v.ipaddr?.trim() || undefined });
  };
  const reset = () => {
    form.resetFields();
    setQuery({ pageNum: 1, pageSize: query.pageSize });
  };

  const kick = (row: OnlineSession) => {
    modal.confirm({
      title: '系统提示',
      content: `是否确认强退名称为"${row.userName}"的用户？`,
      okText: '确定',
      cancelText: '取消',
      onOk: async () => {
        await forceLogout(row.tokenId);
        message.success('强退成功');
        await load(query);
      },
    });
  };

  const columns: TableProps<OnlineSession>['columns'] = [
    { title: '序号', key: 'index', width: 60, align: 'center', render: (_v, _r, i) => (query.pageNum - 1) * query.pageSize + i + 1 },
    { title: '会话编号', dataIndex: 'tokenId', ellipsis: true, width: 160 },
    { title: '登录名称', dataIndex: 'userName' },
    { title: '所属部门', dataIndex: 'deptName', render: (v) => v || '--' },
    { title: '主机', dataIndex: 'ipaddr' },
    { title: '登录地点', dataIndex: 'loginLocation', render: (v) => v || '--' },
    { title: '浏览器', dataIndex: 'browser' },
    { title: '操作系统', dataIndex: 'os' },
    { title: '登录时间', dataIndex: 'loginTime', width: 170, render: (v: number) => dayjs(v).format('YYYY-MM-DD HH:mm:ss') },
    {
      title: '操作',
      key: 'action',
      width: 90,
      render: (_v, row) => (
        <Access permissions={['monitor:online:forceLogout']}>
          <Button type="link" size="small" danger onClick={() => kick(row)}>
            强退
          </Button>
        </Access>
      ),
    },
  ];

  return (
    <div style={{ padding: 16 }}>
      <Card>
        <Form form={form} layout="inline" onFinish={search} style={{ marginBottom: 16, rowGap: 8 }}>
          <Form.Item label="登录地址" name="ipaddr">
            <Input placeholder="请输入登录地址" allowClear maxLength={64} />
          </Form.Item>
          <Form.Item label="用户名称" name="userName">
            <Input placeholder="请输入用户名称" allowClear maxLength={30} />
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
        <Table<OnlineSession>
          rowKey="tokenId"
          size="middle"
          loading={loading}
          columns={columns}
          dataSource={rows}
          scroll={{ x: 1000 }}
          pagination={{
            current: query.pageNum,
            pageSize: query.pageSize,
            total,
            showSizeChanger: true,
            pageSizeOptions: PAGE_SIZES,
            showTotal: (t) => `共 ${t} 条`,
            showLessItems: mobile,
            onChange: (pageNum, pageSize) => setQuery((q) => ({ ...q, pageNum, pageSize })),
          }}
        />
      </Card>
    </div>
  );
}
