import { DownloadOutlined } from '@ant-design/icons';
import type { ReconcileMismatch, ReconcileOrder, ReconcileReport, ReconcileStore } from '@common/finance/reconcile';
import { Alert, Button, Card, DatePicker, Form, Space, Table, type TableProps, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useCallback, useEffect, useState } from 'react';
import { exportReconcile, reconcile, yuan } from '@/api/pay';
import { useAccess } from '@/components/Access';
import { formatTime } from '@/modules/customer/shared/format';
import { StoreSelect, useStores } from '@/modules/customer/shared/StoreSelect';

/**
 * 对账 (finance/reconcile/index): one day, per store and in total, the orders paid against the provider notifications
 * and the ledger postings; every difference listed; 导出 as xlsx. Headquarters sees every store, a store its own.
 */
export default function ReconcilePage() {
  const { can } = useAccess();
  const stores = useStores();
  const [form] = Form.useForm<{ date: Dayjs; storeId?: number }>();
  const [query, setQuery] = useState<{ date: string; storeId?: number }>({ date: dayjs().format('YYYY-MM-DD') });
  const [report, setReport] = useState<ReconcileReport | null>(null);
  const [loading, setLoading] = useState(false);

  const load = useCallback(async () => {
    setLoading(true);
    try {
      setReport(await reconcile(query));
    } catch {
      // shown by the http layer
    } finally {
      setLoading(false);
    }
  }, [query]);
  useEffect(() => {
    load();
  }, [load]);

  const money = (v: number) => yuan(v);
  const storeColumns: TableProps<ReconcileStore>['columns'] = [
    { title: '门店', dataIndex: 'storeName' },
    { title: '已支付笔数', dataIndex: 'paidCount', width: 110, align: 'right' },
    { title: '订单金额（元）', dataIndex: 'paidFen', render: money, width: 140, align: 'right' },
    { title: '支付通知金额（元）', dataIndex: 'notifiedFen', render: money, width: 160, align: 'right' },
    { title: '记账金额（元）', dataIndex: 'ledgerFen', render: money, width: 140, align: 'right' },
    { title: '退款金额（元）', dataIndex: 'refundedFen', render: money, width: 140, align: 'right' },
    {
      title: '差异',
      dataIndex: 'mismatchCount',
      width: 80,
      align: 'right',
      render: (n: number) => (n ? <Typography.Text type="danger">{n}</Typography.Text> : 0),
    },
  ];
  const mismatchColumns: TableProps<ReconcileMismatch>['columns'] = [
    { title: '门店', dataIndex: 'storeName', width: 120 },
    { title: '订单号', dataIndex: 'orderNo', width: 210, render: (v) => v ?? '--' },
    { title: '差异类型', dataIndex: 'kind', width: 150 },
    { title: '说明', dataIndex: 'detail' },
  ];
  const orderColumns: TableProps<ReconcileOrder>['columns'] = [
    { title: '订单号', dataIndex: 'orderNo', width: 210 },
    { title: '用途', dataIndex: 'purposeName', width: 100 },
    { title: '支付方式', dataIndex: 'providerName', width: 100 },
    { title: '金额（元）', dataIndex: 'amountFen', render: money, width: 120, align: 'right' },
    { title: '状态', dataIndex: 'statusName', width: 90 },
    { title: '支付时间', dataIndex: 'paidTime', render: formatTime },
  ];
  const t = report?.total;

  return (
    <Card className="zy-page">
      <Form
        form={form}
        layout="inline"
        style={{ marginBottom: 16, rowGap: 8 }}
        initialValues={{ date: dayjs() }}
        onFinish={(v) => setQuery({ date: (v.date ?? dayjs()).format('YYYY-MM-DD'), storeId: v.storeId })}
      >
        <Form.Item label="对账日期" name="date">
          <DatePicker allowClear={false} />
        </Form.Item>
        {stores?.allStores && (
          <Form.Item label="门店" name="storeId">
            <StoreSelect stores={stores.stores} />
          </Form.Item>
        )}
        <Space>
          <Button type="primary" htmlType="submit">
            查询
          </Button>
          {can('finance:reconcile:export') && (
            <Button icon={<DownloadOutlined />} onClick={() => exportReconcile(query).catch(() => undefined)}>
              导出
            </Button>
          )}
        </Space>
      </Form>
      {report &&
        (report.mismatches.length === 0 ? (
          <Alert type="success" showIcon style={{ marginBottom: 16 }} message={`${report.date} 对账无差异：订单、支付通知与账本一致`} />
        ) : (
          <Alert type="error" showIcon style={{ marginBottom: 16 }} message={`${report.date} 发现 ${report.mismatches.length} 条差异，请核对处理`} />
        ))}
      <Table<ReconcileStore>
        size="middle"
        rowKey="storeId"
        loading={loading}
        columns={storeColumns}
        dataSource={report?.stores ?? []}
        pagination={false}
        locale={{ emptyText: '当日没有已支付的订单' }}
        summary={() =>
          t && report?.stores.length ? (
            <Table.Summary.Row>
              <Table.Summary.Cell index={0}>合计</Table.Summary.Cell>
              <Table.Summary.Cell index={1} align="right">
                {t.paidCount}
              </Table.Summary.Cell>
              <Table.Summary.Cell index={2} align="right">
                {money(t.paidFen)}
              </Table.Summary.Cell>
              <Table.Summary.Cell index={3} align="right">
                {money(t.notifiedFen)}
              </Table.Summary.Cell>
              <Table.Summary.Cell index={4} align="right">
                {money(t.ledgerFen)}
              </Table.Summary.Cell>
              <Table.Summary.Cell index={5} align="right">
                {money(t.refundedFen)}
              </Table.Summary.Cell>
              <Table.Summary.Cell index={6} align="right">
                {t.mismatchCount}
              </Table.Summary.Cell>
            </Table.Summary.Row>
          ) : null
        }
      />
      {report && report.mismatches.length > 0 && (
        <>
          <Typography.Title level={5} style={{ marginTop: 24 }}>
            差异明细
          </Typography.Title>
          <Table<ReconcileMismatch>
            size="small"
            rowKey={(m) => `${m.orderNo}-${m.kind}-${m.detail}`}
            columns={mismatchColumns}
            dataSource={report.mismatches}
            pagination={false}
          />
        </>
      )}
      <Typography.Title level={5} style={{ marginTop: 24 }}>
        当日已支付订单
      </Typography.Title>
      <Table<ReconcileOrder>
        size="small"
        rowKey="orderNo"
        columns={orderColumns}
        dataSource={report?.orders ?? []}
        pagination={{ pageSize: 20, showTotal: (n) => `共 ${n} 条` }}
      />
    </Card>
  );
}
