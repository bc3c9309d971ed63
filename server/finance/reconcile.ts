import ExcelJS from 'exceljs';
import { ORDER_STATUS_NAMES, type OrderStatus } from '../../common/finance/orders.js';
import type { ReconcileMismatch, ReconcileReport, ReconcileStore } from '../../common/finance/reconcile.js';
import type { Db } from '../db/types.js';
import { fail } from '../http/envelope.js';
import type { Actor } from '../security/actor.js';
import { NO_STORE_ROWS } from '../security/storeScope.js';
import { type OrderPurpose, PURPOSE_NAMES } from './orders.js';
import { PROVIDER_TITLES } from './pay/provider.js';

/**
 * 对账 (docs/finance-payments.md): for one day (server local time) and per store, the orders paid that day against
 * the provider notifications applied to them and the ledger postings they made. An order is in order when it has
 * exactly one applied notification (online payments) and one payment posting, both of its amount; every difference
 * is listed, and so are notifications that need a person (late: paid after we closed the order; rejected: wrong
 * amount, unknown order, a second trade). Headquarters sees every store; a store its own.
 */

/** A difference as found, before its store is named. */
type Mismatch = Omit<ReconcileMismatch, 'storeName'>;

function dayWindow(date: unknown): { day: string; start: number; end: number } {
  const day =
    typeof date === 'string' && date
      ? date
      : (() => {
          const d = new Date();
          return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
        })();
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!m) throw fail('对账日期格式不正确（应为 YYYY-MM-DD）');
  const start = new Date(+m[1], +m[2] - 1, +m[3]).getTime();
  const end = new Date(+m[1], +m[2] - 1, +m[3] + 1).getTime();
  if (Number.isNaN(start)) throw fail('对账日期格式不正确（应为 YYYY-MM-DD）');
  return { day, start, end };
}

