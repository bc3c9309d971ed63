import { UploadOutlined } from '@ant-design/icons';
import { INVOICE_STATUS, taxNoProblem, yuanText, yuanToFen } from '@common/finance/checks';
import { App, Button, Card, Col, Form, Input, Modal, Row, Select, Space, Statistic, Table, type TableProps, Tabs, Tag, Upload } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import {
  applyInvoice,
  downloadInvoice,
  getWallet,
  type Invoice,
  type InvoiceHeader,
  type InvoiceQuery,
  issueInvoice,
  listHeaders,
  listInvoices,
  rejectInvoice,
  removeHeader,
  saveHeader,
  type WalletSummary,
} from '@/api/finance';
import { useAccess } from '@/components/Access';
import { formatTime } from '@/modules/customer/shared/format';
import { PagedTable, SearchForm } from '@/modules/customer/shared/SearchTable';
import { StoreSelect } from '@/modules/customer/shared/StoreSelect';
import { statusFromLink, useApplyLinkedFilter, useLinkedFilter } from '@/modules/customer/shared/useLinkedFilter';
import { usePaged } from '@/modules/customer/shared/usePaged';

/** The home page's to-do count links here with ?status=0. */
const readLink = statusFromLink<{ storeId?: number; status?: number }, InvoiceQuery>(INVOICE_STATUS);

/** Spec §4 invoice status: 0 待开票, 1 已开票, 2 已驳回. */
const STATUS_COLOR: Record<number, string> = { 0: 'processing', 1: 'success', 2: 'error' };

/**
 * 发票管理 (finance/invoice/index): a store keeps its invoice headers (发票抬头) and applies for an invoice of at most
 * what it paid headquarters and has not had invoiced; headquarters issues it (开票: the invoice PDF, which the store
 * downloads) or rejects it with a reason (the amount becomes invoiceable again).
 */
