import { USER_TYPES } from '@common/customer/enums';
import { App, Button, Card, Form, Input, Select, Space, type TableProps, Tag } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import {
  type Customer,
  type CustomerQuery,
  listCustomers,
  listRecycled,
  purgeCustomers,
  recycleCustomers,
  resetCustomer,
  restoreCustomers,
} from '@/api/customer';
import { useAccess } from '@/components/Access';
import { fillingHref, useViewPath, VIEW } from '@/modules/volunteer/shared/useViewPath';
import { CustomerFormDialog } from './CustomerFormDialog';
import { formatDate } from './format';
import { HistoryDrawer } from './HistoryDrawer';
import { OpenCardDialog } from './OpenCardDialog';
import { PagedTable, SearchForm } from './SearchTable';
import { StoreSelect, useStores } from './StoreSelect';
import { usePaged } from './usePaged';

/**
 * 用户列表 and 回收站 (spec §2.3 manage): the app users (customers = volunteer-planning students) with 开卡,
 * 重置信息 and 修改; 删除 moves a customer to the 回收站, where 恢复 and 彻底删除 are offered.
 */
export function CustomerListPage({ mode }: { mode: 'users' | 'recycle' }) {
  const { modal, message } = App.useApp();
  const { can } = useAccess();
  const navigate = useNavigate();
  const fillingPath = useViewPath(VIEW.filling);
  const stores = useStores();
  const [form] = Form.useForm<Omit<CustomerQuery, 'pageNum' | 'pageSize'>>();
  const paged = usePaged(mode === 'users' ? listCustomers : listRecycled, { pageNum: 1, pageSize: 20 } as CustomerQuery);
  const { reload } = paged;
  const [selected, setSelected] = useState<Customer[]>([]);
  const [opening, setOpening] = useState<Customer | null>(null);
  const [editing, setEditing] = useState<Customer | null>(null);
  const [history, setHistory] = useState<Customer | null>(null);

  const confirm = (title: string, content: string, run: () => Promise<{ msg: string }>, danger = false) =>
    modal.confirm({
      title,
      content,
      okText: '确定',
      okButtonProps: { danger },
      cancelText: '取消',
      onOk: async () => {
        message.success((await run()).msg);
        setSelected([]);
        await reload();
      },
    });
  const names = (rows: Customer[]) => rows.map((r) => `"${r.name}"`).join('、');
  const reset = (c: Customer) =>
    confirm('重置信息', `确认重置用户"${c.name}"的考试信息（分数、位次、选科）吗？重置后需重新填写，此操作会被记录。`, () => resetCustomer(c.studentId), true);
  const recycle = (rows: Customer[]) =>
    confirm('删除用户', `确认将用户${names(rows)}移入回收站吗？可在回收站中恢复。`, () => recycleCustomers(rows.map((r) => r.studentId)), true);
  const restore = (rows: Customer[]) => confirm('恢复用户', `确认恢复用户${names(rows)}吗？`, () => restoreCustomers(rows.map((r) => r.studentId)));
  const purge = (rows: Customer[]) =>
    confirm('彻底删除', `确认彻底删除用户${names(rows)}吗？个人信息将被清除且不能恢复。`, () => purgeCustomers(rows.map((r) => r.studentId)), true);
  const fill = (c: Customer) => {
    if (!fillingPath) {
      message.warning('你没有「专家填报」菜单的权限，请联系管理员授权');
      return;
    }
    navigate(fillingHref(fillingPath, c.studentId));
  };

  const columns: TableProps<Customer>['columns'] = [
    { title: '姓名', dataIndex: 'name', width: 90, fixed: 'left' },
    { title: '手机号码', dataIndex: 'mobile', width: 120, render: (v) => v ?? '--' },
    { title: '省份', dataIndex: 'province', width: 70 },
    { title: '年份', dataIndex: 'examYear', width: 70 },
    { title: '分数', dataIndex: 'score', width: 70, render: (v) => v ?? '--' },
    { title: '选科', dataIndex: 'subjectNames', width: 110, render: (v) => v || '--' },
    { title: '用户类型', dataIndex: 'userTypeName', width: 110, render: (v, c) => <Tag color={c.userType ? 'gold' : 'default'}>{v}</Tag> },
    { title: '开通方式', dataIndex: 'vipPayTypeName', width: 90 },
    { title: '会员卡', dataIndex: 'cardNo', width: 110, render: (v) => v ?? '--' },
    { title: '到期日期', dataIndex: 'vipExpireTime', width: 110, render: formatDate },
    { title: '门店', dataIndex: 'storeName', width: 100 },
    { title: '专家', dataIndex: 'expertName', width: 90, render: (v) => v ?? '未分配' },
    ...(mode === 'recycle'
      ? [
          { title: '删除日期', dataIndex: 'recycleTime', width: 110, render: formatDate },
          { title: '自动清除日期', dataIndex: 'purgeTime', width: 120, render: formatDate },
        ]
      : []),
    {
      title: '操作',
      key: 'op',
      fixed: 'right',
      width: 220,
      render: (_, c) => (
        <Space size={0} wrap>
          {mode === 'users' && can('manage:user:openCard') && (
            <Button type="link" size="small" onClick={() => setOpening(c)}>
              开卡
            </Button>
          )}
          {can('manage:user:reset') && (
            <Button type="link" size="small" onClick={() => reset(c)}>
              重置信息
            </Button>
          )}
          {can('manage:user:edit') && (
            <Button type="link" size="small" onClick={() => setEditing(c)}>
              修改
            </Button>
          )}
          {mode === 'users' && (
            <Button type="link" size="small" onClick={() => fill(c)}>
              志愿方案
            </Button>
          )}
          <Button type="link" size="small" onClick={() => setHistory(c)}>
            记录
          </Button>
          {mode === 'users' && can('manage:user:remove') && (
            <Button type="link" size="small" danger onClick={() => recycle([c])}>
              删除
            </Button>
          )}
          {mode === 'recycle' && can('manage:recycle:restore') && (
            <Button type="link" size="small" onClick={() => restore([c])}>
              恢复
            </Button>
          )}
          {mode === 'recycle' && can('manage:recycle:remove') && (
            <Button type="link" size="small" danger onClick={() => purge([c])}>
              彻底删除
            </Button>
          )}
        </Space>
      ),
    },
  ];

  return (
    <Card className="zy-page">
      <SearchForm
        form={form}
        paged={paged}
        toQuery={(v) => ({ ...v, name: v.name?.trim() || undefined, mobile: v.mobile?.trim() || undefined, cardNo: v.cardNo?.trim() || undefined })}
      >
        <Form.Item label="姓名" name="name">
          <Input allowClear placeholder="请输入姓名" style={{ width: 140 }} />
        </Form.Item>
        <Form.Item label="手机号码" name="mobile">
          <Input allowClear placeholder="请输入手机号码" style={{ width: 150 }} />
        </Form.Item>
        <Form.Item label="用户类型" name="userType">
          <Select allowClear placeholder="全部" style={{ width: 130 }} options={Object.entries(USER_TYPES).map(([v, l]) => ({ value: Number(v), label: l }))} />
        </Form.Item>
        <Form.Item label="卡号" name="cardNo">
          <Input allowClear placeholder="请输入卡号" style={{ width: 140 }} />
        </Form.Item>
        {stores?.allStores && (
          <Form.Item label="门店" name="storeId">
            <StoreSelect stores={stores.stores} />
          </Form.Item>
        )}
      </SearchForm>
      <Space style={{ marginBottom: 12 }}>
        {mode === 'users' && can('manage:user:remove') && (
          <Button danger disabled={!selected.length} onClick={() => recycle(selected)}>
            删除
          </Button>
        )}
        {mode === 'recycle' && can('manage:recycle:restore') && (
          <Button disabled={!selected.length} onClick={() => restore(selected)}>
            恢复
          </Button>
        )}
        {mode === 'recycle' && can('manage:recycle:remove') && (
          <Button danger disabled={!selected.length} onClick={() => purge(selected)}>
            彻底删除
          </Button>
        )}
        {mode === 'recycle' && <span style={{ color: '#909399' }}>回收站中的用户 30 天后自动彻底删除</span>}
      </Space>
      <PagedTable<Customer, CustomerQuery>
        paged={paged}
        rowKey="studentId"
        columns={columns}
        scroll={{ x: 1600 }}
        rowSelection={{ selectedRowKeys: selected.map((c) => c.studentId), onChange: (_, rows) => setSelected(rows) }}
      />
      <OpenCardDialog
        customer={opening}
        onClose={(saved) => {
          setOpening(null);
          if (saved) reload();
        }}
      />
      <CustomerFormDialog
        customer={editing}
        onClose={(saved) => {
          setEditing(null);
          if (saved) reload();
        }}
      />
      <HistoryDrawer customer={history} onClose={() => setHistory(null)} />
    </Card>
  );
}