export async function dailyReport(db: Db, actor: Actor, p: { date?: unknown; storeId?: unknown }): Promise<ReconcileReport> {
  const { day, start, end } = dayWindow(p.date);
  // An account without a store must not fall through to "every store" (an absent filter): it matches no row.
  const only = actor.allStores ? (p.storeId ? Number(p.storeId) : undefined) : (actor.storeId ?? NO_STORE_ROWS);

  let oq = db
    .selectFrom('finPayOrder')
    .selectAll()
    .where((eb) =>
      eb.or([eb.and([eb('paidTime', '>=', start), eb('paidTime', '<', end)]), eb.and([eb('refundTime', '>=', start), eb('refundTime', '<', end)])]),
    );
  if (only) oq = oq.where('storeId', '=', only);
  const orders = await oq.execute();

  let nq = db
    .selectFrom('finPayNotification as n')
    .leftJoin('finPayOrder as o', 'o.orderNo', 'n.orderNo')
    .select(['n.notifyId', 'n.provider', 'n.orderNo', 'n.providerTradeNo', 'n.amountFen', 'n.outcome', 'n.message', 'n.receivedTime', 'o.storeId'])
    .where('n.receivedTime', '>=', start)
    .where('n.receivedTime', '<', end);
  if (only) nq = nq.where('o.storeId', '=', only);
  const notes = await nq.execute();

  // Notifications applied to the day's orders (whenever received) and the ledger postings of those orders.
  const orderNos = orders.map((o) => o.orderNo);
  const applied = orderNos.length
    ? await db.selectFrom('finPayNotification').select(['orderNo', 'amountFen']).where('outcome', '=', 'applied').where('orderNo', 'in', orderNos).execute()
    : [];
  const postings = orderNos.length
    ? await db
        .selectFrom('finTxn as t')
        .innerJoin('finEntry as e', 'e.txnId', 't.txnId')
        .select(['t.refId', 't.type', 'e.amount'])
        .where('t.refType', '=', 'pay_order')
        .where('t.refId', 'in', orderNos)
        .where('e.amount', '>', 0)
        .execute()
    : [];
  // Postings of the day that name an order not paid that day (or no order at all).
  let pq = db
    .selectFrom('finTxn as t')
    .innerJoin('finEntry as e', 'e.txnId', 't.txnId')
    .leftJoin('finPayOrder as o', 'o.orderNo', 't.refId')
    .select(['t.refId', 't.type', 'e.amount', 'o.status', 'o.storeId'])
    .where('t.refType', '=', 'pay_order')
    .where('t.createTime', '>=', start)
    .where('t.createTime', '<', end)
    .where('e.amount', '>', 0);
  if (only) pq = pq.where('o.storeId', '=', only);
  const dayPostings = await pq.execute();

  const mismatches: Mismatch[] = [];
  const lines = new Map<number, ReconcileStore>();
  const line = (storeId: number) => {
    let l = lines.get(storeId);
    if (!l) {
      l = { storeId, storeName: '', paidCount: 0, paidFen: 0, notifiedFen: 0, ledgerFen: 0, refundedFen: 0, mismatchCount: 0 };
      lines.set(storeId, l);
    }
    return l;
  };
  const miss = (storeId: number, orderNo: string | null, kind: string, detail: string) => {
    mismatches.push({ storeId, orderNo, kind, detail });
    line(storeId).mismatchCount++;
  };

  for (const o of orders) {
    const l = line(o.storeId);
    const amount = Number(o.amountFen);
    const paidToday = o.paidTime != null && Number(o.paidTime) >= start && Number(o.paidTime) < end;
    if (o.refundTime != null && Number(o.refundTime) >= start && Number(o.refundTime) < end) l.refundedFen += amount;
    if (!paidToday) continue;
    l.paidCount++;
    l.paidFen += amount;
    const notified = applied.filter((n) => n.orderNo === o.orderNo);
    const notifiedFen = notified.reduce((s, n) => s + Number(n.amountFen ?? 0), 0);
    l.notifiedFen += notifiedFen;
    const posted = postings.filter((x) => x.refId === o.orderNo && x.type !== 'refund');
    const postedFen = posted.reduce((s, x) => s + Number(x.amount), 0);
    l.ledgerFen += postedFen;
    if (o.provider !== 'balance') {
      if (notified.length === 0) miss(o.storeId, o.orderNo, '缺少支付通知', `订单已支付 ${amount} 分，但没有已入账的支付通知`);
      else if (notified.length > 1) miss(o.storeId, o.orderNo, '重复入账通知', `同一订单有 ${notified.length} 条已入账通知`);
      else if (notifiedFen !== amount) miss(o.storeId, o.orderNo, '通知金额不符', `订单 ${amount} 分，通知 ${notifiedFen} 分`);
    }
    if (posted.length === 0) miss(o.storeId, o.orderNo, '缺少记账', `订单已支付 ${amount} 分，但账本中没有对应记账`);
    else if (postedFen !== amount) miss(o.storeId, o.orderNo, '记账金额不符', `订单 ${amount} 分，记账 ${postedFen} 分`);
  }
  for (const x of dayPostings) {
    if (x.type === 'refund') continue;
    if (!x.status || x.status === 'created' || x.status === 'closed') {
      miss(x.storeId ?? 0, x.refId, '记账无对应已支付订单', `记账 ${x.amount} 分，订单${x.status ? ORDER_STATUS_NAMES[x.status as OrderStatus] : '不存在'}`);
    }
  }
  for (const n of notes) {
    if (n.outcome === 'late' || n.outcome === 'rejected') {
      miss(
        n.storeId ?? 0,
        n.orderNo,
        n.outcome === 'late' ? '关单后收到支付' : '通知被拒绝',
        `${PROVIDER_TITLES[n.provider] ?? n.provider} 交易 ${n.providerTradeNo ?? '-'}：${n.message ?? ''}`,
      );
    }
  }

  const stores = await db.selectFrom('cusStore').select(['storeId', 'storeName']).execute();
  const names = new Map(stores.map((s) => [Number(s.storeId), s.storeName]));
  const rows = [...lines.values()]
    .sort((a, b) => a.storeId - b.storeId)
    .map((l) => ({ ...l, storeName: names.get(l.storeId) ?? (l.storeId ? `门店 ${l.storeId}` : '未知') }));
  const total = rows.reduce(
    (t, r) => ({
      paidCount: t.paidCount + r.paidCount,
      paidFen: t.paidFen + r.paidFen,
      notifiedFen: t.notifiedFen + r.notifiedFen,
      ledgerFen: t.ledgerFen + r.ledgerFen,
      refundedFen: t.refundedFen + r.refundedFen,
      mismatchCount: t.mismatchCount + r.mismatchCount,
    }),
    { paidCount: 0, paidFen: 0, notifiedFen: 0, ledgerFen: 0, refundedFen: 0, mismatchCount: 0 },
  );
  const orderRows = orders
    .filter((o) => o.paidTime != null && Number(o.paidTime) >= start && Number(o.paidTime) < end)
    .map((o) => ({
      orderNo: o.orderNo,
      storeId: o.storeId,
      purposeName: PURPOSE_NAMES[o.purpose as OrderPurpose] ?? o.purpose,
      providerName: PROVIDER_TITLES[o.provider] ?? o.provider,
      amountFen: Number(o.amountFen),
      statusName: ORDER_STATUS_NAMES[o.status as OrderStatus] ?? o.status,
      paidTime: Number(o.paidTime),
    }));
  return { date: day, stores: rows, total, mismatches: mismatches.map((m) => ({ ...m, storeName: names.get(m.storeId) ?? '' })), orders: orderRows };
}

