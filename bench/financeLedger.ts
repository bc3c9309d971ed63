import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { checkLedger, post } from '../server/finance/ledger.js';
import { loadOrCreateKeys } from '../server/security/keys.js';
import { assert, sequentialRequests, signIn } from './http.js';
import { openServerDatabase, startServer } from './server.js';
import { timerSigner } from './sign.js';
import { summarize } from './stats.js';

/**
 * The finance ledger (server/finance/) on the real server's SQLite file:
 *  - ledger.post, in-process, one posting per transaction (world → a store's 收款钱包), ms per posting;
 *  - checkLedger over the resulting ledger;
 *  - 收款钱包 资金流水 (GET /appv2/api/MoneyWallet/walletIn) first page and a type + date filter, one request at a time;
 *  - 100 concurrent 提现 (POST /appv2/api/MoneyWallet/commitCash) over HTTP: wall time, accepted / refused.
 * Run: `npm run bench -- ledger` or `npx tsx bench/financeLedger.ts` (BENCH_FIN_POSTINGS, default 20000; BENCH_RUNS,
 * default 200). Figures go to docs/benchmarks.md by hand, with the machine load the run prints.
 */

const W = '/appv2/api/MoneyWallet';

export async function runLedgerBench(runs = Number(process.env.BENCH_RUNS ?? 200), postings = Number(process.env.BENCH_FIN_POSTINGS ?? 20_000)) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zy-bench-finance-'));
  const server = await startServer(dataDir);
  try {
    const pem = loadOrCreateKeys(dataDir).requestPublicPem;
    const db = await openServerDatabase(dataDir);
    const k = db.kysely;

    // ---- ledger.post, one transaction each ----
    const times = new Float64Array(postings);
    for (let i = 0; i < postings; i++) {
      const t0 = performance.now();
      await post(k, {
        type: 'customer_payment',
        memo: '基准测试收款',
        lines: [
          { storeId: 0, kind: 'world', amount: -(100 + (i % 900)) },
          { storeId: 2, kind: 'collection', amount: 100 + (i % 900) },
        ],
      });
      times[i] = performance.now() - t0;
    }
    const postSummary = summarize(times);
    const t1 = performance.now();
    const check = await checkLedger(k);
    const checkMs = performance.now() - t1;
    assert(check.total === 0 && check.mismatches.length === 0, '账本不平');
    const entries = Number(
      (
        await k
          .selectFrom('finEntry')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

    // A verified bank account of store 2 for the withdrawals.
    const bank = await k
      .insertInto('finBankAccount')
      .values({
        storeId: 2,
        accountName: '济南门店',
        bankName: '工商银行',
        branch: null,
        cardNo: '6222021234567890128',
        verified: 1,
        verifiedBy: 'bench',
        verifiedTime: Date.now(),
        status: '0',
        createBy: 'bench',
        createTime: Date.now(),
        version: 1,
      })
      .returning('bankId')
      .executeTakeFirstOrThrow();
    await db.close();

    // ---- 资金流水 over HTTP ----
    // Signed in only now: a connection opened before the long in-process phase would have been closed as idle.
    const token = await signIn(server.base, pem); // admin: headquarters, names store 2
    const ctx = { base: server.base, requestPublicPem: pem, token };
    const nonEmpty = (a: { code: number; rows?: unknown[] }) => assert(a.code === 200 && (a.rows?.length ?? 0) > 0, `资金流水返回 ${a.code}`);
    const today = new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10);
    const measure = async (p: string) => summarize(await sequentialRequests(ctx, runs, () => ({ method: 'GET', path: p }), nonEmpty));
    const statement = {
      first: await measure(`${W}/walletIn?storeId=2&pageNum=1&pageSize=20`),
      filtered: await measure(`${W}/walletIn?storeId=2&pageNum=10&pageSize=20&type=customer_payment&beginTime=${today}&endTime=${today}`),
    };

    // ---- 100 concurrent withdrawals that together exceed the wallet ----
    const sign = timerSigner(pem);
    const wallet = (await (await fetch(`${server.base}${W}/wallet?storeId=2`, { headers: { ...sign(), Authorization: `Bearer ${token}` } })).json()) as {
      data: { collectionFen: number };
    };
    const amount = Math.ceil(wallet.data.collectionFen / 50);
    const t2 = performance.now();
    const answers = await Promise.all(
      Array.from({ length: 100 }, async (_, i) => {
        const res = await fetch(`${server.base}${W}/commitCash`, {
          method: 'POST',
          headers: { ...sign(), Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({ storeId: 2, bankId: bank.bankId, amountFen: amount, remark: `基准 ${i}` }),
        });
        return (await res.json()) as { code: number };
      }),
    );
    const withdrawMs = performance.now() - t2;
    const accepted = answers.filter((a) => a.code === 200).length;
    assert(accepted === 49 || accepted === 50, `提现通过 ${accepted} 笔`);
    return { postings, entries, post: postSummary, checkMs, statement, withdraw: { requests: 100, accepted, ms: withdrawMs }, runs };
  } catch (error) {
    const why = server.died();
    if (why) throw new Error(why);
    throw error;
  } finally {
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Prints the figures of runLedgerBench (npm run bench -- ledger, or npx tsx bench/financeLedger.ts). */
export function printLedgerResult(r: Awaited<ReturnType<typeof runLedgerBench>>) {
  const f = (n: number) => n.toFixed(2);
  console.log(`\n记账 ledger.post（${r.postings} 笔，每笔一个事务）：p50 ${f(r.post.p50)} ms，p99 ${f(r.post.p99)} ms，平均 ${f(r.post.mean)} ms`);
  console.log(`checkLedger（${r.entries} 条分录）：${f(r.checkMs)} ms`);
  for (const [name, s] of Object.entries(r.statement)) {
    console.log(`收款钱包流水 ${name}（${r.runs} 次）：p50 ${f(s.p50)} ms，p99 ${f(s.p99)} ms`);
  }
  console.log(`并发提现 ${r.withdraw.requests} 笔：${f(r.withdraw.ms)} ms，通过 ${r.withdraw.accepted} 笔，其余余额不足被拒`);
  console.log(`负载（1 分钟平均）：${os.loadavg()[0].toFixed(2)}，${os.availableParallelism()} 核`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  printLedgerResult(await runLedgerBench());
}