export default function InvoicePage() {
  const { message, modal } = App.useApp();
  const { can } = useAccess();
  const issuer = can('finance:invoice:issue');
  const [wallet, setWallet] = useState<WalletSummary | null>(null);
  const [headers, setHeaders] = useState<InvoiceHeader[]>([]);
  const [applyOpen, setApplyOpen] = useState(false);
  const [headerEdit, setHeaderEdit] = useState<Partial<InvoiceHeader> | null>(null);
  const [issueFor, setIssueFor] = useState<Invoice | null>(null);
  const [file, setFile] = useState<File | null>(null);
  const [applyForm] = Form.useForm<{ headerId: number; amount: string; remark?: string }>();
  const [headerForm] = Form.useForm<Omit<InvoiceHeader, 'headerId' | 'storeId' | 'version'>>();
  const [issueForm] = Form.useForm<{ invoiceNo: string }>();
  const linked = useLinkedFilter(readLink);
  const paged = usePaged(listInvoices, { pageNum: 1, pageSize: 20, ...linked?.query } as InvoiceQuery);
  const [filterForm] = Form.useForm<{ storeId?: number; status?: number }>();
  useApplyLinkedFilter(readLink, filterForm, paged.setQuery);
  const storeId = paged.query.storeId;
  const hq = (wallet?.stores?.length ?? 0) > 0;

  const refresh = useCallback(async () => {
    const [w, h] = await Promise.all([getWallet(storeId).catch(() => null), listHeaders(storeId).catch(() => [])]);
    setWallet(w);
    setHeaders(h);
  }, [storeId]);
  useEffect(() => {
    refresh();
  }, [refresh]);
  const after = async (msg: string) => {
    message.success(msg);
    await Promise.all([paged.reload(), refresh()]);
  };

  const submitApply = async () => {
    const v = await applyForm.validateFields();
    const res = await applyInvoice({ storeId, headerId: v.headerId, amountFen: yuanToFen(v.amount) as number, remark: v.remark });
    setApplyOpen(false);
    await after(res.msg);
  };
  const submitHeader = async () => {
    const v = await headerForm.validateFields();
    const res = await saveHeader({ ...v, headerId: headerEdit?.headerId, version: headerEdit?.version, storeId });
    setHeaderEdit(null);
    await after(res.msg);
  };
  const submitIssue = async () => {
    const v = await issueForm.validateFields();
    if (!file) {
      message.warning('请选择发票 PDF 文件');
      return;
    }
    const msg = await issueInvoice((issueFor as Invoice).invoiceId, v.invoiceNo.trim(), file);
    setIssueFor(null);
    setFile(null);
    await after(msg);
  };
  const doReject = (r: Invoice) => {
    let reason = '';
    modal.confirm({
      title: '驳回开票申请',
      content: (
        <Space direction="vertical" style={{ width: '100%' }}>
          <span>
            驳回 {r.storeName} 的 {yuanText(r.amountFen)} 元开票申请，金额将重新计入可开票金额。
          </span>
          <Input placeholder="驳回原因（必填）" maxLength={200} onChange={(e) => (reason = e.target.value)} />
        </Space>
      ),
      okText: '驳回',
      okButtonProps: { danger: true },
      cancelText: '取消',
      onOk: async () => {
        if (!reason.trim()) {
          message.warning('请输入驳回原因');
          throw new Error('no reason');
        }
        await after((await rejectInvoice(r.invoiceId, reason.trim())).msg);
      },
    });
  };

  const columns: TableProps<Invoice>['columns'] = [
    { title: '编号', dataIndex: 'invoiceId', width: 70 },
    ...(hq ? [{ title: '门店', dataIndex: 'storeName', width: 110 }] : []),
    { title: '发票抬头', dataIndex: 'title', width: 200 },
    { title: '纳税人识别号', dataIndex: 'taxNo', width: 190 },
    { title: '金额（元）', dataIndex: 'amountFen', width: 120, align: 'right', render: (fen: number) => yuanText(fen) },
    { title: '状态', dataIndex: 'status', width: 90, render: (s: number) => <Tag color={STATUS_COLOR[s]}>{INVOICE_STATUS[s]}</Tag> },
    { title: '发票号码 / 驳回原因', key: 'note', render: (_, r) => r.invoiceNo ?? r.reason ?? r.remark ?? '--' },
    { title: '申请时间', dataIndex: 'createTime', width: 170, render: formatTime },
    {
      title: '操作',
      key: 'op',
      width: 170,
      fixed: 'right',
      render: (_, r) => (
        <Space size={4}>
          {r.hasFile && (
            <Button type="link" size="small" onClick={() => downloadInvoice(r)}>
              下载发票
            </Button>
          )}
          {issuer && r.status === 0 && (
            <>
              <Button
                type="link"
                size="small"
                onClick={() => {
                  issueForm.resetFields();
                  setFile(null);
                  setIssueFor(r);
                }}
              >
                开票
              </Button>
              <Button type="link" size="small" danger onClick={() => doReject(r)}>
                驳回
              </Button>
            </>
          )}
        </Space>
      ),
    },
  ];
  const headerColumns: TableProps<InvoiceHeader>['columns'] = [
    { title: '发票抬头', dataIndex: 'title' },
    { title: '纳税人识别号', dataIndex: 'taxNo' },
    { title: '地址', dataIndex: 'address', render: (v) => v ?? '--' },
    { title: '电话', dataIndex: 'phone', render: (v) => v ?? '--' },
    { title: '开户银行', dataIndex: 'bankName', render: (v) => v ?? '--' },
    { title: '银行账号', dataIndex: 'bankAccount', render: (v) => v ?? '--' },
    {
      title: '操作',
      key: 'op',
      width: 130,
      render: (_, h) =>
        can('finance:invoice:header') && (
          <Space size={4}>
            <Button
              type="link"
              size="small"
              onClick={() => {
                headerForm.setFieldsValue({
                  title: h.title,
                  taxNo: h.taxNo,
                  address: h.address,
                  phone: h.phone,
                  bankName: h.bankName,
                  bankAccount: h.bankAccount,
                });
                setHeaderEdit(h);
              }}
            >
              修改
            </Button>
            <Button
              type="link"
              size="small"
              danger
              onClick={() =>
                modal.confirm({
                  title: '删除发票抬头',
                  content: `确定删除“${h.title}”吗？`,
                  okText: '删除',
                  okButtonProps: { danger: true },
                  cancelText: '取消',
                  onOk: async () => after((await removeHeader(h.headerId)).msg),
                })
              }
            >
              删除
            </Button>
          </Space>
        ),
    },
  ];

  return (
    <Card className="zy-page">
      <Row gutter={16} style={{ marginBottom: 16 }}>
        {wallet &&
          [
            ['可开票金额', wallet.invoiceableFen],
            ['已申请开票', wallet.invoicedFen],
            ['累计付款', wallet.paidFen],
          ].map(([title, fen]) => (
            <Col key={title} xs={24} sm={8}>
              <Card size="small">
                <Statistic title={`${title}${hq ? `（${wallet.storeName}）` : ''}`} value={yuanText(fen as number)} suffix="元" />
              </Card>
            </Col>
          ))}
      </Row>
      <Tabs
        items={[
          {
            key: 'list',
            label: '开票申请',
            children: (
              <>
                <SearchForm
                  form={filterForm}
                  paged={paged}
                  toQuery={(v) => v}
                  extra={
                    can('finance:invoice:apply') && (
                      <Button
                        type="primary"
                        onClick={() => {
                          applyForm.resetFields();
                          setApplyOpen(true);
                        }}
                      >
                        申请开票
                      </Button>
                    )
                  }
                >
                  {hq && (
                    <Form.Item label="门店" name="storeId">
                      <StoreSelect stores={(wallet?.stores ?? []).map((s) => ({ ...s, kind: '' }))} />
                    </Form.Item>
                  )}
                  <Form.Item label="状态" name="status">
                    <Select
                      allowClear
                      placeholder="全部"
                      style={{ width: 120 }}
                      options={Object.entries(INVOICE_STATUS).map(([v, l]) => ({ value: Number(v), label: l }))}
                    />
                  </Form.Item>
                </SearchForm>
                <PagedTable<Invoice, InvoiceQuery> paged={paged} rowKey="invoiceId" columns={columns} scroll={{ x: 1300 }} />
              </>
            ),
          },
          {
            key: 'header',
            label: '发票抬头',
            children: (
              <>
                {can('finance:invoice:header') && (
                  <Button
                    type="primary"
                    style={{ marginBottom: 12 }}
                    onClick={() => {
                      headerForm.resetFields();
                      setHeaderEdit({});
                    }}
                  >
                    新增发票抬头
                  </Button>
                )}
                <Table<InvoiceHeader>
                  size="middle"
                  rowKey="headerId"
                  dataSource={headers}
                  columns={headerColumns}
                  pagination={false}
                  locale={{ emptyText: '暂无发票抬头' }}
                />
              </>
            ),
          },
        ]}
      />

      <Modal title="申请开票" open={applyOpen} onOk={submitApply} onCancel={() => setApplyOpen(false)} okText="提交" cancelText="取消">
        <Form form={applyForm} layout="vertical">
          <p>可开票金额：{yuanText(wallet?.invoiceableFen ?? 0)} 元</p>
          <Form.Item
            label="发票抬头"
            name="headerId"
            rules={[{ required: true, message: '请选择发票抬头' }]}
            extra={headers.length === 0 ? '还没有发票抬头：请先在“发票抬头”中添加' : undefined}
          >
            <Select placeholder="请选择" options={headers.map((h) => ({ value: h.headerId, label: `${h.title}（${h.taxNo}）` }))} />
          </Form.Item>
          <Form.Item
            label="开票金额（元）"
            name="amount"
            rules={[
              { required: true, message: '请输入开票金额' },
              {
                validator: (_, v: string) => {
                  if (!v) return Promise.resolve();
                  const fen = yuanToFen(String(v));
                  if (fen == null) return Promise.reject(new Error('金额必须大于 0，最多两位小数'));
                  if (wallet && fen > wallet.invoiceableFen) return Promise.reject(new Error('开票金额不能超过可开票金额'));
                  return Promise.resolve();
                },
              },
            ]}
          >
            <Input placeholder="例如 398.00" suffix="元" />
          </Form.Item>
          <Form.Item label="备注" name="remark">
            <Input maxLength={200} />
          </Form.Item>
        </Form>
      </Modal>

      <Modal
        title={headerEdit?.headerId ? '修改发票抬头' : '新增发票抬头'}
        open={headerEdit !== null}
        onOk={submitHeader}
        onCancel={() => setHeaderEdit(null)}
        okText="保存"
        cancelText="取消"
      >
        <Form form={headerForm} layout="vertical">
          <Form.Item label="发票抬头" name="title" rules={[{ required: true, whitespace: true, message: '请输入发票抬头' }]}>
            <Input maxLength={100} />
          </Form.Item>
          <Form.Item
            label="纳税人识别号"
            name="taxNo"
            rules={[{ validator: (_, v: string) => (taxNoProblem(v ?? '') ? Promise.reject(new Error(taxNoProblem(v ?? '') as string)) : Promise.resolve()) }]}
          >
            <Input maxLength={20} placeholder="15、18 或 20 位数字或大写字母" />
          </Form.Item>
          <Form.Item label="地址" name="address">
            <Input maxLength={200} />
          </Form.Item>
          <Form.Item label="电话" name="phone">
            <Input maxLength={30} />
          </Form.Item>
          <Form.Item label="开户银行" name="bankName">
            <Input maxLength={60} />
          </Form.Item>
          <Form.Item label="银行账号" name="bankAccount">
            <Input maxLength={40} />
          </Form.Item>
        </Form>
      </Modal>

      <Modal title="开具发票" open={issueFor !== null} onOk={submitIssue} onCancel={() => setIssueFor(null)} okText="开票" cancelText="取消" destroyOnHidden>
        <Form form={issueForm} layout="vertical" preserve={false}>
          <p>
            {issueFor?.storeName}：{issueFor?.title}，{yuanText(issueFor?.amountFen ?? 0)} 元
          </p>
          <Form.Item label="发票号码" name="invoiceNo" rules={[{ required: true, whitespace: true, message: '请输入发票号码' }]}>
            <Input maxLength={40} />
          </Form.Item>
          <Form.Item label="发票文件（PDF）" required>
            <Upload
              accept=".pdf,application/pdf"
              maxCount={1}
              beforeUpload={(f) => {
                if (!/\.pdf$/i.test(f.name)) {
                  message.error('发票文件必须是 PDF 格式');
                  return Upload.LIST_IGNORE;
                }
                setFile(f);
                return false;
              }}
              onRemove={() => setFile(null)}
            >
              <Button icon={<UploadOutlined />}>选择 PDF 文件</Button>
            </Upload>
          </Form.Item>
        </Form>
      </Modal>
    </Card>
  );
}