const yuan = (fen: number) => Number((fen / 100).toFixed(2));

/** The report as an xlsx workbook: 汇总, 差异, 订单. */
export async function reportWorkbook(report: ReconcileReport): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const sum = wb.addWorksheet('汇总');
  sum.columns = [
    { header: '门店', key: 'storeName', width: 20 },
    { header: '已支付笔数', key: 'paidCount', width: 12 },
    { header: '订单金额(元)', key: 'paid', width: 14 },
    { header: '支付通知金额(元)', key: 'notified', width: 16 },
    { header: '记账金额(元)', key: 'ledger', width: 14 },
    { header: '退款金额(元)', key: 'refunded', width: 14 },
    { header: '差异条数', key: 'mismatchCount', width: 10 },
  ];
  for (const r of report.stores) {
    sum.addRow({ ...r, paid: yuan(r.paidFen), notified: yuan(r.notifiedFen), ledger: yuan(r.ledgerFen), refunded: yuan(r.refundedFen) });
  }
  const t = report.total;
  sum.addRow({
    storeName: '合计',
    paidCount: t.paidCount,
    paid: yuan(t.paidFen),
    notified: yuan(t.notifiedFen),
    ledger: yuan(t.ledgerFen),
    refunded: yuan(t.refundedFen),
    mismatchCount: t.mismatchCount,
  });
  const diff = wb.addWorksheet('差异');
  diff.columns = [
    { header: '门店', key: 'storeName', width: 20 },
    { header: '订单号', key: 'orderNo', width: 26 },
    { header: '差异类型', key: 'kind', width: 18 },
    { header: '说明', key: 'detail', width: 60 },
  ];
  for (const m of report.mismatches) diff.addRow(m);
  const ord = wb.addWorksheet('订单');
  ord.columns = [
    { header: '订单号', key: 'orderNo', width: 26 },
    { header: '用途', key: 'purposeName', width: 12 },
    { header: '支付方式', key: 'providerName', width: 12 },
    { header: '金额(元)', key: 'amount', width: 12 },
    { header: '状态', key: 'statusName', width: 10 },
    { header: '支付时间', key: 'paid', width: 20 },
  ];
  for (const o of report.orders) ord.addRow({ ...o, amount: yuan(o.amountFen), paid: new Date(o.paidTime).toLocaleString('zh-CN', { hour12: false }) });
  for (const ws of [sum, diff, ord]) ws.getRow(1).font = { bold: true };
  return Buffer.from(await wb.xlsx.writeBuffer());
}
