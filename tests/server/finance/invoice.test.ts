import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { invoiceRoot } from '../../../server/finance/invoice.js';
import { PRICE, releaseOk, staff } from '../customer/helpers.js';
import { backends, startServer, type TestServer } from '../harness.js';
import { api, apiOk, count, form, PDF, W } from './financeHelpers.js';
import { expectLedgerBalanced } from './ledgerInvariant.js';

interface Wallet {
  paidFen: number;
  invoicedFen: number;
  invoiceableFen: number;
}
interface InvoiceRow {
  invoiceId: number;
  status: number;
  statusName: string;
  amountFen: number;
  hasFile: boolean;
  reason: string | null;
}

describe.each(backends)('发票 (%s)', (backend) => {
  let s: TestServer;
  let admin: string;
  let store2: string;
  let store3: string;
  let headerId: number;
  const header = {
    title: '济南某某教育咨询有限公司',
    taxNo: '91370100MA3C4XXX1K',
    address: '济南市历下区',
    phone: '0531-88888888',
    bankName: '工商银行',
    bankAccount: '1602 0000 0000',
  };

  beforeAll(async () => {
    s = await startServer(backend);
    admin = await s.login('admin', 'admin123');
    store2 = await s.login('store2leader', 'store2leader123');
    store3 = await staff(s, 'store3_leader', 3);
  });
  afterAll(async () => {
    await s?.close();
  });
  afterEach(async () => {
    await expectLedgerBalanced(s);
  });

  const wallet = (token = store2) => apiOk<Wallet>(s, token, `${W}/wallet`);
  const invoices = async (token: string, query: Record<string, string | number> = {}) =>
    (await s.call('GET', `${W}/invoiceList`, { token, query: { pageSize: 100, ...query } })).body.rows as InvoiceRow[];
  const issue = async (token: string, fields: Record<string, string>, file?: { name: string; type: string; data: Buffer }) => {
    const f = await form(fields, file ? { field: 'file', ...file } : undefined);
    return (await s.call('POST', `${W}/issueInvoice`, { token, body: f.body, headers: f.headers })).body;
  };

  it('invoice headers: the tax number is checked, the header is the store’s own', async () => {
    const before = await count(s, 'finInvoiceHeader');
    expect((await api(s, store2, `${W}/upInvoice`, { ...header, taxNo: '91370100ma3c4xxx1k' })).msg).toBe('纳税人识别号应为 15、18 或 20 位数字或大写字母');
    expect((await api(s, store2, `${W}/upInvoice`, { ...header, taxNo: '1234567890' })).msg).toBe('纳税人识别号应为 15、18 或 20 位数字或大写字母');
    expect((await api(s, store2, `${W}/upInvoice`, { ...header, title: '' })).msg).toBe('发票抬头不能为空');
    expect(await count(s, 'finInvoiceHeader')).toBe(before);
    headerId = (await apiOk<{ headerId: number }>(s, store2, `${W}/upInvoice`, header)).headerId;
    expect((await apiOk<Array<{ headerId: number }>>(s, store2, `${W}/invoice`)).map((h) => h.headerId)).toEqual([headerId]);
    expect(await apiOk<unknown[]>(s, store3, `${W}/invoice`)).toEqual([]);
    expect((await api(s, store3, `${W}/upInvoice`, { ...header, headerId })).msg).toBe('发票抬头不存在或已被删除');
  });

  it('the invoiceable amount is what the store paid headquarters; an application over it is refused, nothing written', async () => {
    const w0 = await wallet();
    expect(w0.paidFen).toBe(0);
    expect((await api(s, store2, `${W}/applyInvoice`, { headerId, amountFen: 1 })).msg).toBe('开票金额超过可开票金额：本次申请 0.01 元，可开票 0.00 元');
    await releaseOk(s, store2, { kind: 1, card_num: 2, vip_price: PRICE[1] }); // 2 × 398.00 from the balance to headquarters
    const w1 = await wallet();
    expect(w1.paidFen).toBe(2 * PRICE[1]);
    expect(w1.invoiceableFen).toBe(2 * PRICE[1]);
    const before = await count(s, 'finInvoice');
    expect((await api(s, store2, `${W}/applyInvoice`, { headerId, amountFen: 2 * PRICE[1] + 1 })).msg).toBe(
      '开票金额超过可开票金额：本次申请 796.01 元，可开票 796.00 元',
    );
    expect((await api(s, store2, `${W}/applyInvoice`, { headerId, amountFen: -5 })).msg).toBe('开票金额必须是大于 0 的整数（分）');
    expect((await api(s, store2, `${W}/applyInvoice`, { headerId, amountFen: 10.5 })).msg).toBe('开票金额必须是大于 0 的整数（分）');
    expect((await api(s, store3, `${W}/applyInvoice`, { headerId, amountFen: 100 })).msg).toBe('请选择发票抬头');
    expect(await count(s, 'finInvoice')).toBe(before);
  });

  it('concurrent applications never exceed the invoiceable amount', async () => {
    const { invoiceableFen } = await wallet();
    const part = Math.ceil(invoiceableFen / 3);
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) => api(s, store2, `${W}/applyInvoice`, { headerId, amountFen: part, remark: `第 ${i} 张` })),
    );
    expect(answers.filter((a) => a.code === 200)).toHaveLength(2);
    const w = await wallet();
    expect(w.invoicedFen).toBe(2 * part);
    expect(w.invoiceableFen).toBe(invoiceableFen - 2 * part);
  });

  it('headquarters issues with a PDF (checked by content) that the store downloads; store 3 cannot', async () => {
    const [first] = await invoices(store2, { status: 0 });
    expect(first.statusName).toBe('待开票');
    expect((await issue(store2, { invoiceId: String(first.invoiceId), invoiceNo: 'No.1' }, { name: 'a.pdf', type: 'application/pdf', data: PDF })).code).toBe(
      403,
    );
    const fake = Buffer.from('<html>not a pdf</html>');
    expect(
      (
        await issue(
          admin,
          { invoiceId: String(first.invoiceId), invoiceNo: '24370000000000000001' },
          { name: 'invoice.pdf', type: 'application/pdf', data: fake },
        )
      ).msg,
    ).toBe('发票文件必须是 PDF 格式');
    expect((await issue(admin, { invoiceId: String(first.invoiceId), invoiceNo: '24370000000000000001' })).msg).toBe('请上传发票 PDF 文件');
    const root = invoiceRoot(s.dataDir);
    const filesBefore = fs.existsSync(root) ? fs.readdirSync(root, { recursive: true }).length : 0;
    expect(filesBefore).toBe(0);
    expect((await invoices(admin, { storeId: 2 })).find((i) => i.invoiceId === first.invoiceId)?.status).toBe(0);

    const done = await issue(
      admin,
      { invoiceId: String(first.invoiceId), invoiceNo: '24370000000000000001' },
      { name: 'invoice.pdf', type: 'application/pdf', data: PDF },
    );
    expect(done.msg).toBe('开票成功');
    expect(
      (await issue(admin, { invoiceId: String(first.invoiceId), invoiceNo: 'again' }, { name: 'invoice.pdf', type: 'application/pdf', data: PDF })).msg,
    ).toBe('该发票申请当前为“已开票”，不能再处理');
    const mine = await invoices(store2);
    expect(mine.find((i) => i.invoiceId === first.invoiceId)).toMatchObject({ statusName: '已开票', hasFile: true });

    const file = await s.call('GET', `${W}/invoiceFile`, { token: store2, query: { invoiceId: first.invoiceId } });
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(file.rawBuffer.equals(PDF)).toBe(true);
    const foreign = await s.call('GET', `${W}/invoiceFile`, { token: store3, query: { invoiceId: first.invoiceId } });
    expect(foreign.body.msg).toBe('没有权限访问其他门店的发票');
    expect(await invoices(store3)).toEqual([]);
    expect((await api(s, store3, `${W}/invoiceList`, { storeId: 2 })).msg).toBe('没有权限访问其他门店的发票');
  });

  it('a download is confined to the invoice folder', async () => {
    const [row] = await invoices(store2, { status: 1 });
    const secret = path.join(s.dataDir, 'secret.txt');
    fs.writeFileSync(secret, 'do not serve');
    await s.app.db.kysely.updateTable('finInvoice').set({ filePath: '../../secret.txt' }).where('invoiceId', '=', row.invoiceId).execute();
    const res = await s.call('GET', `${W}/invoiceFile`, { token: store2, query: { invoiceId: row.invoiceId } });
    expect(res.body.msg).toBe('发票文件不存在');
    expect(res.raw).not.toContain('do not serve');
  });

  it('a rejection needs a reason and makes the amount invoiceable again', async () => {
    const [pending] = await invoices(store2, { status: 0 });
    const before = await wallet();
    expect((await api(s, admin, `${W}/rejectInvoice`, { invoiceId: pending.invoiceId })).msg).toBe('驳回原因不能为空');
    expect((await api(s, store2, `${W}/rejectInvoice`, { invoiceId: pending.invoiceId, reason: '自己驳回' })).code).toBe(403);
    await apiOk(s, admin, `${W}/rejectInvoice`, { invoiceId: pending.invoiceId, reason: '抬头与营业执照不符' });
    const after = await wallet();
    expect(after.invoiceableFen).toBe(before.invoiceableFen + pending.amountFen);
    expect((await invoices(store2)).find((i) => i.invoiceId === pending.invoiceId)).toMatchObject({ statusName: '已驳回', reason: '抬头与营业执照不符' });
  });
});
