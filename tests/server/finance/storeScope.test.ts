import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FINANCE_PERM } from '../../../server/finance/routes.js';
import { PRICE, releaseOk, staff } from '../customer/helpers.js';
import { backends, startServer, type TestServer } from '../harness.js';
import { apiOk, collect, form, PDF, verifiedBank, W } from './financeHelpers.js';
import { expectLedgerBalanced } from './ledgerInvariant.js';

/**
 * Generated over the routes: every wallet / withdrawal / invoice route is called by the leader of 青岛门店 (store 3)
 * with parameters naming 济南门店's (store 2) bank account, withdrawal, invoice header and invoice. No answer may
 * show store 2's data, and nothing of store 2 may change (a write may succeed only on store 3's own rows).
 */

const SECRET_TITLE = '济南门店专用抬头';

describe.each(backends)('财务门店隔离 (%s)', (backend) => {
  let s: TestServer;
  let store3: string;
  const ids = { bank: 0, withdraw: 0, header: 0, invoice: 0 };

  beforeAll(async () => {
    s = await startServer(backend);
    const admin = await s.login('admin', 'admin123');
    const store2 = await s.login('store2leader', 'store2leader123');
    store3 = await staff(s, 'store3_scope', 3);
    await collect(s, 2, 50_000);
    ids.bank = await verifiedBank(s, store2, admin);
    ids.withdraw = (await apiOk<{ withdrawId: number }>(s, store2, `${W}/commitCash`, { bankId: ids.bank, amountFen: 10_000 })).withdrawId;
    await releaseOk(s, store2, { kind: 3, card_num: 1, vip_price: PRICE[3] });
    ids.header = (await apiOk<{ headerId: number }>(s, store2, `${W}/upInvoice`, { title: SECRET_TITLE, taxNo: '91370100MA3C4XXX1K' })).headerId;
    ids.invoice = (await apiOk<{ invoiceId: number }>(s, store2, `${W}/applyInvoice`, { headerId: ids.header, amountFen: PRICE[3] })).invoiceId;
  });
  afterAll(async () => {
    await s?.close();
  });

  async function store2State() {
    const db = s.app.db.kysely;
    return JSON.stringify({
      accounts: await db.selectFrom('finAccount').selectAll().where('storeId', '=', 2).orderBy('accountId').execute(),
      banks: await db.selectFrom('finBankAccount').selectAll().where('storeId', '=', 2).execute(),
      withdrawals: await db.selectFrom('finWithdrawal').selectAll().where('storeId', '=', 2).execute(),
      headers: await db.selectFrom('finInvoiceHeader').selectAll().where('storeId', '=', 2).execute(),
      invoices: await db.selectFrom('finInvoice').selectAll().where('storeId', '=', 2).execute(),
    });
  }

  it('no finance route lets store 3 read or change store 2’s wallet, withdrawals, bank accounts or invoices', async () => {
    // The ledger helper's routes (by their permissions); the payments routes have their own tests.
    const mine = new Set<string>(Object.values(FINANCE_PERM));
    const routes = s.app.routeRegistry.filter((r) => mine.has(String(r.permission)));
    expect(routes.length).toBeGreaterThanOrEqual(20);
    const params = {
      storeId: 2,
      bankId: ids.bank,
      withdrawId: ids.withdraw,
      headerId: ids.header,
      invoiceId: ids.invoice,
      amountFen: 100,
      accountName: '改',
      bankName: '改',
      cardNo: '6222021234567890128',
      title: '改',
      taxNo: '91370100MA3C4XXX1K',
      reason: '改',
      bankRef: 'X',
      invoiceNo: 'X',
      version: 1,
    };
    const before = await store2State();
    const leaks: string[] = [];
    for (const r of routes) {
      const query = Object.fromEntries(Object.entries(params).map(([k, v]) => [k, String(v)]));
      const res = r.url.endsWith('/issueInvoice')
        ? await (async () => {
            const f = await form(query, { field: 'file', name: 'a.pdf', type: 'application/pdf', data: PDF });
            return s.call('POST', r.url, { token: store3, body: f.body, headers: f.headers });
          })()
        : r.method === 'GET'
          ? await s.call('GET', r.url, { token: store3, query })
          : await s.call(r.method, r.url, { token: store3, body: { ...params, _route: r.url } });
      const text = res.raw;
      const what = `${r.method} ${r.url} → ${res.status} ${text.slice(0, 120)}`;
      if ([SECRET_TITLE, '济南门店', '0128'].some((needle) => text.includes(needle))) leaks.push(what);
      if (res.rawBuffer.subarray(0, 2).toString() === 'PK' || res.rawBuffer.subarray(0, 4).toString() === '%PDF') leaks.push(`${what} (file)`);
    }
    expect(leaks).toEqual([]);
    expect(await store2State()).toBe(before);
    await expectLedgerBalanced(s);
  });
});
