import { Button, Card, Checkbox, DatePicker, Form, Input, InputNumber, Select, Space, Spin, Switch, Table, Tag, Tooltip } from 'antd';
import { memo } from 'react';
import { Pagination } from '@/components/Pagination';

/**
 * The antd parts of the generic list page, rendered once out of sight (display: none) and kept: antd writes each
 * component's styles (CSS-in-JS) the first time one is rendered, and keeps them only while one is mounted. Done
 * in the background after sign-in, the first visit of a list page finds its styles ready instead of generating and
 * injecting a dozen style sheets in the middle of the switch (issue 15). Nothing here is visible or focusable.
 */
const ROWS = [{ id: 1, name: '—', state: '0' }];
const EMPTY: typeof ROWS = [];
const COLUMNS = [
  { key: 'id', dataIndex: 'id', title: '编号', width: 80, sorter: true, align: 'center' as const },
  {
    key: 'name',
    dataIndex: 'name',
    title: '名称',
    width: 140,
    ellipsis: { showTitle: false },
    render: (v: string) => (
      <Tooltip title={v}>
        <span>{v}</span>
      </Tooltip>
    ),
  },
  { key: 'state', dataIndex: 'state', title: '状态', width: 90, render: () => <Switch size="small" checked disabled /> },
  { key: 'tag', title: '标签', width: 90, render: () => <Tag color="processing">—</Tag> },
  {
    key: 'ops',
    title: '操作',
    width: 120,
    render: () => (
      <Button type="link" size="small">
        修改
      </Button>
    ),
  },
];

export const StyleWarmup = memo(function StyleWarmup() {
  return (
    <div hidden aria-hidden="true" data-style-warmup="">
      <Card>
        <Form layout="inline">
          <Form.Item label="—">
            <Input placeholder="—" allowClear />
          </Form.Item>
          <Form.Item label="—">
            <Select placeholder="—" allowClear options={[]} />
          </Form.Item>
          <Form.Item label="—">
            <DatePicker.RangePicker />
          </Form.Item>
          <Form.Item label="—">
            <InputNumber />
          </Form.Item>
        </Form>
        <Space wrap size={8}>
          <Button type="primary">—</Button>
          <Button color="primary" variant="filled">
            —
          </Button>
          <Button color="danger" variant="filled" disabled>
            —
          </Button>
          <Checkbox />
          <Spin />
        </Space>
        <Table rowKey="id" size="middle" columns={COLUMNS} dataSource={ROWS} pagination={false} tableLayout="fixed" scroll={{ x: 600 }} rowSelection={{}} />
        {/* A first visit shows the table empty while its rows are on their way: the empty state's styles too. */}
        <Table rowKey="id" size="middle" columns={COLUMNS} dataSource={EMPTY} pagination={false} tableLayout="fixed" scroll={{ x: 600 }} />
        <Pagination current={1} pageSize={20} total={40} onChange={() => undefined} />
      </Card>
    </div>
  );
});

export default StyleWarmup;
