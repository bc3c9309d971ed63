import { UploadOutlined } from '@ant-design/icons';
import { taxNoProblem, yuanText } from '@common/finance/checks';
import { App, Button, Form, Input, Modal, Upload } from 'antd';
import { useCallback, useState } from 'react';
import { applyInvoice, getWallet, type InvoiceHeader, issueInvoice, listHeaders, removeHeader, saveHeader } from '@/api/finance';
import type { EnginePageProps } from '@/engine/resource';
import { useSubmit } from '@/utils/useSubmit';
import { AccountsDialog } from '../storeForms/AccountsDialog';
import { ApplyDialog } from '../storeForms/ApplyDialog';
import { closeAndRefresh, closeDialog, type DialogRequest, storeOfQuery } from '../storeForms/dialogRequests';
import { FinanceList } from '../storeForms/FinanceList';

/**
 * 发票管理 (finance/invoice/index, schemas/finance/fin_invoice.json): the generic list of invoice applications with the
 * invoiceable figures above it and 驳回 declared in the schema; around it the dialogs the toolbar and row buttons of
 * overrides.tsx open: 申请开票, 发票抬头 (the store's invoice headers) and 开票 (the invoice number and its PDF).
 */
export default function InvoiceListPage({ resource }: EnginePageProps) {
  return <FinanceList resource={resource} dialogs={{ apply: ApplyInvoice, headers: InvoiceHeaders, issue: IssueInvoice }} />;
}

function ApplyInvoice({ request }: { request: DialogRequest }) {
  const storeId = storeOfQuery(request.ctx);
  const load = useCallback(async () => {
    const [w, headers] = await Promise.all([getWallet(storeId), listHeaders(storeId)]);
    return { availableFen: w.invoiceableFen, targets: headers.map((h) => ({ value: h.headerId, label: `${h.title}（${h.taxNo}）` })) };
  }, [storeId]);
  return (
    <ApplyDialog
      title="申请开票"
      load={load}
      availableLabel="可开票金额"
      targetLabel="发票抬头"
      targetRequired="请选择发票抬头"
      noTargetHint="还没有发票抬头：请先在“发票抬头”中添加"
      amountLabel="开票金额（元）"
      amountRequired="请输入开票金额"
      amountPlaceholder="例如 398.00"
      overMessage="开票金额不能超过可开票金额"
      send={async (v) => (await applyInvoice({ storeId, headerId: v.targetId, amountFen: v.amountFen, remark: v.remark })).msg}
      onSent={() => closeAndRefresh(request)}
      onClose={closeDialog}
    />
  );
}

const optional = (v: string | null) => v ?? '--';

function InvoiceHeaders({ request }: { request: DialogRequest }) {
  const storeId = storeOfQuery(request.ctx);
  const load = useCallback(() => listHeaders(storeId), [storeId]);
  return (
    <AccountsDialog<InvoiceHeader>
      noun="发票抬头"
      load={load}
      rowKey="headerId"
      emptyText="暂无发票抬头"
      editPermission="finance:invoice:header"
      columns={[
        { title: '发票抬头', dataIndex: 'title' },
        { title: '纳税人识别号', dataIndex: 'taxNo' },
        { title: '地址', dataIndex: 'address', render: optional },
        { title: '电话', dataIndex: 'phone', render: optional },
        { title: '开户银行', dataIndex: 'bankName', render: optional },
        { title: '银行账号', dataIndex: 'bankAccount', render: optional },
      ]}
      fields={[
        { name: 'title', label: '发票抬头', maxLength: 100, required: '请输入发票抬头' },
        { name: 'taxNo', label: '纳税人识别号', maxLength: 20, placeholder: '15、18 或 20 位数字或大写字母', check: taxNoProblem },
        { name: 'address', label: '地址', maxLength: 200 },
        { name: 'phone', label: '电话', maxLength: 30 },
        { name: 'bankName', label: '开户银行', maxLength: 60 },
        { name: 'bankAccount', label: '银行账号', maxLength: 40 },
      ]}
      valuesOf={(h) => ({ title: h.title, taxNo: h.taxNo, address: h.address, phone: h.phone, bankName: h.bankName, bankAccount: h.bankAccount })}
      save={async (v, h) =>
        (
          await saveHeader({
            title: v.title,
            taxNo: v.taxNo,
            address: v.address,
            phone: v.phone,
            bankName: v.bankName,
            bankAccount: v.bankAccount,
            headerId: h?.headerId,
            version: h?.version,
            storeId: h?.storeId ?? storeId,
          })
        ).msg
      }
      remove={async (h) => (await removeHeader(h.headerId)).msg}
      removeText={(h) => `确定删除“${h.title}”吗？`}
      onClose={closeDialog}
    />
  );
}

function IssueInvoice({ request }: { request: DialogRequest }) {
  const { message } = App.useApp();
  const r = request.record ?? {};
  const [form] = Form.useForm<{ invoiceNo: string }>();
  const [file, setFile] = useState<File | null>(null);
  const { busy, submit } = useSubmit(form, (v) => issueInvoice(Number(r.invoiceId), v.invoiceNo.trim(), file as File), {
    ready: () => {
      if (!file) message.warning('请选择发票 PDF 文件');
      return file !== null;
    },
    done: () => closeAndRefresh(request),
  });
  return (
    <Modal title="开具发票" open onOk={submit} onCancel={closeDialog} okText="开票" cancelText="取消" confirmLoading={busy} destroyOnHidden>
      <Form form={form} layout="vertical" preserve={false}>
        <p>
          {String(r.storeName ?? '')}：{String(r.title ?? '')}，{yuanText(Number(r.amountFen ?? 0))} 元
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
  );
}
